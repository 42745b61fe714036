import type { ItemTemplate } from '@haversack/contracts';
import {
  Button,
  Group,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState, noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { MoreFiltersButton, useFoldedFilters } from '../../../components/more-filters';
import { NumberField } from '../../../components/number-field';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { rangeError } from '../../../lib/range';
import { weightLabel } from '../../../lib/weight';
import { AddToContainerDialog } from '../../inventory/components/add-to-container-dialog';
import { marketplaceQuery } from '../../items/api/item-templates-api';
import { rarityOptions } from '../../items/rarities';
import { MarketplaceResults } from '../components/marketplace-results';
import {
  draftOf,
  filtersOf,
  type MarketplaceAddress,
  type MarketplaceDraft,
  type MarketplaceSort,
  marketplaceSortOptions,
  readMarketplaceAddress,
  writeMarketplaceAddress,
} from '../marketplace-address';

/** /marketplace: search public item templates and add them to one of my containers. */
export function MarketplacePage() {
  usePageTitle('Marketplace');
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const address = readMarketplaceAddress(params);
  // The fields answer each key at once; the address (and with it the search) follows 300 ms later.
  const [draft, setDraft] = useState<MarketplaceDraft>(() => draftOf(address));
  const [settled] = useDebouncedValue(draft, 300);
  // The last address this page wrote, to tell it apart from one the person came to (Back, a link).
  const written = useRef(params.toString());
  const go = (next: MarketplaceAddress, options: { replace: boolean }) => {
    const search = writeMarketplaceAddress(next);
    written.current = search.toString();
    setParams(search, options);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled draft writes the address
  useEffect(() => {
    const current = readMarketplaceAddress(params);
    if (JSON.stringify(draftOf(current)) === JSON.stringify(settled)) return;
    // Typing leaves no trail of half words in the history: the address is replaced, back to page 1.
    go({ ...current, ...settled, page: 1 }, { replace: true });
  }, [settled]);
  useEffect(() => {
    if (params.toString() === written.current) return;
    written.current = params.toString();
    setDraft(draftOf(readMarketplaceAddress(params)));
  }, [params]);

  const query = useQuery(marketplaceQuery(filtersOf(address)));
  // A page past the end (an old link, fewer results since): the last page that has results instead.
  const lastPage = query.data?.meta.total_pages ?? 1;
  const pastTheEnd =
    query.isSuccess && !query.isPlaceholderData && query.data.meta.total_count > 0 && address.page > lastPage;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the answer that shows it moves the page
  useEffect(() => {
    if (pastTheEnd) go({ ...address, page: lastPage }, { replace: true });
  }, [pastTheEnd, lastPage]);
  const [adding, setAdding] = useState<ItemTemplate | null>(null);
  // On a phone the search stays in view and the other filters fold away until asked for.
  const folded = useFoldedFilters();
  const activeMoreFilters = [
    draft.tags.trim(),
    draft.minValue,
    draft.maxValue,
    draft.minWeight,
    draft.maxWeight,
    address.rarity ?? '',
  ].filter((v) => v !== '').length;
  const showMoreFilters = folded.shown;
  const filtered = draft.search.trim() !== '' || activeMoreFilters > 0;
  // Every filter and the search emptied at once; the sort is an order, not a filter, and stays.
  const clearFilters = () => {
    const cleared = readMarketplaceAddress(new URLSearchParams());
    setDraft(draftOf(cleared));
    go({ ...cleared, sort: address.sort }, { replace: false });
  };
  const type =
    <K extends keyof MarketplaceDraft>(key: K) =>
    (value: MarketplaceDraft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} id={headingId}>
          Marketplace
        </Title>
        <Text c="dimmed">Public item templates from the SRD catalogue and other players.</Text>
      </Stack>
      <Paper withBorder p="md" component="section" aria-label="Filters">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <TextInput
            label="Search"
            placeholder="Search items..."
            // The search answers at most 200 characters; more would only turn the list into an error.
            maxLength={200}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={draft.search}
            onChange={(event) => type('search')(event.currentTarget.value)}
          />
          {folded.phone ? (
            <MoreFiltersButton
              unfolded={folded.unfolded}
              activeCount={activeMoreFilters}
              onToggle={folded.toggle}
            />
          ) : null}
          <TextInput
            label="Tags"
            placeholder="e.g., weapon, martial"
            value={draft.tags}
            onChange={(event) => type('tags')(event.currentTarget.value)}
            display={showMoreFilters ? undefined : 'none'}
          />
          <Group grow gap="xs" align="flex-start" display={showMoreFilters ? undefined : 'none'}>
            {/* A gp filter is counted in whole copper (gpToCopper): a third decimal would be rounded away. */}
            <NumberField
              label="Min value (gp)"
              min={0}
              maxDecimals={2}
              value={draft.minValue}
              onChange={type('minValue')}
            />
            <NumberField
              label="Max value (gp)"
              maxDecimals={2}
              min={0}
              value={draft.maxValue}
              onChange={type('maxValue')}
              error={rangeError(draft.minValue, draft.maxValue, 'value')}
            />
          </Group>
          <Group grow gap="xs" align="flex-start" display={showMoreFilters ? undefined : 'none'}>
            <NumberField
              label={weightLabel('Min weight')}
              min={0}
              value={draft.minWeight}
              onChange={type('minWeight')}
            />
            <NumberField
              label={weightLabel('Max weight')}
              min={0}
              value={draft.maxWeight}
              onChange={type('maxWeight')}
              error={rangeError(draft.minWeight, draft.maxWeight, 'weight')}
            />
          </Group>
          <Select
            label="Rarity"
            placeholder="Any rarity"
            data={rarityOptions}
            value={address.rarity}
            onChange={(rarity) => go({ ...address, ...draft, rarity, page: 1 }, { replace: true })}
            clearable
            display={showMoreFilters ? undefined : 'none'}
          />
          <Select
            label="Sort by"
            data={marketplaceSortOptions}
            value={address.sort}
            onChange={(sort) =>
              go(
                { ...address, ...draft, sort: (sort as MarketplaceSort | null) ?? 'relevance', page: 1 },
                { replace: true },
              )
            }
            allowDeselect={false}
          />
        </SimpleGrid>
      </Paper>
      {query.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <VisuallyHidden role="status">Loading the marketplace</VisuallyHidden>
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
            <Skeleton key={index} height={96} aria-hidden="true" />
          ))}
        </SimpleGrid>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Error loading the marketplace"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.templates.length === 0 ? (
        <EmptyState
          title={noItemsFound}
          message="Try other words or wider filters."
          action={
            filtered ? (
              <Button variant="light" onClick={clearFilters}>
                Clear filters
              </Button>
            ) : undefined
          }
        />
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed" role="status">
            {query.data.meta.total_count} {query.data.meta.total_count === 1 ? 'item' : 'items'}
          </Text>
          <MarketplaceResults
            labelledBy={headingId}
            templates={query.data.templates}
            backTo={`/marketplace${params.size > 0 ? `?${params}` : ''}`}
            onAdd={setAdding}
          />
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              value={address.page}
              onChange={(page) => go({ ...address, ...draft, page }, { replace: false })}
              total={query.data.meta.total_pages}
              style={{ alignSelf: 'center' }}
            />
          ) : null}
        </Stack>
      )}
      <AddToContainerDialog template={adding} onClose={() => setAdding(null)} />
    </Stack>
  );
}
