import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { partyKeys } from '../../parties/api/parties-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { characterKeys, createCharacter } from '../api/characters-api';
import { CharacterForm, characterFormDefaults } from '../components/character-form';

/** /characters/new; ?party_id preselects the party (spec/02 §2 Overview quick action). */
export function CharacterCreatePage() {
  usePageTitle('New Character');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<unknown>(null);
  const partyId = searchParams.get('party_id');

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>New Character</Title>
        <Text c="dimmed">Create a character; an inventory comes with it.</Text>
        <PlanLimitHint resource="characters" />
      </Stack>
      <UpgradePrompt error={refusal} />
      <Paper withBorder p="lg">
        <CharacterForm
          initialValues={{ ...characterFormDefaults, party_id: partyId }}
          submitLabel="Create Character"
          onCancel={() => navigate(partyId ? `/parties/${partyId}` : '/characters')}
          onSubmit={async (values) => {
            setRefusal(null);
            const { character, message } = await createCharacter(values);
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: characterKeys.all }),
              queryClient.invalidateQueries({ queryKey: partyKeys.all }),
            ]);
            toast.success(message);
            navigate(`/characters/${character.id}`);
          }}
          onOtherError={setRefusal}
        />
      </Paper>
    </Stack>
  );
}
