import { type Container, inventoryMessages, shopMessages } from '@haversack/contracts';
import { type DraggedShopItem, isDraggedShopItem } from '../shops/components/shop-source-view';
import { unsupportedTransfer } from './api/transfer-messages';
import { capacityRefusalText, weightRoomFor } from './lib/weight-room';
import {
  asDragPayload,
  asDropZone,
  type DraggedItem,
  type DraggedLootItem,
  type DraggedTemplate,
  isDraggedLootItem,
} from './workspace-types';

/** What a drop in the workspace means (spec/02 §4 allowed transfers), before anything is asked or sent. */
export type DropPlan =
  | { kind: 'none' }
  | { kind: 'refuse'; message: string }
  /** Into or out of a container the user's plan cannot change (a party stash without party collaboration). */
  | { kind: 'locked'; containerId: string }
  /** Loot → container: a take. */
  | { kind: 'take'; item: DraggedLootItem; containerId: string | null }
  /** Shop → container: a purchase. */
  | { kind: 'buy'; item: DraggedShopItem; containerId: string | null }
  /** Container → shop: a sale. */
  | { kind: 'sell'; item: DraggedItem; shopId: string }
  /** Marketplace → container: a new stack from the template. */
  | { kind: 'add'; template: DraggedTemplate; containerId: string }
  /** Container → container: a move. */
  | { kind: 'transfer'; item: DraggedItem; containerId: string };

/**
 * Reads a drop: what was dragged (dnd-kit's `active.data`) and where it landed (`over.data`). Refusals carry
 * the spec's "Unsupported transfer type: {from} to {to}"; dropping a thing back where it came from is
 * nothing.
 */
export function planDrop(
  dragged: unknown,
  over: unknown,
  planLocked: ReadonlySet<string> = new Set(),
): DropPlan {
  const plan = readDrop(dragged, over);
  const touched = [
    'containerId' in plan ? plan.containerId : null,
    plan.kind === 'transfer' || plan.kind === 'sell' ? plan.item.containerId : null,
  ];
  const locked = touched.find((id) => id !== null && planLocked.has(id));
  return locked ? { kind: 'locked', containerId: locked } : plan;
}

function readDrop(dragged: unknown, over: unknown): DropPlan {
  const zone = asDropZone(over);
  if (!zone) return { kind: 'none' };
  if (isDraggedLootItem(dragged)) {
    if (zone.kind === 'loot' && zone.lootId === dragged.lootId) return { kind: 'none' };
    const refused = unsupportedTransfer('loot', zone.kind);
    return refused
      ? { kind: 'refuse', message: refused }
      : { kind: 'take', item: dragged, containerId: zone.containerId };
  }
  if (isDraggedShopItem(dragged)) {
    const refused = unsupportedTransfer('shop', zone.kind);
    if (refused) return { kind: 'refuse', message: refused };
    // An unpriced line the shop has no price for: the purchase would only be refused.
    if (dragged.unitCp === null) return { kind: 'refuse', message: shopMessages.unpricedNotForSale };
    return { kind: 'buy', item: dragged, containerId: zone.containerId };
  }
  const payload = asDragPayload(dragged);
  if (!payload) return { kind: 'none' };
  const refused = unsupportedTransfer(payload.kind === 'item' ? 'container' : 'marketplace', zone.kind);
  if (refused) return { kind: 'refuse', message: refused };
  if (zone.kind === 'shop' && payload.kind === 'item') {
    return zone.shopId ? { kind: 'sell', item: payload, shopId: zone.shopId } : { kind: 'none' };
  }
  if (zone.kind !== 'container') return { kind: 'none' };
  if (!zone.containerId) return { kind: 'refuse', message: inventoryMessages.transferFailed };
  if (payload.kind === 'template') return { kind: 'add', template: payload, containerId: zone.containerId };
  // Dropping back where it came from is not a transfer (spec/02 §4 refuses the same container).
  if (zone.containerId === payload.containerId) return { kind: 'none' };
  return { kind: 'transfer', item: payload, containerId: zone.containerId };
}

/**
 * Said while a drag is over a container that has no room by weight for even one of what is dragged: the
 * refusal the drop would get (spec/02 §5) with what one weighs and what is left, so the player sees it is
 * full before letting go. Null when one fits, when weight does not limit the container, or when the drop
 * would put nothing in a container (a sale, a refusal, back where it came from).
 */
export function noRoomFor(plan: DropPlan, containerOf: (id: string) => Container | undefined): string | null {
  const added = weightAdded(plan);
  const container = added?.containerId ? containerOf(added.containerId) : undefined;
  if (!added || !container || weightRoomFor(container.capacity, added.each) !== 0) return null;
  return capacityRefusalText(inventoryMessages.weightExceeded, 0, {
    each: added.each,
    capacity: container.capacity,
  });
}

/** What one of the things a drop puts in a container weighs, and which container. */
function weightAdded(plan: DropPlan): { each: number; containerId: string | null } | null {
  switch (plan.kind) {
    case 'take':
    case 'buy':
    case 'transfer':
      return { each: plan.item.weight, containerId: plan.containerId };
    case 'add':
      return { each: plan.template.weight, containerId: plan.containerId };
    default:
      return null;
  }
}

/**
 * Said when a shop item or loot is dropped where it cannot go (the party stash, another's container): what
 * to do instead, naming the character when only one of the user's characters could receive it (review
 * 2026-11: "Choose a container of that character." left the player asking which). `containers` are those
 * that could: the user's characters' containers they may act on.
 */
export function dropElsewhere(kind: 'buy' | 'take', containers: readonly Container[]): string {
  return `Drop it on one of ${whoseContainers(containers)} containers to ${kind} it.`;
}

/**
 * Said when an item dragged onto a shop is not in one of the user's characters' containers (the party
 * stash): a shop buys only from a character, so the item goes to one first.
 */
export function sellElsewhere(containers: readonly Container[]): string {
  return `A shop buys only from your characters: move it into one of ${whoseContainers(containers)} containers first.`;
}

/** "Rook Ironside’s" when one of the user's characters has containers they may act on, else "your characters’". */
function whoseContainers(containers: readonly Container[]): string {
  const names = new Set(
    containers.filter((c) => c.owner.type === 'character' && c.can_act).map((c) => c.owner.name),
  );
  const [only] = names;
  return names.size === 1 && only ? `${only}\u2019s` : 'your characters\u2019';
}
