import { type Currency, coinSystemKey, type LootSourceType } from '@haversack/contracts';
import { srdSystemKey } from '../items/items.catalogue.js';

/** A line of a system loot: an SRD item by its name, or coins of one denomination. */
export type SystemLootItem = { srd: string; quantity: number } | { coin: Currency; quantity: number };

export interface SystemLoot {
  systemKey: string;
  name: string;
  sourceType: LootSourceType;
  source: string;
  description: string;
  tags: string[];
  items: SystemLootItem[];
}

/**
 * Public, system-owned loot built from the SRD catalogue and the seeded coins, so that a new GM has
 * something to deploy in the first minute (issue 11 item 1). Amounts follow the SRD's treasure tables
 * loosely: a goblin's few coppers, a bandit camp's purse, a young dragon's hoard.
 */
export const systemLoot: SystemLoot[] = [
  {
    systemKey: 'loot:goblins-pouch',
    name: 'Goblin’s Pouch',
    sourceType: 'monster',
    source: 'Goblin',
    description: 'A greasy pouch of stolen coppers and whatever the goblin was chewing on.',
    tags: ['monster', 'low level'],
    items: [
      { coin: 'cp', quantity: 18 },
      { coin: 'sp', quantity: 4 },
      { srd: 'Dagger', quantity: 1 },
      { srd: 'Rations (1 day)', quantity: 1 },
    ],
  },
  {
    systemKey: 'loot:bandit-camp',
    name: 'Bandit Camp',
    sourceType: 'encounter',
    source: 'Bandits',
    description: 'The spoils of a roadside camp: a strongbox, weapons and the chains meant for travellers.',
    tags: ['encounter', 'camp'],
    items: [
      { coin: 'gp', quantity: 45 },
      { coin: 'sp', quantity: 120 },
      { srd: 'Shortsword', quantity: 2 },
      { srd: 'Crossbow, light', quantity: 1 },
      { srd: 'Crossbow bolt', quantity: 20 },
      { srd: 'Rope, hempen (50 feet)', quantity: 1 },
      { srd: 'Manacles', quantity: 2 },
      { srd: 'Potion of Healing', quantity: 1 },
    ],
  },
  {
    systemKey: 'loot:cultists-satchel',
    name: 'Cultist’s Satchel',
    sourceType: 'monster',
    source: 'Cultist',
    description: 'Candles, ink and a scroll the cultist never had the chance to read.',
    tags: ['monster', 'magic'],
    items: [
      { coin: 'gp', quantity: 8 },
      { srd: 'Spell Scroll (1st)', quantity: 1 },
      { srd: 'Vial', quantity: 2 },
      { srd: 'Ink (1 ounce bottle)', quantity: 1 },
      { srd: 'Candle', quantity: 3 },
    ],
  },
  {
    systemKey: 'loot:sunken-chest',
    name: 'Sunken Chest',
    sourceType: 'container',
    source: 'Shipwreck',
    description: 'A barnacled sea chest, its lock long rusted through.',
    tags: ['container', 'sea'],
    items: [
      { coin: 'gp', quantity: 150 },
      { coin: 'sp', quantity: 400 },
      { coin: 'ep', quantity: 30 },
      { srd: 'Spyglass', quantity: 1 },
      { srd: 'Potion of Healing', quantity: 2 },
      { srd: 'Lock', quantity: 1 },
    ],
  },
  {
    systemKey: 'loot:dragons-hoard',
    name: 'Dragon’s Hoard',
    sourceType: 'hoard',
    source: 'Young red dragon',
    description: 'Mounds of coin and the treasures of the adventurers who came before you.',
    tags: ['hoard', 'dragon', 'magic'],
    items: [
      { coin: 'gp', quantity: 12_000 },
      { coin: 'pp', quantity: 600 },
      { coin: 'sp', quantity: 3_000 },
      { srd: 'Potion of Greater Healing', quantity: 2 },
      { srd: 'Ring of Protection', quantity: 1 },
      { srd: 'Flame Tongue', quantity: 1 },
      { srd: 'Bag of Holding', quantity: 1 },
      { srd: 'Plate Armor', quantity: 1 },
    ],
  },
];

export function systemLootItemKey(item: SystemLootItem): string {
  return 'coin' in item ? coinSystemKey(item.coin) : srdSystemKey(item.srd);
}
