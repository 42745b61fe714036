import { type ShopTemplate, shopMessages } from '@haversack/contracts';
import { Alert, Button, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { NoDeployablePartyNote } from '../../parties/components/deploy-party-gate';
import { NewOrUpgrade } from '../../subscription/components/new-or-upgrade';
import { defaultShopTemplateFilters, type ShopTemplateFilters, shopTemplatesQuery } from '../api/shops-api';
import {
  DeployShopDialog,
  noManagedParties,
  useShopManagedParties,
  whoMayDeployShops,
} from '../components/deploy-shop-dialog';
import { ShopCardSkeletons, ShopGrid, ShopTemplateCard } from '../components/shop-card';
import { ShopTemplateFiltersForm } from '../components/shop-filters';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * spec/02 §2 Shops: /shops browses my templates and every public one; /shops/templates (`mine`) lists the
 * templates I made. Filters, sort, cards, six skeletons, "Unable to Load Shops" and "No Shops Found".
 */
export function ShopTemplatesPage({ mine = false }: { mine?: boolean }) {
  const title = mine ? 'My Shop Templates' : 'Shops';
  usePageTitle(title);
  const initial: ShopTemplateFilters = { ...defaultShopTemplateFilters, mine };
  const [filters, setFilters] = useState<ShopTemplateFilters>(initial);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [deploying, setDeploying] = useState<ShopTemplate | null>(null);
  useEffect(() => {
    setFilters((current) =>
      current.search === debounced ? current : { ...current, search: debounced, page: 1 },
    );
  }, [debounced]);
  const query = useQuery(shopTemplatesQuery(filters));
  // Only once my parties are in and none is mine to deploy into; while they load, or if they fail, the
  // dialog says what it knows.
  const parties = useShopManagedParties();
  const noPartyNoteId = useId();
  const deployBlockedBy = parties.isSuccess && parties.managed.length === 0 ? noPartyNoteId : null;
  const clear = () => {
    setSearch('');
    setFilters(initial);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{title}</Title>
          <Text c="dimmed">
            {mine
              ? 'Shop templates you made. Stock them, then deploy them to your parties.'
              : 'Browse shop templates, then deploy one to your party.'}
          </Text>
        </Stack>
        <Group gap="sm">
          <Button component={Link} to="/shops/instances" variant="default">
            My Party Shops
          </Button>
          {mine ? (
            <Button component={Link} to="/shops" variant="default">
              Browse Shops
            </Button>
          ) : (
            <Button component={Link} to="/shops/templates" variant="default">
              My Templates
            </Button>
          )}
          <NewOrUpgrade resource="shop_templates" to="/shops/templates/new" label="New Shop" />
        </Group>
      </Group>
      {deployBlockedBy ? (
        <NoDeployablePartyNote
          id={deployBlockedBy}
          noneText={noManagedParties}
          whoMayDeploy={whoMayDeployShops}
        />
      ) : null}
      <ShopTemplateFiltersForm
        filters={filters}
        search={search}
        onSearchChange={setSearch}
        onChange={(change) => setFilters((current) => ({ ...current, ...change, page: 1 }))}
        onClear={clear}
      />
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
            {/* spec/02 §2: Try Again reloads the page. */}
            <Button variant="outline" color="red" size="xs" onClick={() => window.location.reload()}>
              Try Again
            </Button>
          </Stack>
        </Alert>
      ) : query.data.templates.length === 0 ? (
        <EmptyState
          title={shopMessages.noShopsFound}
          message={
            mine
              ? 'You have not made a shop template that matches. Create one, or clone one you like.'
              : 'No shop template matches these filters. Clear them, or find items in the marketplace.'
          }
          action={
            <Group gap="sm" justify="center">
              <Button variant="light" onClick={clear}>
                Clear Filters
              </Button>
              <Button component={Link} to="/marketplace" variant="default">
                Browse Marketplace
              </Button>
            </Group>
          }
        />
      ) : (
        <>
          <ShopGrid testId="shop-templates">
            {query.data.templates.map((template) => (
              <ShopTemplateCard
                key={template.id}
                template={template}
                onDeploy={setDeploying}
                deployBlockedBy={deployBlockedBy}
              />
            ))}
          </ShopGrid>
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              value={filters.page}
              onChange={(page) => setFilters((current) => ({ ...current, page }))}
              total={query.data.meta.total_pages}
              style={{ alignSelf: 'center' }}
            />
          ) : null}
        </>
      )}
      <DeployShopDialog template={deploying} onClose={() => setDeploying(null)} />
    </Stack>
  );
}
