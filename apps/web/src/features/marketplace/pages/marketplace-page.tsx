import type { ItemTemplate } from '@haversack/contracts';
import {
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Pagination,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { usePageTitle } from '../../../lib/page-title';
import { weightLabel } from '../../../lib/weight';
import { AddToContainerDialog } from '../../inventory/components/add-to-container-dialog';
import { type MarketplaceFilters, marketplaceQuery } from '../../items/api/item-templates-api';
import { TemplateSummary } from '../../items/components/template-summary';
import { ReportButton } from '../../moderation/components/report-button';

type NumberField = number | string;
const toNumber = (value: NumberField): number | null =>
  value === '' || !Number.isFinite(Number(value)) ? null : Number(value);

/** /marketplace: search public item templates and add them to one of my containers. */
export function MarketplacePage() {
  usePageTitle('Marketplace');
  const [search, setSearch] = useState('');
  const [tags, setTags] = useState('');
  const [minValue, setMinValue] = useState<NumberField>('');
  const [maxValue, setMaxValue] = useState<NumberField>('');
  const [minWeight, setMinWeight] = useState<NumberField>('');
  const [maxWeight, setMaxWeight] = useState<NumberField>('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState<ItemTemplate | null>(null);
  const [filters] = useDebouncedValue<Omit<MarketplaceFilters, 'page'>>(
    {
      search,
      tags,
      minValue: toNumber(minValue),
      maxValue: toNumber(maxValue),
      minWeight: toNumber(minWeight),
      maxWeight: toNumber(maxWeight),
    },
    300,
  );
  const query = useQuery(marketplaceQuery({ ...filters, page }));
  // On a phone the search stays in view and the other filters fold away until asked for.
  const phone = useMediaQuery('(max-width: 47.99em)');
  const [moreFilters, { toggle: toggleMoreFilters }] = useDisclosure(false);
  const activeMoreFilters = [tags.trim(), minValue, maxValue, minWeight, maxWeight].filter(
    (v) => v !== '',
  ).length;
  const showMoreFilters = !phone || moreFilters;
  const change =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Marketplace</Title>
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
            value={search}
            onChange={(event) => change(setSearch)(event.currentTarget.value)}
          />
          {phone ? (
            <Button
              variant="subtle"
              size="compact-sm"
              justify="flex-start"
              leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden="true" />}
              onClick={toggleMoreFilters}
              aria-expanded={moreFilters}
            >
              {moreFilters ? 'Fewer filters' : 'More filters'}
              {activeMoreFilters > 0 ? ` (${activeMoreFilters} on)` : ''}
            </Button>
          ) : null}
          <TextInput
            label="Tags"
            placeholder="e.g., weapon, martial"
            value={tags}
            onChange={(event) => change(setTags)(event.currentTarget.value)}
            display={showMoreFilters ? undefined : 'none'}
          />
          <Group grow gap="xs" align="flex-start" display={showMoreFilters ? undefined : 'none'}>
            <NumberInput label="Min value (gp)" min={0} value={minValue} onChange={change(setMinValue)} />
            <NumberInput label="Max value (gp)" min={0} value={maxValue} onChange={change(setMaxValue)} />
          </Group>
          <Group grow gap="xs" align="flex-start" display={showMoreFilters ? undefined : 'none'}>
            <NumberInput
              label={weightLabel('Min weight')}
              min={0}
              value={minWeight}
              onChange={change(setMinWeight)}
            />
            <NumberInput
              label={weightLabel('Max weight')}
              min={0}
              value={maxWeight}
              onChange={change(setMaxWeight)}
            />
          </Group>
        </SimpleGrid>
      </Paper>
      {query.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-hidden="true">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
            <Skeleton key={index} height={96} />
          ))}
        </SimpleGrid>
      ) : query.isError && !query.data ? (
        <ErrorPanel
          title="Error loading the marketplace"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.templates.length === 0 ? (
        <EmptyState title={noItemsFound} message="Try other words or wider filters." />
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed" role="status">
            {query.data.meta.total_count} {query.data.meta.total_count === 1 ? 'item' : 'items'}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="marketplace-results">
            {query.data.templates.map((template) => (
              <Paper key={template.id} withBorder p="md">
                <Stack gap={6} h="100%" justify="space-between">
                  <Stack gap={4}>
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Anchor component={Link} to={`/items/templates/${template.id}`} fw={600}>
                        {template.name}
                      </Anchor>
                      {template.is_system ? (
                        <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                          SRD
                        </Badge>
                      ) : null}
                    </Group>
                    <TemplateSummary template={template} />
                  </Stack>
                  <Group justify="space-between" gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setAdding(template)}
                      aria-label={`Add ${template.name} to my container`}
                    >
                      Add to my container
                    </Button>
                    {template.visibility === 'public' && !template.is_owner && !template.is_system ? (
                      <ReportButton
                        size="xs"
                        targetType="item_template"
                        targetId={template.id}
                        targetName={template.name}
                      />
                    ) : null}
                  </Group>
                </Stack>
              </Paper>
            ))}
          </SimpleGrid>
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              value={page}
              onChange={setPage}
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
