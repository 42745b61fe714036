import type { Container, ItemInstance } from '@haversack/contracts';

/** spec/02 §2 tabs of a workspace panel. */
export type PanelTab = 'container' | 'shop' | 'loot' | 'market';
export type ViewMode = 'single' | 'dual';
export type LayoutMode = 'grid' | 'list';
export type PanelSide = 'left' | 'right';

/** A panel remembers its container while it shows another tab (the Market adds into it). */
export interface PanelState {
  tab: PanelTab;
  containerId: string | null;
  /** The shop the Shop tab shows (issue 10). */
  shopId?: string | null;
  /** The loot the Loot tab shows (issue 11). */
  lootId?: string | null;
}

/** Tab labels: short in one column, the spec's long names in the two-column workspace. */
export const tabLabels: Record<ViewMode, Record<PanelTab, string>> = {
  single: { container: 'Container', shop: 'Shop', loot: 'Loot', market: 'Market' },
  dual: { container: 'Containers', shop: 'Shops', loot: 'Loots', market: 'Marketplace' },
};

export function containerLabel(container: Container): string {
  return container.owner.name && container.owner.name !== container.name
    ? `${container.name} (${container.owner.name})`
    : container.name;
}

/** Data carried by a dragged item (dnd-kit `data`). */
export interface DraggedItem {
  kind: 'item';
  itemId: string;
  containerId: string;
  quantity: number;
  name: string;
  /** lbs each: a container with no room for one shows so under the drag. */
  weight: number;
}
export interface DraggedTemplate {
  kind: 'template';
  templateId: string;
  templateName: string;
  /** lbs each: says how many fit after a capacity refusal. */
  weight: number;
}
export type DragPayload = DraggedItem | DraggedTemplate;

/**
 * What an item is, beyond its row in a list: its template's description, and the template's id when the
 * viewer may open its page (else null).
 */
export interface ItemAbout {
  description: string;
  templateId: string | null;
}

/** Where a stack shown on the Loot tab comes from, and what taking it needs (issue 11). */
export interface LootSource {
  lootId: string;
  lootName: string;
  partyId: string;
  /** Why nothing may be taken from it (hidden, no character in the party), else null. */
  blocked: string | null;
}

/** A loot stack being dragged: it is taken (POST loot_instances/{id}/take) when it lands on a container. */
export interface DraggedLootItem extends LootSource {
  kind: 'loot-item';
  itemId: string;
  name: string;
  quantity: number;
  /** lbs each. */
  weight: number;
}

export function isDraggedLootItem(data: unknown): data is DraggedLootItem {
  return (
    !!data && typeof data === 'object' && 'kind' in data && data.kind === 'loot-item' && 'lootId' in data
  );
}

/** A stack in the transfer queue: one of my items, or a loot stack waiting to be taken. */
export type QueuedItem = ItemInstance & { loot?: LootSource };

/** Data of a drop zone: a panel showing a container, or the marketplace. */
export interface DropZone {
  side: PanelSide;
  containerId: string | null;
  kind: 'container' | 'marketplace' | 'shop' | 'loot';
  /** On the Shop tab: the shop an item dropped here is sold to. */
  shopId?: string | null;
  /** On the Loot tab: the loot it shows (a stack dropped back on it is no transfer). */
  lootId?: string | null;
}

/** dnd-kit carries `data` untyped; these read it back only when it has the shape the workspace put in. */
export function asDragPayload(data: unknown): DragPayload | null {
  if (!data || typeof data !== 'object' || !('kind' in data)) return null;
  if (data.kind === 'item' && 'itemId' in data && 'containerId' in data) return data as DraggedItem;
  if (data.kind === 'template' && 'templateId' in data) return data as DraggedTemplate;
  return null;
}

export function asDropZone(data: unknown): DropZone | null {
  return data && typeof data === 'object' && 'side' in data && 'kind' in data ? (data as DropZone) : null;
}

/**
 * What the second panel opens on (issue 12): the next container to move things into, not the Market's
 * long list. The party stash first, when there is one and it is not the first panel's; then the next
 * container I can act on; the Market only when there is no other container.
 */
export function secondPanel(containers: Container[], firstId: string | null): PanelState {
  const others = containers.filter((c) => c.id !== firstId);
  const next =
    others.find((c) => c.owner.type === 'party' && c.can_act) ??
    others.find((c) => c.can_act) ??
    others[0] ??
    null;
  return next ? { tab: 'container', containerId: next.id } : { tab: 'market', containerId: firstId };
}
