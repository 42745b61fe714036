import type { Container, ItemInstance, LootInstance, LootInstanceSummary } from '@haversack/contracts';
import { formatEnUs, lootMessages } from '@haversack/contracts';
import { Alert, Anchor, Badge, Group, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { type ItemFilters, matchesItemFilters } from '../../inventory/api/inventory-api';
import { ItemGrid } from '../../inventory/components/item-collection';
import { SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { partyActionAt, useAllowanceSpentAt } from '../../inventory/hooks/use-spent-allowances';
import type { DraggedLootItem, LayoutMode, LootSource, QueuedItem } from '../../inventory/workspace-types';
import { partyQuery } from '../../parties/api/parties-api';
import { lootErrorMessage, lootInstanceQuery, partyLootQuery } from '../api/loot-api';

/** The Loot tab when the party has no loot it may see yet. */
export const noRevealedLootMessage = 'No loot has been revealed to the party yet';
export const lootLoadFailedTitle = 'Unable to load loot';
export const partyLootLoadFailed = 'The party’s loot could not be loaded.';
export const lootItemsLoadFailed = 'The items of this loot could not be loaded.';

/**
 * Why nothing may be taken from this loot, else null: hidden loot (only the GM sees it) waits to be
 * revealed; taking needs a character in the party (a container of theirs to take into).
 */
export function takeBlocker(loot: LootInstance, destinations: Container[]): string | null {
  if (!loot.is_revealed) return lootMessages.notRevealed;
  if (!loot.can_take || destinations.length === 0) return lootMessages.cannotTake;
  return null;
}

/** "Goblin Boss Hoard · Hidden · 3 items" for the source selector. */
export function lootOptionLabel(loot: LootInstanceSummary): string {
  const items = `${formatEnUs(loot.items_count)} ${loot.items_count === 1 ? 'item' : 'items'}`;
  return [loot.name, loot.is_revealed ? null : lootMessages.hiddenBadge, items].filter(Boolean).join(' · ');
}

export interface LootSourceViewProps {
  partyId: string;
  lootId: string | null;
  onSelect: (lootId: string) => void;
  filters: ItemFilters;
  layout: LayoutMode;
  draggable: boolean;
  swipeable: boolean;
  /** The containers loot may be taken into (my characters' in this party). */
  destinations: Container[];
  onOpen: (item: ItemInstance, source: LootSource) => void;
  onQuickTransfer: (item: QueuedItem) => void;
  onAddToQueue: (item: QueuedItem) => void;
  /** "Take to..." on a tile: take from this stack into that container (the quantity is asked there). */
  onTake: (item: ItemInstance, source: LootSource, containerId: string) => void;
}

/**
 * The workspace's Loot tab (spec/02 §2, §4 loot to container): the party's loot as sources. The chosen
 * loot's stacks show like a container's; dragging one onto one of my containers, "Take to...", a swipe or
 * the queue take it. The GM also sees hidden loot, marked Hidden, which nobody may take from yet.
 */
export function LootSourceView(props: LootSourceViewProps) {
  const { partyId, lootId, onSelect } = props;
  const party = useQuery(partyLootQuery(partyId));
  const list = party.data?.instances ?? [];
  const fallback = list.find((l) => l.is_revealed) ?? list[0] ?? null;
  const current = list.some((l) => l.id === lootId) ? lootId : (fallback?.id ?? null);
  useEffect(() => {
    if (current && current !== lootId) onSelect(current);
  }, [current, lootId, onSelect]);
  const loot = useQuery({ ...lootInstanceQuery(current ?? ''), enabled: current !== null });

  if (party.isPending) return <Skeleton height={44} data-testid="loot-source-loading" />;
  if (party.isError && !party.data) {
    return (
      <ErrorPanel
        title={lootLoadFailedTitle}
        message={lootErrorMessage(party.error, partyLootLoadFailed)}
        onRetry={() => void party.refetch()}
      />
    );
  }
  if (list.length === 0) {
    return (
      <Paper withBorder p="lg" data-testid="workspace-no-loot">
        <Text c="dimmed" size="sm" ta="center">
          {noRevealedLootMessage}
        </Text>
      </Paper>
    );
  }
  return (
    <Stack gap="sm" data-testid="workspace-loot">
      <Select
        label="Loot"
        data={list.map((l) => ({ value: l.id, label: lootOptionLabel(l) }))}
        value={current}
        onChange={(value) => value && onSelect(value)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      {loot.isError && !loot.data ? (
        <ErrorPanel
          title={lootLoadFailedTitle}
          message={lootErrorMessage(loot.error, lootItemsLoadFailed)}
          onRetry={() => void loot.refetch()}
        />
      ) : loot.data ? (
        <LootStacks {...props} loot={loot.data} partyId={partyId} />
      ) : (
        <ItemGrid
          items={[]}
          pending
          layout={props.layout}
          draggable={false}
          swipeable={false}
          onOpen={noop}
          onQuickTransfer={noop}
          onAddToQueue={noop}
        />
      )}
    </Stack>
  );
}

const noop = () => {};

function LootStacks(props: LootSourceViewProps & { loot: LootInstance }) {
  const { loot } = props;
  // An observer is told it is the role (loot.policy, DESIGN §4), as the loot page says, not a character.
  const membership = useQuery({ ...partyQuery(props.partyId), enabled: !loot.can_take });
  const reason = takeBlocker(loot, props.destinations);
  const blocked =
    reason === lootMessages.cannotTake && membership.data?.user_role === 'observer'
      ? lootMessages.observerCannotTake
      : reason;
  const source: LootSource = { lootId: loot.id, lootName: loot.name, partyId: props.partyId, blocked };
  const takeable = blocked === null;
  // A take spends the party's allowance in the loot's party, into whichever character's container
  // (loot.service): at the month's limit a stack cannot be picked up, since every drop of it would be
  // refused, and the line above the stacks says why ("Take to..." lists each container closed, with why).
  const allowanceSpent = useAllowanceSpentAt(takeable ? partyActionAt(props.partyId) : null);
  const refusalId = useId();
  const items = loot.container.item_instances.filter((item) => matchesItemFilters(item, props.filters));
  const where = [loot.source, loot.instance_data.location_name].filter(Boolean).join(' · ');
  const queued = (item: ItemInstance): QueuedItem => ({ ...item, loot: source });
  return (
    <Stack gap="sm">
      <Group gap={6} justify="space-between" wrap="wrap">
        <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
          {loot.is_revealed ? null : (
            <Badge color="gray" variant="light">
              {lootMessages.hiddenBadge}
            </Badge>
          )}
          {where ? (
            <Text size="xs" c="dimmed" truncate>
              {where}
            </Text>
          ) : null}
        </Group>
        <Anchor component={Link} to={`/loot/instances/${loot.id}`} size="sm">
          Open loot page
        </Anchor>
      </Group>
      {blocked ? (
        <Alert
          role="note"
          variant="light"
          color={loot.is_revealed ? 'blue' : 'gray'}
          data-testid="loot-take-blocked"
        >
          {blocked}
        </Alert>
      ) : allowanceSpent ? (
        <SpentAllowanceNote id={refusalId} scope={allowanceSpent} testId="take-allowance-refusal" />
      ) : props.draggable ? (
        <Text size="xs" c="dimmed">
          Drag an item onto one of your containers to take it.
        </Text>
      ) : null}
      <ItemGrid
        items={items}
        layout={props.layout}
        draggable={props.draggable && takeable && allowanceSpent === null}
        swipeable={props.swipeable && takeable}
        dragDataOf={(item): DraggedLootItem => ({
          ...source,
          kind: 'loot-item',
          itemId: item.id,
          name: item.name,
          quantity: item.quantity,
          weight: item.weight,
        })}
        moveVerb="Take"
        onOpen={(item) => props.onOpen(item, source)}
        onQuickTransfer={(item) => props.onQuickTransfer(queued(item))}
        onAddToQueue={(item) => props.onAddToQueue(queued(item))}
        destinations={takeable ? props.destinations : undefined}
        onMoveTo={takeable ? (item, containerId) => props.onTake(item, source, containerId) : undefined}
      />
    </Stack>
  );
}
