import { lootMessages } from '@haversack/contracts';
import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
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
  // The loot just deleted and its place: its card goes, the Delete pressed and its dialog with it, and the
  // keyboard goes on to the card that took its place, else to the heading of the emptied list.
  const [deleted, setDeleted] = useState<{ id: string; index: number } | null>(null);
  const cardsRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!deleted || !query.data || query.data.instances.some((loot) => loot.id === deleted.id)) return;
    setDeleted(null);
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const cards = cardsRef.current?.querySelectorAll<HTMLElement>('[data-testid="loot-card"]') ?? [];
    const next = cards[Math.min(deleted.index, cards.length - 1)]?.querySelector<HTMLElement>('a, button');
    (next ?? headingRef.current)?.focus();
  }, [deleted, query.data]);
  const templatesLink = `/loot/templates?${new URLSearchParams({ party_id: partyId })}`;
  return (
    <Stack gap="md" data-testid="party-loot">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Title order={2} size="h3" ref={headingRef} tabIndex={-1}>
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
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            spacing="md"
            data-testid="party-loot-cards"
            ref={cardsRef}
          >
            {query.data.instances.map((loot, index) => (
              <LootCard
                key={loot.id}
                loot={loot}
                manageable={!archived}
                onDeleted={() => setDeleted({ id: loot.id, index })}
              />
            ))}
          </SimpleGrid>
          {/* Issue 11 §8: who has received what so far, so the table can see the split was fair. */}
          <LootReceivedSummary partyId={partyId} />
        </>
      )}
    </Stack>
  );
}
