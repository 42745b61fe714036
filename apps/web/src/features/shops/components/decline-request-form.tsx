import type { ShopRequest } from '@haversack/contracts';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';

/** The server's limit on a decline's reason (contracts shopRequestDecisionSchema). */
const REASON_MAX = 500;

/**
 * Declining a purchase in its own card: the GM may say why (who asked is told it, live and in the list of
 * decided requests), or keep the request after all. Escape keeps it.
 */
export function DeclineRequestForm({
  request,
  busy,
  onDecline,
  onKeep,
}: {
  request: ShopRequest;
  busy: boolean;
  onDecline: (reason: string) => void;
  onKeep: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onDecline(reason);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !busy) {
          event.stopPropagation();
          onKeep();
        }
      }}
      data-testid="decline-request-form"
    >
      <Stack gap="xs">
        <TextInput
          label="Reason (optional)"
          description={`${request.requester.name} is told it.`}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          maxLength={REASON_MAX}
          disabled={busy}
          // Opened by the GM's own click on Decline: the reason is what they came to write.
          autoFocus
        />
        <Group justify="flex-end" gap="xs">
          <Button size="sm" variant="default" onClick={onKeep} disabled={busy}>
            Keep request
          </Button>
          <Button size="sm" color="red" type="submit" loading={busy}>
            Decline purchase
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
