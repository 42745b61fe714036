import { type ItemTemplate, itemTemplateMessages } from '@haversack/contracts';

/**
 * The name of a shop or loot template's line. A line whose item is private to someone else comes without
 * its item (the server tells nothing of it), and is called "Private item".
 */
export function templateLineName(itemTemplate: Pick<ItemTemplate, 'name'> | null): string {
  return itemTemplate?.name ?? itemTemplateMessages.privateItem;
}

/** Where a line's worth is not told (its item is private to someone else). */
export const UNTOLD_WORTH = '—';
