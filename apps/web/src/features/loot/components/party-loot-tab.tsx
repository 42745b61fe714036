import { lootMessages } from '@haversack/contracts';
import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { partyLootQuery } from '../api/loot-api';
import { LootCard, LootCardSkeletons } from './loot-card';
import { LootReceivedSummary } from './loot-received-summary';

/**
 * spec/02 §2 party Loot tab: "Party Loot", the GM's way to the loot templates, and a card per loot (the
 * GM sees hidden loot too, with Reveal, Hide and Delete). The party page follows the party live, so a
 * loot revealed elsewhere appears here at once.
 */
export function PartyLootTab({
  partyId,
  isGm,
  archived = false,
}: {
  partyId: string;
  /** The party's GM (spec/02 §6: GM only are the template links, reveal, hide and delete). */
  isGm: boolean;
  /** An archived party's loot is read-only. */
  archived?: boolean;
}) {
  const query = useQuery(partyLootQuery(partyId));
  const templatesLink = `/loot/templates?${new URLSearchParams({ party_id: partyId })}`;
  return (
    <Stack gap="md" data-testid="party-loot">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={2} size="h3">
            {lootMessages.partyLootHeading}
          </Title>
          <Text c="dimmed" size="sm">
            {lootMessages.partyLootSubtitle}
          </Text>
        </Stack>
        {isGm ? (
          <Button component={Link} to={templatesLink} variant="light">
            {lootMessages.browseTemplates}
          </Button>
        ) : null}
      </Group>
      {query.isPending ? (
        <LootCardSkeletons />
      ) : query.isError && !query.data ? (
        <ErrorPanel
          title="Unable to Load Loot"
          message="Failed to load this party's loot. Please try again."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.instances.length === 0 ? (
        <EmptyState
          title={lootMessages.noPartyLoot}
          message={
            isGm
              ? 'Deploy a loot template to hide treasure for the party to find.'
              : 'Loot the GM reveals to the party shows up here.'
          }
          headingOrder={3}
          action={
            isGm && !archived ? (
              <Button component={Link} to={templatesLink}>
                {lootMessages.deployTemplate}
              </Button>
            ) : null
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="party-loot-cards">
            {query.data.instances.map((loot) => (
              <LootCard key={loot.id} loot={loot} manageable={!archived} />
            ))}
          </SimpleGrid>
          {/* Issue 11 §8: who has received what so far, so the table can see the split was fair. */}
          <LootReceivedSummary partyId={partyId} />
        </>
      )}
    </Stack>
  );
}
