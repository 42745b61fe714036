import {
  type Currency,
  currencies,
  type DistributionMode,
  formatCopper,
  formatEnUs,
  type ItemInstance,
  type LootInstance,
} from '@haversack/contracts';
import { formatCount, formatWhen, unbrokenAmounts } from '../../../lib/format';

/** DESIGN §4 distribution modes, as the GM chooses them. */
export const distributionModeLabels: Record<DistributionMode, string> = {
  even: 'Even split',
  by_value: 'By value',
  random: 'Random',
};

/** One line each on what a mode does (DESIGN §4). */
export const distributionModeHelp: Record<DistributionMode, string> = {
  even: 'Every stack is split evenly; what is left over goes to whoever has least, and the coins even out the value.',
  by_value: 'Whole stacks, each to the character who has received the least value so far.',
  random: 'Whole stacks, each to a character chosen at random.',
};

/** "Mar 5, 2026"; empty for no date or one the browser cannot read. */
export function formatLootDate(iso: string | null): string {
  return formatWhen(iso, 'date');
}

/** "Distributed · Even split · Mar 5, 2026" for a loot that was shared out; null before that. */
export function distributedLine(loot: Pick<LootInstance, 'distributed_at' | 'distribution_mode'>) {
  if (!loot.distributed_at) return null;
  return [
    'Distributed',
    loot.distribution_mode ? distributionModeLabels[loot.distribution_mode] : null,
    formatLootDate(loot.distributed_at),
  ]
    .filter(Boolean)
    .join(' · ');
}

const largestFirst: Currency[] = [...currencies].reverse();

/** "2 gp 5 sp" for a handful of coins; "no coins" when empty. */
export function formatCoins(purse: Partial<Record<Currency, number>>): string {
  const parts = largestFirst
    .filter((c) => (purse[c] ?? 0) > 0)
    .map((c) => `${formatEnUs(purse[c] ?? 0)} ${c}`);
  return parts.length > 0 ? parts.join(' ') : 'no coins';
}

/** "1 item", "3 items", "1,200 items". */
export function itemsCountLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * How the loot screens count what a loot holds, as the Loot received summary and the share page do: items
 * by the unit (a stack of 2 potions is 2 items), coins left out, since they show as worth instead.
 */
export function itemUnits(
  stacks: readonly (Pick<ItemInstance, 'quantity'> & {
    item_template: Pick<ItemInstance['item_template'], 'coin'>;
  })[],
): number {
  return stacks.reduce((sum, stack) => (stack.item_template.coin === null ? sum + stack.quantity : sum), 0);
}

/** The coins among a loot's stacks, by the piece: 18 cp and 4 sp are 22 coins. */
export function coinUnits(
  stacks: readonly (Pick<ItemInstance, 'quantity'> & {
    item_template: Pick<ItemInstance['item_template'], 'coin'>;
  })[],
): number {
  return stacks.reduce((sum, stack) => (stack.item_template.coin === null ? sum : sum + stack.quantity), 0);
}

/** "1 coin", "22 coins", "1,200 coins". */
function coinsCountLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'coin' : 'coins'}`;
}

/**
 * A loot's contents in one line, its worth to the copper as prices are: "4 items and 580 coins · 1,315 gp"
 * (the worth counts the coins too). Items are counted as the shop's header counts its goods, never coins;
 * the coins are named apart, so that "2 items" over two items and two coin stacks does not read as a
 * miscount (live review). "190 coins · 190 gp" for coins alone (never "0 items"), "2 items" for unpriced
 * items alone, "Empty" for nothing at all. Each amount of the worth keeps its coin on its line (unbrokenAmounts).
 */
export function lootContentsLabel(units: number, totalValueCp: number, coins = 0): string {
  const counted = [units > 0 ? itemsCountLabel(units) : null, coins > 0 ? coinsCountLabel(coins) : null]
    .filter(Boolean)
    .join(' and ');
  const parts = [
    counted || null,
    totalValueCp > 0 ? unbrokenAmounts(formatCopper(totalValueCp)) : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'Empty';
}

/**
 * A share's worth to the copper, counted in gold as players do: "15 gp 5 sp", "7 sp 3 cp", "0 cp". A
 * distribution's shares differ by coppers, so whole gp would hide what it is about.
 */
export const formatShareValue = formatCopper;
