import type { CurrentSubscription, Tier } from '@haversack/contracts';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { partyKeys } from '../../parties/api/parties-api';
import {
  currentSubscriptionQueryOptions,
  subscriptionKeys,
  tiersQueryOptions,
} from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { usePlanLimit } from '../../subscription/plan-limit';
import { liftingPatronages } from '../../subscription/sponsorship';
import { characterKeys, createCharacter } from '../api/characters-api';
import { CharacterForm, characterFormDefaults } from '../components/character-form';

/** /characters/new; ?party_id preselects the party (spec/02 §2 Overview quick action). */
export function CharacterCreatePage() {
  usePageTitle('New Character');
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const partyId = searchParams.get('party_id');
  const current = useQuery(currentSubscriptionQueryOptions());
  const limit = usePlanLimit('characters');
  const ownPlanFull = limit.full;
  const sponsored = ownPlanFull && current.data ? liftingPatronages(current.data) : [];
  const tiers = useQuery({ ...tiersQueryOptions(), enabled: sponsored.length > 0 });
  // DESIGN §5: a character created in a party where the player is sponsored counts against the sponsor's plan.
  const roomyParties = new Set(
    sponsored
      .filter((patronage) => hasRoom(tiers.data?.tiers, patronage.granted_tier, current.data))
      .map((patronage) => patronage.party_id),
  );
  const roomyNames = sponsored.filter((patronage) => roomyParties.has(patronage.party_id));

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>New Character</Title>
        <Text c="dimmed">Create a character; an inventory comes with it.</Text>
        {/* The limit is said here only: the submit stays disabled while it holds, so no refusal repeats it. */}
        <PlanLimitHint resource="characters" id={limit.hintId} />
        {roomyNames.length > 0 ? (
          <Text size="sm" data-testid="character-limit-sponsored">
            {`You can still create one in ${roomyNames.map((patronage) => patronage.party_name ?? 'a party').join(' or ')}, where you are sponsored: choose it as the Party.`}
          </Text>
        ) : null}
      </Stack>
      <Paper withBorder p="lg">
        <CharacterForm
          initialValues={{ ...characterFormDefaults, party_id: partyId }}
          preselectOnlyParty={!partyId}
          submitLabel="Create Character"
          submitBlockedBy={(values) =>
            ownPlanFull && !(values.party_id && roomyParties.has(values.party_id)) ? limit.hintId : null
          }
          onCancel={() => navigate(partyId ? `/parties/${partyId}` : '/characters')}
          onSubmit={async (values) => {
            const { character, message } = await createCharacter(values);
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: characterKeys.all }),
              queryClient.invalidateQueries({ queryKey: partyKeys.all }),
              queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
            ]);
            toast.success(message);
            navigate(`/characters/${character.id}`);
          }}
          // The count was stale (a character made elsewhere): the refusal's toast says so once, and the
          // refreshed count turns the hint above full and disables the submit.
          onOtherError={limit.onRefusal}
        />
      </Paper>
    </Stack>
  );
}

/** Whether the sponsored plan leaves room for another character; unknown until the plans load (the server decides). */
function hasRoom(
  tiers: Tier[] | undefined,
  identifier: Tier['identifier'],
  current: CurrentSubscription | undefined,
): boolean {
  const limit = tiers?.find((tier) => tier.identifier === identifier)?.limits.characters;
  if (limit === undefined || limit === null) return true;
  return (current?.usage.characters?.used ?? 0) < limit;
}
