import { CATEGORY_TAG_PREFIX, templateCategory } from '@haversack/contracts';
import type { GameIconName } from './game-icons';

/** The SRD's rarities, from least to most rare, as D&D Beyond players know them. */
export const rarities = ['common', 'uncommon', 'rare', 'very rare', 'legendary', 'artifact'] as const;
export type Rarity = (typeof rarities)[number];

/**
 * Rarity colours (grey, green, blue, purple, orange, red), each darkened for the light scheme and
 * lightened for the dark one so that the text keeps at least 4.5:1 on a card (checked against white and
 * against Mantine's dark-7 and dark-6; the lowest is the dark green on white, about 6.6:1).
 */
export const rarityColours: Record<Rarity, { light: string; dark: string }> = {
  common: { light: '#495057', dark: '#ced4da' },
  uncommon: { light: '#1e6b2f', dark: '#69db7c' },
  rare: { light: '#1c5fb0', dark: '#74c0fc' },
  'very rare': { light: '#7a1fc7', dark: '#c9a0ff' },
  legendary: { light: '#a14a00', dark: '#ffa94d' },
  artifact: { light: '#a3292b', dark: '#ff8787' },
};

/** A template's rarity as one of the six, whatever its case or spacing ("Very Rare", "very-rare"). */
export function rarityOf(metadata: Record<string, unknown>): Rarity | null {
  const raw = metadata.rarity;
  if (typeof raw !== 'string') return null;
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ');
  return (rarities as readonly string[]).includes(key) ? (key as Rarity) : null;
}

/** How a rarity reads on screen: "Very rare". */
export function rarityLabel(rarity: Rarity): string {
  return sentenceCase(rarity);
}

/** The icon of each SRD category (and of coins); anything else gets a bag. */
const categoryIcons: Record<string, GameIconName> = {
  weapon: 'broadsword',
  armor: 'breastplate',
  'adventuring-gear': 'knapsack',
  ammunition: 'arrow-cluster',
  tools: 'hammer-nails',
  'mounts-and-vehicles': 'horse-head',
  'wondrous-item': 'crystal-ball',
  rod: 'winged-scepter',
  potion: 'potion-ball',
  ring: 'diamond-ring',
  scroll: 'scroll-unfurled',
  staff: 'wizard-staff',
  wand: 'crystal-wand',
  currency: 'two-coins',
};
export const fallbackIcon: GameIconName = 'swap-bag';

/** "Weapons", "Wondrous Item", "adventuring_gear" → the SRD's slug ("weapon", "wondrous-item", ...). */
function slugOf(category: string): string {
  return category
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

export function categoryIcon(category: string | null): GameIconName {
  if (!category) return fallbackIcon;
  const slug = slugOf(category);
  return categoryIcons[slug] ?? categoryIcons[slug.replace(/s$/, '')] ?? fallbackIcon;
}

/** The icon of an item or template: coins by their coin, else by category (spec/02 §3). */
export function itemIcon(template: {
  tags: readonly string[];
  metadata: Record<string, unknown>;
  coin?: string | null;
}): GameIconName {
  if (template.coin) return categoryIcons.currency ?? fallbackIcon;
  return categoryIcon(templateCategory(template.tags, template.metadata));
}

/** Tags and categories whose words need more than a capital letter. */
const specialLabels: Record<string, string> = {
  'artisans-tools': 'Artisan’s tools',
  'tack-harness-and-drawn-vehicles': 'Tack, harness and drawn vehicles',
  'two-handed': 'Two-handed',
  'holy-symbols': 'Holy symbols',
};

function sentenceCase(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A tag (or category) as people read it: "category:weapon" → "Weapon", "adventuring-gear" →
 * "Adventuring gear". Never a slug or a prefix on screen.
 */
export function tagLabel(tag: string): string {
  const bare = tag.startsWith(CATEGORY_TAG_PREFIX) ? tag.slice(CATEGORY_TAG_PREFIX.length) : tag;
  const slug = slugOf(bare);
  const special = specialLabels[slug];
  if (special) return special;
  const words = bare.trim().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ');
  // A tag someone typed in capitals ("NPC") keeps them; a slug is written as a sentence.
  return sentenceCase(words === words.toUpperCase() ? words : words.toLowerCase());
}

/** The labels of a list of tags, each once ("weapon" and "category:weapon" are both "Weapon"). */
export function tagLabels(tags: readonly string[]): string[] {
  return [...new Set(tags.map(tagLabel).filter((label) => label !== ''))];
}
