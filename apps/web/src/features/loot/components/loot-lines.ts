import { type ItemInstance, lootLineKey } from '@haversack/contracts';

/** A line of a loot's list: its identical stacks, named by the first, with how many they hold in all. */
export interface LootLine {
  key: string;
  item: ItemInstance;
  quantity: number;
}

/**
 * The line a stack is listed on (`lootLineKey`, the server's rule for what a take or a claim takes as one:
 * three longswords, a stack each, are one line of 3); a stack that keeps to itself (renamed, equipped) is
 * a line of its own. The name too, which a plain stack takes from its template: never two names on a line.
 */
export function lootLineOf(item: ItemInstance): string {
  const key = lootLineKey({
    itemTemplateId: item.item_template_id,
    instanceData: item.instance_data,
    notes: item.notes,
    isIdentified: item.is_identified,
  });
  return key === null ? `stack:${item.id}` : `${key}:${item.name}`;
}

/**
 * A loot's stacks as its page lists them, as a shop's shelf does: one line per item with the total, where
 * its first stack stood. A take or claim names the line's first stack, and the server takes the rest from
 * the line's others (loot.service's line of a take).
 */
export function lootLines(items: readonly ItemInstance[]): LootLine[] {
  const lines = new Map<string, LootLine>();
  for (const item of items) {
    const key = lootLineOf(item);
    const line = lines.get(key);
    if (line) line.quantity += item.quantity;
    else lines.set(key, { key, item, quantity: item.quantity });
  }
  return [...lines.values()];
}
