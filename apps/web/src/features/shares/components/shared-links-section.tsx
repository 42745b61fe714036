import { type ShareLink, shareKindLabels } from '@haversack/contracts';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useCopyToClipboard } from '../../../lib/clipboard';
import { formatWhen } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { COPY_INDICATOR_MS } from '../../parties/components/copy-message';
import { mySharesQuery, useRevokeShare } from '../api/shares-api';
import { shareTargetLabel } from './share-format';

/** Issue 16 §3: the profile's list of the share links I made, each with copy and revoke. */
export function SharedLinksSection() {
  const shares = useQuery(mySharesQuery());
  const revoke = useRevokeShare();
  const [revoking, setRevoking] = useState<ShareLink | null>(null);

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast.success('Share link revoked');
        setRevoking(null);
      },
    });
  };

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="shared-links-heading">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4" id="shared-links-heading">
            Shared links
          </Title>
          <Text size="sm" c="dimmed">
            Links you made with Share on a character, a loot or a shop. Anyone with a link can view it,
            read-only, until you revoke it.
          </Text>
        </Stack>
        <RefreshFailedNote query={shares} />
        {shares.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(shares) ? (
          <ErrorPanel
            title="Could not load your shared links"
            message="Please try again."
            onRetry={() => void shares.refetch()}
          />
        ) : shares.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="shared-links-empty">
            You have no shared links. Share a character, a loot or a shop from its page.
          </Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {shares.data.map((link) => (
              <SharedLinkRow key={link.id} link={link} onRevoke={() => setRevoking(link)} />
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke share link?"
        message={`The link to “${revoking ? shareTargetLabel(revoking) : ''}” will stop working at once for everyone who has it.`}
        confirmLabel="Revoke"
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
        loading={revoke.isPending}
      />
    </Paper>
  );
}

function SharedLinkRow({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  const clipboard = useCopyToClipboard({ timeout: COPY_INDICATOR_MS });
  const label = shareTargetLabel(link);
  return (
    <Paper component="li" withBorder p="sm" data-testid="shared-link">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Group gap="xs">
            <Badge variant="light" size="sm">
              {shareKindLabels[link.kind]}
            </Badge>
            {link.available ? null : (
              <Badge variant="light" color="gray" size="sm">
                No longer available
              </Badge>
            )}
            <Text
              fw={600}
              c={link.target_name === null ? 'dimmed' : undefined}
              style={{ overflowWrap: 'anywhere' }}
            >
              {label}
            </Text>
          </Group>
          {link.available ? null : (
            // The server names nothing it no longer shows its maker (a hidden loot, a party left).
            <Text size="sm" c="dimmed">
              Its page shows nothing now. Revoke the link if you no longer need it.
            </Text>
          )}
          <Anchor
            href={link.url}
            target="_blank"
            rel="noopener"
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
          >
            {link.url}
          </Anchor>
          <Text size="xs" c="dimmed">
            Shared {formatWhen(link.created_at, 'date')}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => clipboard.copy(link.url)}
            aria-label={clipboard.copied ? `Link to ${label} copied` : `Copy link to ${label}`}
          >
            {clipboard.copied ? 'Copied!' : 'Copy'}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color="red.9"
            onClick={onRevoke}
            aria-label={`Revoke link to ${label}`}
          >
            Revoke
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
