import { type ShopType, shopMessages } from '@haversack/contracts';
import {
  Alert,
  Button,
  Group,
  List,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { MoreFiltersButton, useFoldedFilters } from '../../../components/more-filters';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { useStayWithinPages } from '../../../lib/last-page';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { myActivePartiesQuery } from '../../parties/api/parties-api';
import { RealtimeIndicator } from '../../realtime/components/realtime-indicator';
import { usePartyInventoriesLive } from '../../realtime/hooks/use-party-inventories-live';
import {
  defaultShopInstanceFilters,
  SHOPS_PER_PAGE,
  type ShopInstanceFilters,
  shopInstancesQuery,
  shopKeys,
} from '../api/shops-api';
import { ShopCardSkeletons, ShopGrid, ShopInstanceCard } from '../components/shop-card';
import { locationOptions, shopTypeOptions } from '../components/shop-filters';

/**
 * One figure of the summary: a skeleton while the shops load, a dash when they could not be loaded (never
 * a 0 that reads as if the shops were gone).
 */
function SummaryCard({
  label,
  value,
  loading,
  testId,
}: {
  label: string;
  value: number | null;
  loading: boolean;
  testId: string;
}) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {loading ? (
        <Skeleton
          height={28}
          width={40}
          mt={4}
          data-testid={testId}
          aria-label={`Loading ${label.toLowerCase()}`}
        />
      ) : (
        <Text
          fw={700}
          size="xl"
          data-testid={testId}
          aria-label={value === null ? `${label}: not known` : undefined}
        >
          {value === null ? '–' : formatCount(value)}
        </Text>
      )}
    </Paper>
  );
}

const steps = [
  { title: 'Browse templates', text: 'Find a shop in the catalogue, or build your own.' },
  { title: 'Deploy to your party', text: 'As the GM or a manager, deploy it into your party.' },
  { title: 'Start trading', text: 'Players buy and sell from the shop, even from their phones.' },
];

/** spec/02 §2 Shop instances page: summary, filters, grid, refresh, and a guide when there is nothing. */
export function ShopInstancesPage() {
  usePageTitle('Shop Instances');
  // A page of cards at a time (a year of play left a user with 120 shops); the summary is the server's,
  // over all of them.
  const [filters, setFilters] = useState<ShopInstanceFilters>({
    ...defaultShopInstanceFilters,
    perPage: SHOPS_PER_PAGE,
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  useEffect(() => {
    setFilters((current) =>
      current.search === debounced ? current : { ...current, search: debounced, page: 1 },
    );
  }, [debounced]);
  const query = useQuery(shopInstancesQuery(filters));
  const parties = useQuery(myActivePartiesQuery());
  const fold = useFoldedFilters();
  const folded = fold.shown ? undefined : 'none';
  const activeCount = [
    filters.partyId !== null,
    filters.shopType !== null,
    filters.location !== '',
    filters.isActive !== null,
  ].filter(Boolean).length;
  const change = (next: Partial<ShopInstanceFilters>) =>
    setFilters((current) => ({ ...current, ...next, page: 1 }));
  const instances = query.data?.instances ?? [];
  const summary = query.data?.summary;
  const totalPages = query.data?.meta.total_pages ?? 1;
  // A page emptied by shops deleted meanwhile gives way to the last one left.
  useStayWithinPages(filters.page, query.data?.meta, query.isSuccess && !query.isPlaceholderData, (page) =>
    setFilters((current) => ({ ...current, page })),
  );
  // Live like the party's own Shops tab: a shop deployed, stocked or closed in any of the user's parties
  // (one with no shop yet included) shows without a reload.
  const realtime = usePartyInventoriesLive(
    [...(parties.data?.parties ?? []).map((party) => party.id), ...instances.map((shop) => shop.party_id)],
    [...shopKeys.instances(), 'list'],
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>Shop Instances</Title>
          <Text c="dimmed">The shops deployed in your parties.</Text>
          {/* The badge's height is kept while the first connection is made, so the page does not jump. */}
          <Group mih={20}>
            <RealtimeIndicator status={realtime} />
          </Group>
        </Stack>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            onClick={() => void query.refetch()}
            loading={query.isFetching && !query.isPending}
          >
            Refresh
          </Button>
          <Button component={Link} to="/shops/templates" variant="default">
            My Templates
          </Button>
          <Button component={Link} to="/shops">
            Browse Shop Templates
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 3 }} spacing="sm" aria-label="Summary">
        <SummaryCard
          label="Active"
          value={summary?.active ?? null}
          loading={query.isPending}
          testId="summary-active"
        />
        <SummaryCard
          label="Inactive"
          value={summary?.inactive ?? null}
          loading={query.isPending}
          testId="summary-inactive"
        />
        <SummaryCard
          label="Total items"
          value={summary?.items ?? null}
          loading={query.isPending}
          testId="summary-items"
        />
      </SimpleGrid>
      <Paper withBorder p="md" component="section" aria-label="Shop filters">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput
            label="Search shops"
            placeholder="Search shops..."
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          {/* On a phone the search stays above the shops and the rest folds away, as on the other lists
              (the list has no sort of its own). */}
          {fold.phone ? (
            <MoreFiltersButton unfolded={fold.unfolded} activeCount={activeCount} onToggle={fold.toggle} />
          ) : null}
          <Select
            label="Party"
            display={folded}
            placeholder="All my parties"
            data={(parties.data?.parties ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={filters.partyId}
            onChange={(partyId) => change({ partyId })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Shop type"
            display={folded}
            placeholder="All types"
            data={shopTypeOptions}
            value={filters.shopType}
            onChange={(value) => change({ shopType: (value as ShopType | null) ?? null })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Location"
            display={folded}
            placeholder="Anywhere"
            data={locationOptions}
            value={filters.location || null}
            onChange={(value) => change({ location: value ?? '' })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Status"
            display={folded}
            placeholder="Open and closed"
            data={[
              { value: 'true', label: 'Open' },
              { value: 'false', label: 'Closed' },
            ]}
            value={filters.isActive === null ? null : String(filters.isActive)}
            onChange={(value) => change({ isActive: value === null ? null : value === 'true' })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
      </Paper>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <ShopCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <Alert
          color="red"
          variant="light"
          title={shopMessages.unableToLoad}
          icon={<IconAlertTriangle aria-hidden="true" />}
          role="alert"
          data-testid="error-panel"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{shopMessages.loadFailed}</Text>
            <Button variant="outline" color="red" size="xs" onClick={() => window.location.reload()}>
              Try Again
            </Button>
          </Stack>
        </Alert>
      ) : instances.length === 0 ? (
        <Paper withBorder p="xl" data-testid="empty-state">
          <Stack gap="md" align="center" ta="center">
            <Title order={2} size="h4">
              {shopMessages.noShopsFound}
            </Title>
            <Text c="dimmed" size="sm">
              {shopMessages.noInstances}
            </Text>
            <List type="ordered" spacing="sm" center ta="left" aria-label="How to get started">
              {steps.map((step, index) => (
                <List.Item
                  key={step.title}
                  icon={
                    <ThemeIcon radius="xl" size={24} aria-hidden="true">
                      {index + 1}
                    </ThemeIcon>
                  }
                >
                  <Text fw={600} size="sm">
                    {step.title}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {step.text}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Button component={Link} to="/shops">
              Browse Shop Templates
            </Button>
          </Stack>
        </Paper>
      ) : (
        <>
          <ShopGrid testId="shop-instances">
            {instances.map((shop) => (
              // The cards sit right under the page's h1.
              <ShopInstanceCard key={shop.id} shop={shop} headingOrder={2} />
            ))}
          </ShopGrid>
          {totalPages > 1 ? (
            <Pagination
              value={filters.page}
              onChange={(page) => setFilters((current) => ({ ...current, page }))}
              total={totalPages}
              siblings={1}
              boundaries={1}
              aria-label="Shop pages"
              style={{ alignSelf: 'center' }}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}
