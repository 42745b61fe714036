import type { AuditLogEntry } from '@haversack/contracts';
import { Code, Modal, Stack, Text, Title } from '@mantine/core';
import { auditActionLabel, auditActorLabel, auditRefusal, auditTarget } from '../lib/audit-labels';
import { adminDateTime } from '../lib/format';

function JsonBlock({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h6">
        {label}
      </Title>
      {/* A long value (a 300-letter suspension reason) wraps inside the box, its indent kept. */}
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {JSON.stringify(value, null, 2)}
      </Code>
    </Stack>
  );
}

/** One entry whole: what it was before and after, the details, and where the call came from. */
export function AuditLogEntryDetails({
  entry,
  onClose,
}: {
  entry: AuditLogEntry | null;
  onClose: () => void;
}) {
  const refusal = entry ? auditRefusal(entry) : null;
  const target = entry ? auditTarget(entry) : null;
  return (
    <Modal
      opened={entry !== null}
      onClose={onClose}
      title="Audit entry"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {entry ? (
        <Stack gap="sm">
          <Text>
            <strong>{auditActionLabel(entry.action)}</strong> by {auditActorLabel(entry)} on{' '}
            {adminDateTime(entry.created_at)}
          </Text>
          {refusal?.attempted ? <Text size="sm">Attempted: {refusal.attempted}</Text> : null}
          {refusal ? <Text size="sm">Why refused: {refusal.why}</Text> : null}
          {target ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Target: {target.name ? `${target.type} ${target.name}` : target.type}{' '}
              {target.id ? <Code>{target.id}</Code> : null}
            </Text>
          ) : null}
          <JsonBlock label="Before" value={entry.before} />
          <JsonBlock label="After" value={entry.after} />
          <JsonBlock label="Details" value={entry.details} />
          <Text size="sm" c="dimmed">
            Address: {entry.ip_address ?? 'unknown'}
            <br />
            Browser: {entry.user_agent ?? 'unknown'}
          </Text>
        </Stack>
      ) : null}
    </Modal>
  );
}
