import type { LootTemplate } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { NoDeployablePartyNote } from '../../parties/components/deploy-party-gate';
import { NewOrUpgrade } from '../../subscription/components/new-or-upgrade';
import { defaultLootTemplateFilters, type LootTemplateFilters, lootTemplatesQuery } from '../api/loot-api';
import {
  DeployLootDialog,
  noGmParties,
  partyLootPath,
  useLootGmParties,
  whoMayDeployLoot,
} from '../components/deploy-loot-dialog';
import {
  LootTemplateCard,
  LootTemplateCardSkeletons,
  LootTemplateGrid,
} from '../components/loot-template-card';
import { LootTemplateFiltersForm } from '../components/loot-template-filters';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * /loot/templates: my loot templates and every public one (the catalogue's included), with filters, sort
 * and pages; each card deploys. From a party's Loot tab (?party_id=) it says which party it deploys to.
 */
export function LootTemplatesPage() {
  usePageTitle('Loot Templates');
  const [searchParams] = useSearchParams();
  const partyId = searchParams.get('party_id');
  const parties = useLootGmParties();
  // The party the GM came from (the party Loot tab's "Deploy Loot Template" link), when it is one they run.
  const target = partyId ? (parties.gmParties.find((p) => p.id === partyId) ?? null) : null;
  // Only once my parties are in and I run none; while they load, or if they fail, the dialog says what it knows.
  const noPartyNoteId = useId();
  const deployBlockedBy = parties.isSuccess && parties.gmParties.length === 0 ? noPartyNoteId : null;
  const [filters, setFilters] = useState<LootTemplateFilters>(defaultLootTemplateFilters);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [deploying, setDeploying] = useState<LootTemplate | null>(null);
  useEffect(() => {
    setFilters((current) =>
      current.search === debounced ? current : { ...current, search: debounced, page: 1 },
    );
  }, [debounced]);
  const query = useQuery(lootTemplatesQuery(filters));
  const clear = () => {
    setSearch('');
    setFilters(defaultLootTemplateFilters);
  };
  const detailHref = (template: LootTemplate) =>
    `/loot/templates/${template.id}${target ? `?${new URLSearchParams({ party_id: target.id })}` : ''}`;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>Loot Templates</Title>
          <Text c="dimmed">
            Treasure ready to drop: fill a template once, deploy it to any party you run.
          </Text>
        </Stack>
        <NewOrUpgrade resource="loot_templates" to="/loot/templates/new" label="New Loot Template" />
      </Group>
      {deployBlockedBy ? (
        <NoDeployablePartyNote id={deployBlockedBy} noneText={noGmParties} whoMayDeploy={whoMayDeployLoot} />
      ) : null}
      {target ? (
        <Alert
          role="note"
          variant="light"
          color="blue"
          icon={<IconInfoCircle aria-hidden="true" />}
          data-testid="deploy-target-hint"
        >
          <Group justify="space-between" gap="xs">
            <Text size="sm">Choose a template to deploy to {target.name}</Text>
            <Anchor component={Link} to={partyLootPath(target.id)} size="sm" c="inherit" fw={600}>
              Back to {target.name}
            </Anchor>
          </Group>
        </Alert>
      ) : null}
      <LootTemplateFiltersForm
        filters={filters}
        search={search}
        onSearchChange={setSearch}
        onChange={(change) => setFilters((current) => ({ ...current, ...change, page: 1 }))}
        onClear={clear}
      />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <LootTemplateCardSkeletons />
      ) : failedWithNothingToShow(query) ? (
        <Alert
          color="red"
          variant="light"
          title="Unable to Load Loot Templates"
          icon={<IconAlertTriangle aria-hidden="true" />}
          role="alert"
          data-testid="error-panel"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">An unexpected error occurred while loading loot templates.</Text>
            <Button
              variant="outline"
              color="red"
              size="xs"
              onClick={() => void query.refetch()}
              loading={query.isFetching}
            >
              Try Again
            </Button>
          </Stack>
        </Alert>
      ) : query.data.templates.length === 0 ? (
        <EmptyState
          title="No Loot Templates Found"
          message="No loot template matches these filters. Clear them, or make a template of your own."
          action={
            <Group gap="sm" justify="center">
              <Button variant="light" onClick={clear}>
                Clear Filters
              </Button>
              <NewOrUpgrade
                resource="loot_templates"
                to="/loot/templates/new"
                label="New Loot Template"
                variant="default"
              />
            </Group>
          }
        />
      ) : (
        <>
          <LootTemplateGrid>
            {query.data.templates.map((template) => (
              <LootTemplateCard
                key={template.id}
                template={template}
                href={detailHref(template)}
                onDeploy={setDeploying}
                deployBlockedBy={deployBlockedBy}
              />
            ))}
          </LootTemplateGrid>
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
      <DeployLootDialog
        template={deploying}
        initialPartyId={target?.id ?? partyId}
        onClose={() => setDeploying(null)}
      />
    </Stack>
  );
}
