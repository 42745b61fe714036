import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { subscriptionKeys } from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { usePlanLimit } from '../../subscription/plan-limit';
import { createParty, partyKeys } from '../api/parties-api';
import { PartyForm } from '../components/party-form';

/** spec/02 §2 Party create: the form, then the new party. */
export function PartyCreatePage() {
  usePageTitle('Create Party');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const limit = usePlanLimit('parties_created');

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Create Party</Title>
        <Text c="dimmed">Start a party, then share its join code with your players.</Text>
        {/* The limit is said here only: the submit stays disabled while it holds, so no refusal repeats it. */}
        <PlanLimitHint resource="parties_created" id={limit.hintId} />
      </Stack>
      <Paper withBorder p="lg">
        <PartyForm
          submitLabel="Create Party"
          submitBlockedBy={limit.blockedBy}
          onCancel={() => navigate('/parties')}
          onSubmit={async (values) => {
            const party = await createParty(values);
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: partyKeys.lists() }),
              queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
            ]);
            toast.success(`Party "${party.name}" created successfully!`);
            navigate(`/parties/${party.id}`);
          }}
          onOtherError={limit.onRefusal}
        />
      </Paper>
    </Stack>
  );
}
