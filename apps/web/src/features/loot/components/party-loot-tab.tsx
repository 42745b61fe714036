import { formatEnUs, lootMessages } from '@haversack/contracts';
import { Button, Group, Pagination, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useStayWithinPages } from '../../../lib/last-page';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { defaultPartyLootFilters, type PartyLootFilters, partyLootPageQuery } from '../api/loot-api';
import { LootCard, LootCardSkeletons } from './loot-card';
import { LootReceivedSummary } from './loot-received-summary';

/**
 * spec/02 §2 party Loot tab: "Party Loot", the GM's way to the loot templates, and a card per loot (the
 * GM sees hidden loot too, with Reveal, Hide and Delete). The party page follows the party live, so a
 * loot revealed elsewhere appears here at once. A year of play left 200 loots in a party: the tab shows a
 * page at a time with the Parties page's pager, says how many there are, and searches them (and the GM
 * filters them by revealed or hidden) on the server.
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
  const [filters, setFilters] = useState<PartyLootFilters>(defaultPartyLootFilters);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    setFilters((current) =>
      current.search === debounced ? current : { ...current, search: debounced, page: 1 },
    );
  }, [debounced]);
  const query = useQuery(partyLootPageQuery(partyId, filters));
  const meta = query.data?.meta;
  const shown = query.data?.instances.length ?? 0;
  const totalPages = meta?.total_pages ?? 1;
  // A page emptied meanwhile (its loot deleted, here or elsewhere) gives way to the last one left.
  useStayWithinPages(filters.page, meta, query.isSuccess && !query.isPlaceholderData, (page) =>
    setFilters((current) => ({ ...current, page })),
  );
  const filtered = filters.search.trim() !== '' || filters.isRevealed !== null;
  // Nothing to search or filter in a party with no loot at all: its empty state stands alone.
  const showFilters = filtered || search !== '' || (meta?.total_count ?? 0) > 0;
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
      {showFilters ? (
        <Group gap="sm" align="flex-end">
          <TextInput
            label="Search loot"
            placeholder="Name, source or location"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
          />
          {/* Only the GM is sent hidden loot (spec/02 §6): for the others there is nothing to filter. */}
          {isGm ? (
            <Select
              label="Status"
              placeholder="Revealed and hidden"
              data={[
                { value: 'true', label: 'Revealed' },
                { value: 'false', label: 'Hidden' },
              ]}
              value={filters.isRevealed === null ? null : String(filters.isRevealed)}
              onChange={(value) =>
                setFilters((current) => ({
                  ...current,
                  isRevealed: value === null ? null : value === 'true',
                  page: 1,
                }))
              }
              clearable
              comboboxProps={{ withinPortal: true }}
              style={{ flex: '0 1 200px' }}
            />
          ) : null}
        </Group>
      ) : null}
      {meta && shown > 0 ? (
        <Text size="sm" c="dimmed" data-testid="party-loot-count" aria-live="polite">
          Showing {formatEnUs((meta.current_page - 1) * meta.per_page + 1)}–
          {formatEnUs((meta.current_page - 1) * meta.per_page + shown)} of {formatEnUs(meta.total_count)}
        </Text>
      ) : null}
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <LootCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Unable to Load Loot"
          message="Failed to load this party's loot. Please try again."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.instances.length === 0 && filtered ? (
        <EmptyState
          title="No loot matches your search"
          message="Try other words, or clear the search and the status filter."
          headingOrder={3}
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
          {totalPages > 1 ? (
            <Group justify="center">
              <Pagination
                total={totalPages}
                value={filters.page}
                onChange={(page) => setFilters((current) => ({ ...current, page }))}
                siblings={1}
                boundaries={1}
                aria-label="Party loot pages"
              />
            </Group>
          ) : null}
          {/* Issue 11 §8: who has received what so far, so the table can see the split was fair. */}
          <LootReceivedSummary partyId={partyId} />
        </>
      )}
    </Stack>
  );
}
