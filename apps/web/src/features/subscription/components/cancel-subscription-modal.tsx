import type { Patronage, Tier, Usage } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { subscriptionErrorMessage, useCancelSubscription } from '../api/subscription-api';
import { partyStashLossText } from '../plan-text';
import { EndingPatronages, PlanChangeSummary } from './plan-change-summary';

const REASON_MAX_LENGTH = 1000;

interface CancelSubscriptionModalProps {
  opened: boolean;
  onClose: () => void;
  planName: string;
  /** "March 5, 2026": when the paid plan stops. */
  periodEnd: string;
  /** A plan staff gave: it has no period, so cancelling ends it at once. */
  endsNow?: boolean;
  /** The patronages this user grants: each ends with the plan, since Free grants nothing (spec/01 §6). */
  sponsoring?: Patronage[];
  /** Plan names by identifier, for "bard's Hero". */
  tierName?: (identifier: Patronage['granted_tier']) => string;
  /** The plan has Party collaboration and Free does not: the party stashes lock with the move. */
  losesPartyCollaboration?: boolean;
  /** The plan, the Free plan it moves to (once the catalogue has loaded) and the usage: what Free limits. */
  change?: { from: Tier; to: Tier; usage: Partial<Usage> };
}

/** Asks why, then cancels at the end of the period (spec/01 §4); the plan stays until then. */
export function CancelSubscriptionModal({
  opened,
  onClose,
  planName,
  periodEnd,
  endsNow = false,
  sponsoring = [],
  tierName = () => 'sponsored plan',
  losesPartyCollaboration = false,
  change,
}: CancelSubscriptionModalProps) {
  const [reason, setReason] = useState('');
  const cancel = useCancelSubscription();
  const once = useSingleFlight();

  const close = () => {
    cancel.reset();
    onClose();
  };

  const confirm = () => {
    once(() =>
      cancel.mutateAsync(reason, {
        onSuccess: () => {
          setReason('');
          onClose();
        },
      }),
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Cancel subscription"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">
          {endsNow
            ? `The ${planName} plan was given to you by the site’s staff, so it has no period to run out: you move to the Free plan at once.`
            : `You keep the ${planName} plan until ${periodEnd || 'the end of the current period'}; after that you move to the Free plan. You can reactivate at any time before then.`}
        </Text>
        {losesPartyCollaboration ? (
          <Alert
            role="note"
            color="yellow"
            variant="light"
            icon={<IconLock aria-hidden="true" />}
            title="Party stashes lock for you"
            data-testid="cancel-ends-party-collaboration"
          >
            <Text size="sm">
              {partyStashLossText(
                'Free',
                endsNow ? 'At once' : `From ${periodEnd || 'the end of the period'}`,
              )}
            </Text>
          </Alert>
        ) : null}
        <EndingPatronages
          patronages={sponsoring}
          when={endsNow ? 'At once' : `On ${periodEnd || 'that day'}`}
          tierName={tierName}
        />
        {change ? <PlanChangeSummary usage={change.usage} from={change.from} to={change.to} /> : null}
        <Textarea
          label="Why are you cancelling?"
          description="Optional. It helps us make Haversack better."
          rows={3}
          maxLength={REASON_MAX_LENGTH}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-testid="cancel-reason"
        />
        {cancel.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="cancel-error">
            {subscriptionErrorMessage(cancel.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Keep my plan
          </Button>
          <Button color="red.9" onClick={confirm} loading={cancel.isPending} data-testid="confirm-cancel">
            Cancel subscription
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
