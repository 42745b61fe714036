import type { AuditLogEntry } from '@haversack/contracts';
import { Anchor, Code, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { auditTarget } from '../lib/audit-labels';

/**
 * An audit entry's target as a reader says it ("User bram@example.com"), linked to its admin page where it
 * has one, with the start of the raw id under it (the whole id on hover and in the entry's details).
 */
export function AuditTargetLabel({ entry }: { entry: AuditLogEntry }) {
  const target = auditTarget(entry);
  // An entry without a target (a refused visit) names the address it was refused at.
  if (!target) return <Code style={{ overflowWrap: 'anywhere' }}>{String(entry.details.path ?? '—')}</Code>;
  const words = target.name ? `${target.type} ${target.name}` : target.type;
  return (
    <Stack gap={0} style={{ overflowWrap: 'anywhere' }}>
      {target.href ? (
        <Anchor component={Link} to={target.href} size="sm" className="haversack-touch-target">
          {words}
        </Anchor>
      ) : (
        <Text size="sm">{words}</Text>
      )}
      {target.id ? (
        <Text size="xs" c="dimmed" ff="monospace" title={target.id}>
          {target.id.slice(0, 8)}
        </Text>
      ) : null}
    </Stack>
  );
}
