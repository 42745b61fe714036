import { useDraggable } from '@dnd-kit/core';
import type { Container, ItemTemplate } from '@haversack/contracts';
import {
  Badge,
  Button,
  Center,
  Group,
  Pagination,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { formatWeight } from '../../../lib/weight';
import { marketplaceQuery } from '../../items/api/item-templates-api';
import { templatePrice } from '../../items/components/template-summary';
import { dragHandleStyle, useDragId } from '../dnd';
import { useConjuringRefusal } from '../hooks/use-conjuring-refusal';
import { containerScope, useAllowanceRefusal } from '../hooks/use-spent-allowances';
import { tagLabel } from '../lib/item-look';
import type { DraggedTemplate } from '../workspace-types';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * How a template stacks, in the words the item pages use: stack_size 0 is unlimited (DESIGN §4), as for
 * every coin ("1 sp · stacks" read as if a number were missing); a template that does not stack says nothing.
 */
function stacking(template: Pick<ItemTemplate, 'stack_size'>): string | null {
  if (template.stack_size === 0) return 'stacks without limit';
  return template.stack_size > 1 ? `stacks of ${formatCount(template.stack_size)}` : null;
}

function TemplateRow({
  template,
  draggable,
  canAdd,
  onAdd,
}: {
  template: ItemTemplate;
  draggable: boolean;
  canAdd: boolean;
  onAdd: () => void;
}) {
  const payload: DraggedTemplate = {
    kind: 'template',
    templateId: template.id,
    templateName: template.name,
    weight: template.weight,
  };
  const stack = stacking(template);
  const drag = useDraggable({
    id: useDragId(`template:${template.id}`),
    data: payload,
    disabled: !draggable,
  });
  return (
    <Paper
      ref={drag.setNodeRef}
      withBorder
      p="xs"
      data-testid="market-template"
      style={{ opacity: drag.isDragging ? 0.5 : 1 }}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Stack
          gap={0}
          style={{ minWidth: 0, ...(draggable ? dragHandleStyle : {}) }}
          {...(draggable ? drag.listeners : {})}
        >
          <Text fw={600} size="sm" truncate>
            {template.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatWeight(template.weight)} · {templatePrice(template)}
            {stack ? ` · ${stack}` : ''}
          </Text>
        </Stack>
        <Group gap={6} wrap="nowrap">
          {template.category ? (
            <Badge variant="light" size="sm" visibleFrom="xs" tt="none">
              {tagLabel(template.category)}
            </Badge>
          ) : null}
          <Button
            size="xs"
            // 44 px on a phone, as the marketplace page's Add to Container: the line has room for it.
            className="haversack-finger-target"
            onClick={onAdd}
            disabled={!canAdd}
            aria-label={`Add ${template.name}`}
          >
            Add
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * spec/02 §2 Market tab: public item templates; "Add" creates items in a container (marketplace →
 * container is the only way the marketplace is used, spec/02 §4).
 */
export function MarketBrowser({
  containers,
  defaultTargetId,
  draggable,
  onAdd,
}: {
  containers: Container[];
  defaultTargetId: string | null;
  draggable: boolean;
  onAdd: (template: ItemTemplate, containerId: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const targets = containers.filter((c) => c.can_act);
  const conjuringRefusal = useConjuringRefusal(targets);
  // A new stack spends an inventory action of its container's allowance (inventory.service
  // createInstance): a container whose allowance is used up this month is listed disabled, with why.
  const allowanceRefusal = useAllowanceRefusal();
  const spentRefusal = (c: Container) => allowanceRefusal(containerScope(c));
  const refusal = (c: Container) => conjuringRefusal(c) ?? spentRefusal(c);
  const [picked, setTarget] = useState<string | null>(defaultTargetId);
  useEffect(() => setTarget(defaultTargetId), [defaultTargetId]);
  const pickedContainer = targets.find((c) => c.id === picked);
  const targetRefusal = pickedContainer ? refusal(pickedContainer) : null;
  const target = targetRefusal ? null : picked;
  const query = useQuery(
    marketplaceQuery({
      search: debounced,
      tags: '',
      minValue: null,
      maxValue: null,
      minWeight: null,
      maxWeight: null,
      page,
    }),
  );

  return (
    <Stack gap="sm">
      {/* The destination has a line of its own, as a panel's Source has: squeezed beside the search in a
          two-column panel it read "Backpack (Cora Brightke…", and two Backpacks are told apart only by their
          owners (review newgm M2). */}
      <Stack gap="sm">
        <TextInput
          label="Search the marketplace"
          placeholder="Search items..."
          // The server answers searches of at most 200 characters; more would only show an error.
          maxLength={200}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label="Add to"
          data={groupedByOwner(targets, (c) => ({
            value: c.id,
            label: conjuringRefusal(c)
              ? `${sourceOptionLabel(c)} (GM only)`
              : spentRefusal(c)
                ? `${sourceOptionLabel(c)} · ${spentRefusal(c)}`
                : sourceOptionLabel(c),
            disabled: refusal(c) !== null,
          }))}
          error={targetRefusal ?? undefined}
          value={target}
          onChange={setTarget}
          placeholder="Please select a destination"
          comboboxProps={{ withinPortal: true }}
          {...containerSearchProps}
        />
      </Stack>
      {/* A new search that fails has nothing to show (the error below); the same search's refresh that fails
          keeps its results, with this note. */}
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Stack gap={6} data-testid="market-loading">
          <VisuallyHidden role="status">Loading the marketplace</VisuallyHidden>
          {Array.from({ length: 5 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
            <Skeleton key={index} height={48} aria-hidden="true" />
          ))}
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Error loading the marketplace"
          message="The marketplace could not be searched."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.templates.length === 0 ? (
        <Center py="xl">
          {/* The answer to what was typed: said politely, as a search's result is. */}
          <Text c="dimmed" role="status">
            {noItemsFound}
          </Text>
        </Center>
      ) : (
        <Stack gap={6} data-testid="market-results">
          {/* A list, a line a template: a screen reader says how many were found and steps through them. */}
          <Stack gap={6} component="ul" aria-label="Marketplace items" style={listReset}>
            {query.data.templates.map((template) => (
              <li key={template.id}>
                <TemplateRow
                  template={template}
                  draggable={draggable}
                  canAdd={target !== null}
                  onAdd={() => target && onAdd(template, target)}
                />
              </li>
            ))}
          </Stack>
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              value={page}
              onChange={setPage}
              total={query.data.meta.total_pages}
              size="sm"
              siblings={1}
              style={{ alignSelf: 'center' }}
            />
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}
