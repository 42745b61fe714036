import type { ShareKind } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShare } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/loading';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { CopyMessage } from '../../parties/components/copy-message';
import { useCreateShare, useRevokeShare } from '../api/shares-api';
import { shareTargetLabel } from './share-format';

interface ShareButtonProps {
  kind: ShareKind;
  targetId: string;
  /** What is shared, as the dialog names it ("Thorin's inventory"). */
  targetName: string;
}

/**
 * Issue 16 §3: "Share" where a character, a revealed loot or a shop is shown. Opening the dialog makes the
 * link (or finds the one already made), so there is one click between a member and a link to paste.
 */
export function ShareButton({ kind, targetId, targetName }: ShareButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" leftSection={<IconShare size={16} aria-hidden="true" />} onClick={open}>
        Share
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={`Share ${targetName}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {opened ? <ShareDialogBody kind={kind} targetId={targetId} onDone={close} /> : null}
      </Modal>
    </>
  );
}

function ShareDialogBody({
  kind,
  targetId,
  onDone,
}: {
  kind: ShareKind;
  targetId: string;
  onDone: () => void;
}) {
  const create = useCreateShare();
  const revoke = useRevokeShare();
  const { mutate } = create;
  useEffect(() => {
    mutate({ kind, target_id: targetId });
  }, [mutate, kind, targetId]);

  if (create.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" variant="light" role="alert" title="Could not make a share link">
          {isApiError(create.error)
            ? create.error.message
            : 'An unexpected error occurred. Please try again.'}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => create.mutate({ kind, target_id: targetId })}>
            Try Again
          </Button>
        </Group>
      </Stack>
    );
  }
  const link = create.data;
  if (!link) return <Spinner label="Making a share link" />;
  const stopSharing = () =>
    revoke.mutate(link.id, {
      onSuccess: () => {
        toast.success('Share link revoked');
        onDone();
      },
    });
  return (
    <Stack gap="md" data-testid="share-dialog">
      <Text size="sm">
        Anyone with this link can see “{shareTargetLabel(link)}” read-only, without signing in. Paste it in
        Discord or any chat to show a preview.
      </Text>
      <CopyMessage label="Share link" text={link.url} />
      <Text size="sm" c="dimmed">
        Manage your links under{' '}
        <Anchor component={Link} to="/profile" onClick={onDone}>
          Shared links on your profile
        </Anchor>
        .
      </Text>
      <Group justify="space-between">
        {/* Plain red, not a shade: Mantine draws a subtle button's shade no darker than 6, 3.3:1 on white;
            red's light-variant text is readable in both schemes (theme.ts). */}
        <Button variant="subtle" color="red" onClick={stopSharing} loading={revoke.isPending}>
          Stop sharing
        </Button>
        <Group gap="sm">
          <Button component="a" href={link.url} target="_blank" rel="noopener" variant="default">
            Open link
          </Button>
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Group>
    </Stack>
  );
}
