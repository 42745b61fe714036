import { copperToGp, isSaturated, type ShareLink } from '@haversack/contracts';

/** "152 gp", "7 sp 3 cp", "0 gp": worth counted in gold as players do, down to the copper below 1 gp. */
export function formatCopperValue(copper: number): string {
  // A total clamped at MAX_REPORTED_SUM reads "90,071,992,547,409+ gp": the true worth is at least that.
  if (copper >= 100)
    return `${copperToGp(copper).toLocaleString('en-US')}${isSaturated(copper) ? '+' : ''} gp`;
  if (copper <= 0) return '0 gp';
  const sp = Math.floor(copper / 10);
  const cp = copper % 10;
  return [sp > 0 ? `${sp} sp` : '', cp > 0 ? `${cp} cp` : ''].filter(Boolean).join(' ');
}

/** "1 item", "23 items": units of items that are not coins, as the snapshot's totals count them. */
export function itemsLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}`;
}

/** "1 stack", "12 stacks": rows of the table, coins included (what more_items counts). */
export function stacksLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'stack' : 'stacks'}`;
}

const targetNouns: Record<ShareLink['kind'], string> = { character: 'Character', loot: 'Loot', shop: 'Shop' };

/**
 * What a share link points at, as its maker's list names it: its current name, or, once they can no longer
 * see it (the server sends no name then), only its kind: "Loot you can no longer see".
 */
export function shareTargetLabel(link: Pick<ShareLink, 'kind' | 'target_name'>): string {
  return link.target_name ?? `${targetNouns[link.kind]} you can no longer see`;
}
