import type { ShareLink } from '@haversack/contracts';
import { formatCount } from '../../../lib/format';

/** "1 item", "23 items": units of items that are not coins, as the snapshot's totals count them. */
export function itemsLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'item' : 'items'}`;
}

/** "1 stack", "12 stacks": rows of the table, coins included (what more_items counts). */
export function stacksLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'stack' : 'stacks'}`;
}

const targetNouns: Record<ShareLink['kind'], string> = { character: 'Character', loot: 'Loot', shop: 'Shop' };

/**
 * What a share link points at, as its maker's list names it: its current name, or, once they can no longer
 * see it (the server sends no name then), only its kind: "Loot you can no longer see".
 */
export function shareTargetLabel(link: Pick<ShareLink, 'kind' | 'target_name'>): string {
  return link.target_name ?? `${targetNouns[link.kind]} you can no longer see`;
}
