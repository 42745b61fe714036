import { formatCopper, type LootItem, lootMessages, MAX_LOOT_ITEMS } from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { LineFilter, NoMatchingLines, useLineFilter } from '../../../components/line-filter';
import { isRecordNotFound } from '../../../lib/http-client';
import { listReset } from '../../../lib/list-reset';
import { usePageTitle } from '../../../lib/page-title';
import { lootTemplateQuery } from '../api/loot-api';
import { AddLootCoinsForm, AddLootItemForm, LootItemRow } from '../components/loot-item-editor';
import { LootItemList, lootItemName } from '../components/loot-item-list';
import { LootTemplateBadges } from '../components/loot-template-card';
import { useDuplicateLootTemplate } from '../components/loot-template-duplicate';

/**
 * /loot/templates/{id}/inventory: the creator fills a template with catalogue items and coins, changes
 * quantities in place and removes lines. Anyone else (the catalogue's templates included) reads it and may
 * duplicate it to make their own.
 */
const noLines: LootItem[] = [];

export function LootTemplateInventoryPage() {
  const { id = '' } = useParams();
  const query = useQuery(lootTemplateQuery(id));
  // A line is found by what it is read out by: its item's name, or "gp coins".
  const filter = useLineFilter(query.data?.loot_items ?? noLines, lootItemName);
  const duplicate = useDuplicateLootTemplate();
  usePageTitle(query.data ? `${query.data.name} · Items` : 'Loot Template Items');
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading loot template items</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={160} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  if (query.isError && (!query.data || isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        subject="Loot Template"
        heading="Loot Template Items"
        notFoundText="The loot template might not exist or you may not have permission to view it."
        back={{ href: '/loot/templates', label: 'Back to Loot Templates' }}
      />
    );
  }
  const template = query.data;
  const items = template.loot_items ?? [];
  const canChange = template.is_owner && !template.is_system;
  // The server's count of lines: what its limit is checked against.
  const full = template.items_count >= MAX_LOOT_ITEMS;
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={6}>
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {template.name}: Items
        </Title>
        <LootTemplateBadges template={template} />
        <Text c="dimmed">
          What the party finds when this template is deployed: items of the catalogue and coins.
        </Text>
      </Stack>
      {canChange ? (
        <>
          {full ? (
            <Alert
              role="note"
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle aria-hidden="true" />}
              data-testid="loot-items-limit"
            >
              {lootMessages.tooManyItems}. Add to the quantity of a line already here, or remove one first.
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <AddLootItemForm templateId={template.id} />
            <AddLootCoinsForm templateId={template.id} />
          </SimpleGrid>
        </>
      ) : (
        <Alert role="note" variant="light" color="blue" data-testid="read-only-notice">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{template.is_system ? lootMessages.systemTemplate : lootMessages.notOwner}</Text>
            <Button size="xs" onClick={() => duplicate.mutate(template.id)} loading={duplicate.isPending}>
              Duplicate
            </Button>
          </Stack>
        </Alert>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="loot-lines-heading">
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={2} size="h4" id="loot-lines-heading">
              In this loot
            </Title>
            <Text size="sm" c={full ? 'red' : 'dimmed'} data-testid="loot-items-count">
              {template.items_count} of {MAX_LOOT_ITEMS} lines · {formatCopper(template.total_value_cp)}
            </Text>
          </Group>
          {!canChange ? (
            <LootItemList items={items} totalValueCp={template.total_value_cp} />
          ) : items.length === 0 ? (
            <Center py="md">
              <Text c="dimmed" size="sm">
                This loot template has no items yet. Add an item or some coins above.
              </Text>
            </Center>
          ) : (
            <>
              <LineFilter filter={filter} total={items.length} />
              {filter.shownCount === 0 ? <NoMatchingLines term={filter.term} /> : null}
              {/* A list named by its heading, a line an item: a screen reader says how many and steps
                  through. The lines the filter leaves out are hidden, not dropped: their unsaved changes stay. */}
              <Stack
                gap="sm"
                component="ul"
                aria-labelledby="loot-lines-heading"
                style={listReset}
                data-testid="loot-item-rows"
                hidden={filter.shownCount === 0}
              >
                {items.map((item) => (
                  <li key={item.id} hidden={!filter.isShown(item)}>
                    <LootItemRow templateId={template.id} item={item} />
                  </li>
                ))}
              </Stack>
            </>
          )}
        </Stack>
      </Paper>
      <Anchor component={Link} to={`/loot/templates/${template.id}`}>
        Back to {template.name}
      </Anchor>
    </Stack>
  );
}
