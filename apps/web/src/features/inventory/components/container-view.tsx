import type { Container, ItemInstance } from '@haversack/contracts';
import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useFocusReturn } from '@mantine/hooks';
import { IconCoins, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { CapacityBar } from '../../../components/capacity-bar';
import { ErrorPanel } from '../../../components/error-panel';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { characterWealthQuery } from '../../characters/api/wealth-api';
import { partyQuery } from '../../parties/api/parties-api';
import {
  containerCoinsQuery,
  containerQuery,
  type ItemFilters,
  partyCollaborationQuery,
} from '../api/inventory-api';
import { containerScope, useAllowanceRefusal } from '../hooks/use-spent-allowances';
import { type LayoutMode, tabLabels } from '../workspace-types';
import { ContainerSourceSelect } from './container-source-select';
import { ConvertCurrencyDialog } from './convert-currency-dialog';
import { EditContainerDialog } from './create-container-dialog';
import { DeleteContainerDialog, deletionDestinations } from './delete-container-dialog';
import { ItemCollection } from './item-collection';

export interface ContainerViewProps {
  containers: Container[];
  containerId: string | null;
  onSelect: (containerId: string) => void;
  filters: ItemFilters;
  layout: LayoutMode;
  draggable: boolean;
  swipeable: boolean;
  onOpen: (item: ItemInstance) => void;
  onQuickTransfer: (item: ItemInstance) => void;
  onAddToQueue: (item: ItemInstance) => void;
  /** "Move to..." on each tile: the containers an item may go to, and the move. */
  moveDestinations?: Container[];
  onMoveTo?: (item: ItemInstance, containerId: string) => void;
  /** The Market tab's label where this view is shown ("Market", or "Marketplace" side by side: spec/02 §2). */
  marketTab?: string;
}

/**
 * A character's primary container carries the character's own capacity (characters.service: its
 * `max_weight` is the character's): its weight bar is then the load the wealth strip above judges, and is
 * coloured by the same encumbrance level, so that "Encumbered" never sits beside a green bar at 36 %. The
 * level is the one the page already holds (the strip's query, read from the cache): nothing more is asked
 * for, and where no level is shown the bar keeps its percent colours.
 */
function usePrimaryLoadLevel(container: Container | undefined) {
  const characterId = container?.is_primary ? container.character_id : null;
  const wealth = useQuery({ ...characterWealthQuery(characterId ?? ''), enabled: false });
  return characterId && wealth.data?.weight_tracked ? wealth.data.encumbrance : null;
}

/** The Container tab: source selector, capacity bar and the container's items. */
export function ContainerView(props: ContainerViewProps) {
  const { containerId } = props;
  const container = useQuery({ ...containerQuery(containerId ?? ''), enabled: containerId !== null });
  const sourceRef = useRef<HTMLInputElement>(null);
  const loadLevel = usePrimaryLoadLevel(container.data);
  return (
    <Stack gap="sm">
      <ContainerSourceSelect
        ref={sourceRef}
        containers={props.containers}
        value={containerId}
        onChange={props.onSelect}
      />
      {container.data ? (
        <ContainerActions
          container={container.data}
          containers={props.containers}
          onSelect={props.onSelect}
          // The deleted container's actions (the button that opened the dialog among them) may be gone:
          // the keyboard goes on from the Source select, which now shows where the panel went.
          onDeleted={() => requestAnimationFrame(() => sourceRef.current?.focus())}
        />
      ) : null}
      {containerId === null ? (
        <Alert role="note" variant="light" color="gray">
          Choose a container to see what it holds.
        </Alert>
      ) : container.isPending ? (
        <Skeleton height={44} />
      ) : failedWithNothingToShow(container) ? (
        <ErrorPanel
          title="Error loading container"
          message="This container could not be loaded. It may have been deleted, or you may not have access."
          onRetry={() => void container.refetch()}
        />
      ) : (
        <>
          <CapacityBar capacity={container.data.capacity} loadLevel={loadLevel} />
          {container.data.can_act ? null : (
            <Alert role="note" variant="light" color="blue">
              You can look but not change this container.
            </Alert>
          )}
          <ItemCollection
            containerId={container.data.id}
            filters={props.filters}
            layout={props.layout}
            draggable={props.draggable && container.data.can_act}
            swipeable={props.swipeable && container.data.can_act}
            onOpen={props.onOpen}
            onQuickTransfer={props.onQuickTransfer}
            onAddToQueue={props.onAddToQueue}
            destinations={container.data.can_act ? props.moveDestinations : undefined}
            onMoveTo={container.data.can_act ? props.onMoveTo : undefined}
            emptyHint={
              container.data.can_act
                ? `Add items from the ${props.marketTab ?? tabLabels.single.market} tab, or move them here from another container.`
                : undefined
            }
          />
        </>
      )}
    </Stack>
  );
}

/** Where the panel goes when its container is deleted: the owner's primary container, else another of theirs. */
function afterDeletion(container: Container, containers: Container[]): string | null {
  const others = deletionDestinations(container, containers);
  return (
    others.find((c) => c.is_primary)?.id ??
    others[0]?.id ??
    containers.find((c) => c.id !== container.id)?.id ??
    null
  );
}

/**
 * Edit (name, description, limits), Convert coins (when the container holds coins) and Delete container
 * (when the server would allow it).
 */
function ContainerActions({
  container,
  containers,
  onSelect,
  onDeleted,
}: {
  container: Container;
  containers: Container[];
  onSelect: (containerId: string) => void;
  onDeleted: () => void;
}) {
  const [dialog, setDialog] = useState<'edit' | 'convert' | 'delete' | null>(null);
  // The dialogs are drawn only while open, so they unmount as they close, before Mantine's Modal can give
  // focus back: these actions, which stay, give it back to the button that opened them. Not after a delete:
  // the opener belonged to the container that went (`onDeleted` places the focus then).
  const [returnFocus, setReturnFocus] = useState(true);
  useFocusReturn({ opened: dialog !== null, shouldReturnFocus: returnFocus });
  const open = (next: 'edit' | 'convert' | 'delete') => {
    setReturnFocus(true);
    setDialog(next);
  };
  // On /containers/{id} the page itself is about one container: deleting that one moves the page on.
  const pageContainerId = useMatch('/containers/:id')?.params.id;
  const navigate = useNavigate();
  const coins = useQuery({ ...containerCoinsQuery(container.id), enabled: container.can_act });
  const heldCoins = coins.data ?? {};
  const hasCoins = Object.values(heldCoins).some((n) => n > 0);
  const partyOwned = container.owner.type === 'party';
  // Deleting a party's container is a party action: it needs party collaboration (decisions.md). The
  // button waits for the answer rather than show and vanish.
  const collaboration = useQuery({
    ...partyCollaborationQuery(container.owner.id),
    enabled: partyOwned && container.can_act,
  });
  const party = useQuery({ ...partyQuery(container.owner.id), enabled: partyOwned && container.can_act });
  const partyKeeper = party.data?.user_role === 'gm' || party.data?.user_role === 'manager';
  const partyContainers = containers.filter(
    (c) => c.owner.type === 'party' && c.owner.id === container.owner.id,
  ).length;
  // The server's rule (inventory.service deleteContainer): a member who may act on it, not a primary
  // container, and its items need another container of the same owner to go to. A party's container is
  // the GM's or a manager's to delete, and never the party's last: no button that opens a dialog whose
  // delete is refused. Changing a party's container is a party action too, and the GM's or a manager's
  // (inventory.policy assertCanEditPartyContainer): members only move items in and out.
  const canEdit = container.can_act && (!partyOwned || (collaboration.data === true && partyKeeper));
  const canDelete =
    container.can_act &&
    !container.is_primary &&
    (!partyOwned || (collaboration.data === true && partyKeeper && partyContainers > 1)) &&
    (container.items_count === 0 || deletionDestinations(container, containers).length > 0);
  // Converting coins and deleting the container each spend an inventory action of the container's
  // allowance (inventory.service convertCurrency, deleteContainer); editing it spends none. Once that
  // allowance is used up the two stay in their place, disabled, and say why.
  const refusal = useAllowanceRefusal()(containerScope(container));
  const refusalId = useId();
  const refusedProps = refusal
    ? {
        'aria-disabled': true,
        'data-disabled': true,
        'aria-describedby': refusalId,
      }
    : {};
  const openUnlessRefused = (next: 'convert' | 'delete') => () => {
    if (!refusal) open(next);
  };
  if (!container.can_act || (!hasCoins && !canDelete && !canEdit)) return null;
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs" justify="flex-end">
        {canEdit ? (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPencil size={14} aria-hidden="true" />}
            onClick={() => open('edit')}
          >
            Edit container
          </Button>
        ) : null}
        {hasCoins ? (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconCoins size={14} aria-hidden="true" />}
            {...refusedProps}
            onClick={openUnlessRefused('convert')}
          >
            Convert coins
          </Button>
        ) : null}
        {canDelete ? (
          <Button
            variant="outline"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden="true" />}
            {...refusedProps}
            onClick={openUnlessRefused('delete')}
          >
            Delete container
          </Button>
        ) : null}
        {dialog === 'edit' ? (
          <EditContainerDialog opened container={container} onClose={() => setDialog(null)} />
        ) : null}
        {dialog === 'convert' ? (
          <ConvertCurrencyDialog
            opened
            containerId={container.id}
            containerName={container.name}
            coins={heldCoins}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog === 'delete' ? (
          <DeleteContainerDialog
            opened
            container={container}
            containers={containers}
            onClose={() => setDialog(null)}
            onDeleted={() => {
              setReturnFocus(false);
              onDeleted();
              const next = afterDeletion(container, containers);
              if (container.id === pageContainerId) {
                navigate(next ? `/containers/${next}` : '/characters', { replace: true });
              } else if (next) onSelect(next);
            }}
          />
        ) : null}
      </Group>
      {refusal && (hasCoins || canDelete) ? (
        <Text size="xs" c="dimmed" id={refusalId} data-testid="container-actions-refusal">
          {refusal}.
        </Text>
      ) : null}
    </Stack>
  );
}
