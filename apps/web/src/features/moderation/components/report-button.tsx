import { REPORT_REASON_MAX, type ReportTargetType } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { sendReport } from '../api/reports-api';

const nouns: Record<ReportTargetType, string> = {
  item_template: 'item',
  shop_template: 'shop',
  loot_template: 'loot template',
  party: 'party',
};

/** Issue 15: "Report" on public content someone else made; the staff see it in /admin/moderation. */
export function ReportButton({
  targetType,
  targetId,
  targetName,
  size = 'sm',
}: {
  targetType: ReportTargetType;
  targetId: string;
  targetName: string;
  size?: 'xs' | 'sm';
}) {
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: () => sendReport({ target_type: targetType, target_id: targetId, reason }),
    onSuccess: () => {
      toast.success('Thank you. The staff will look at your report.');
      setOpened(false);
      setReason('');
    },
  });
  const error = send.error
    ? isApiError(send.error)
      ? send.error.details.map((d) => d.message).join(' ') || send.error.message
      : 'Your report could not be sent. Please try again.'
    : null;
  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        size={size}
        aria-label={`Report ${nouns[targetType]} ${targetName}`}
        leftSection={<IconFlag size={16} aria-hidden="true" />}
        onClick={() => setOpened(true)}
      >
        Report
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Report ${nouns[targetType]}: ${targetName}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            send.mutate();
          }}
        >
          <Stack gap="sm">
            <Textarea
              label="Why are you reporting this?"
              required
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={REPORT_REASON_MAX}
              autosize
              minRows={3}
              data-autofocus
            />
            {error ? <Alert color="red">{error}</Alert> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" loading={send.isPending} disabled={reason.trim() === ''}>
                Send Report
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
