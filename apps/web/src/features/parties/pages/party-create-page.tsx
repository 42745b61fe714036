import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { createParty, partyKeys } from '../api/parties-api';
import { PartyForm } from '../components/party-form';

/** spec/02 §2 Party create: the form, then the new party. */
export function PartyCreatePage() {
  usePageTitle('Create Party');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<unknown>(null);

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Create Party</Title>
        <Text c="dimmed">Start a party, then share its join code with your players.</Text>
        <PlanLimitHint resource="parties_created" />
      </Stack>
      <UpgradePrompt error={refusal} />
      <Paper withBorder p="lg">
        <PartyForm
          submitLabel="Create Party"
          onCancel={() => navigate('/parties')}
          onSubmit={async (values) => {
            setRefusal(null);
            const party = await createParty(values);
            await queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
            toast.success(`Party "${party.name}" created successfully!`);
            navigate(`/parties/${party.id}`);
          }}
          onOtherError={setRefusal}
        />
      </Paper>
    </Stack>
  );
}
