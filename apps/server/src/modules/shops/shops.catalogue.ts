import type { ShopType } from '@haversack/contracts';
import { srdSystemKey } from '../items/items.catalogue.js';

export interface SystemShopItem {
  /** The SRD name, as items.catalogue keys it. */
  srd: string;
  quantity: number;
  /** Copper; for the SRD's magic items, which have no price of their own in the catalogue. */
  priceCp?: number;
}

export interface SystemShop {
  systemKey: string;
  name: string;
  ownerName: string;
  location: string;
  shopType: ShopType;
  description: string;
  buyModifier: number;
  sellModifier: number;
  defaultRestockDays: number | null;
  tags: string[];
  items: SystemShopItem[];
}

const gp = (n: number) => n * 100;

/**
 * Public, system-owned shops built from the SRD catalogue, so that a new GM has something to deploy in
 * the first minute (issue 10 item 1). Magic item prices follow the SRD's rarity bands (common 50–100 gp,
 * uncommon 101–500 gp, rare 501–5,000 gp), at the low end of each.
 */
export const systemShops: SystemShop[] = [
  {
    systemKey: 'shop:general-store',
    name: 'The Wayfarer’s General Store',
    ownerName: 'Marta Greenbottle',
    location: 'marketplace',
    shopType: 'general',
    description: 'Rope, rations, torches and everything else an adventurer forgets to pack.',
    buyModifier: 1,
    sellModifier: 0.5,
    defaultRestockDays: 7,
    tags: ['Equipment', 'Tools', 'Food'],
    items: [
      { srd: 'Backpack', quantity: 10 },
      { srd: 'Arrow', quantity: 200 },
      { srd: 'Crossbow bolt', quantity: 100 },
      { srd: 'Dagger', quantity: 10 },
      { srd: 'Rope, hempen (50 feet)', quantity: 10 },
      { srd: 'Torch', quantity: 50 },
      { srd: 'Rations (1 day)', quantity: 50 },
      { srd: 'Bedroll', quantity: 10 },
      { srd: 'Tinderbox', quantity: 10 },
      { srd: 'Waterskin', quantity: 10 },
      { srd: 'Crowbar', quantity: 5 },
      { srd: 'Lantern, hooded', quantity: 5 },
      { srd: 'Oil (flask)', quantity: 20 },
      { srd: 'Candle', quantity: 30 },
      { srd: 'Sack', quantity: 20 },
      { srd: 'Mess Kit', quantity: 10 },
      { srd: "Clothes, traveler's", quantity: 5 },
    ],
  },
  {
    systemKey: 'shop:blacksmith',
    name: 'Ironhand Forge',
    ownerName: 'Durgan Ironhand',
    location: 'craftsman_quarter',
    shopType: 'blacksmith',
    description: 'Blades, axes and armour hammered out while you wait.',
    buyModifier: 1,
    sellModifier: 0.5,
    defaultRestockDays: 14,
    tags: ['Weapons', 'Armor'],
    items: [
      { srd: 'Dagger', quantity: 10 },
      { srd: 'Shortsword', quantity: 5 },
      { srd: 'Longsword', quantity: 5 },
      { srd: 'Handaxe', quantity: 5 },
      { srd: 'Battleaxe', quantity: 3 },
      { srd: 'Warhammer', quantity: 3 },
      { srd: 'Mace', quantity: 3 },
      { srd: 'Spear', quantity: 5 },
      { srd: 'Chain Shirt', quantity: 2 },
      { srd: 'Chain Mail', quantity: 2 },
      { srd: 'Scale Mail', quantity: 2 },
      { srd: 'Shield', quantity: 5 },
      { srd: 'Whetstone', quantity: 10 },
    ],
  },
  {
    systemKey: 'shop:apothecary',
    name: 'The Bubbling Cauldron',
    ownerName: 'Elowen Thistle',
    location: 'main_street',
    shopType: 'apothecary',
    description: 'Remedies, antidotes and a healing draught or two.',
    buyModifier: 1,
    sellModifier: 0.5,
    defaultRestockDays: 7,
    tags: ['Potions', 'Components'],
    items: [
      { srd: 'Potion of Healing', quantity: 10, priceCp: gp(50) },
      { srd: 'Antitoxin (vial)', quantity: 5 },
      { srd: "Healer's Kit", quantity: 5 },
      { srd: 'Herbalism Kit', quantity: 2 },
      { srd: 'Vial', quantity: 20 },
      { srd: 'Holy water (flask)', quantity: 5 },
      { srd: 'Acid (vial)', quantity: 5 },
      { srd: "Alchemist's fire (flask)", quantity: 5 },
      { srd: 'Soap', quantity: 10 },
    ],
  },
  {
    systemKey: 'shop:magic-shop',
    name: 'The Gilded Grimoire',
    ownerName: 'Archmage Quillon',
    location: 'magic_district',
    shopType: 'magic_shop',
    description: 'Scrolls, wands and curiosities, for those who can pay.',
    buyModifier: 1.25,
    sellModifier: 0.5,
    defaultRestockDays: 30,
    tags: ['Magical Items', 'Scrolls', 'Rare Items'],
    items: [
      { srd: 'Spell Scroll (Cantrip)', quantity: 5, priceCp: gp(50) },
      { srd: 'Spell Scroll (1st)', quantity: 5, priceCp: gp(75) },
      { srd: 'Potion of Healing', quantity: 5, priceCp: gp(50) },
      { srd: 'Potion of Greater Healing', quantity: 3, priceCp: gp(150) },
      { srd: 'Potion of Climbing', quantity: 2, priceCp: gp(75) },
      { srd: 'Wand of Magic Missiles', quantity: 1, priceCp: gp(400) },
      { srd: 'Bag of Holding', quantity: 1, priceCp: gp(500) },
      { srd: 'Cloak of Protection', quantity: 1, priceCp: gp(500) },
      { srd: 'Component pouch', quantity: 5 },
      { srd: 'Spellbook', quantity: 2 },
    ],
  },
  {
    systemKey: 'shop:fletcher',
    name: 'Straight Arrow Fletchery',
    ownerName: 'Tamsin Reed',
    location: 'forest_edge',
    shopType: 'weapon_shop',
    description: 'Bows, arrows and bolts, fletched by hand.',
    buyModifier: 1,
    sellModifier: 0.5,
    defaultRestockDays: 3,
    tags: ['Weapons', 'Equipment'],
    items: [
      { srd: 'Shortbow', quantity: 3 },
      { srd: 'Longbow', quantity: 3 },
      { srd: 'Arrow', quantity: 400 },
      { srd: 'Crossbow bolt', quantity: 200 },
      { srd: 'Quiver', quantity: 5 },
    ],
  },
];

export function systemShopItemKey(item: SystemShopItem): string {
  return srdSystemKey(item.srd);
}
