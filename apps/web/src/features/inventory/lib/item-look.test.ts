import gameIcons from '@iconify-json/game-icons/icons.json';
import { describe, expect, it } from 'vitest';
import { gameIconBodies } from './game-icons';
import { categoryIcon, itemIcon, rarities, rarityColours, rarityOf, tagLabel, tagLabels } from './item-look';

describe('tag labels (issue 12 §6: never "CATEGORY:WEAPON" or slugs)', () => {
  it.each([
    ['category:weapon', 'Weapon'],
    ['adventuring-gear', 'Adventuring gear'],
    ['category:adventuring-gear', 'Adventuring gear'],
    ['wondrous-item', 'Wondrous item'],
    ['mounts-and-vehicles', 'Mounts and vehicles'],
    ['two-handed', 'Two-handed'],
    ['artisans-tools', 'Artisan’s tools'],
    ['very_rare', 'Very rare'],
    ['NPC', 'NPC'],
    ['magic', 'Magic'],
  ])('%s reads "%s"', (tag, label) => {
    expect(tagLabel(tag)).toBe(label);
  });

  it('lists each label once', () => {
    expect(tagLabels(['weapon', 'category:weapon', 'martial', 'melee'])).toEqual([
      'Weapon',
      'Martial',
      'Melee',
    ]);
  });
});

describe('rarity', () => {
  it('reads the six rarities whatever their spelling, and nothing else', () => {
    expect(rarityOf({ rarity: 'Very Rare' })).toBe('very rare');
    expect(rarityOf({ rarity: 'very-rare' })).toBe('very rare');
    expect(rarityOf({ rarity: 'legendary' })).toBe('legendary');
    expect(rarityOf({ rarity: 'mythic' })).toBeNull();
    expect(rarityOf({})).toBeNull();
  });

  /** WCAG relative luminance and contrast ratio. */
  function luminance(hex: string): number {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  }
  function contrast(a: string, b: string): number {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
  }

  it.each(rarities)('%s keeps 4.5:1 on a light card and on dark cards', (rarity) => {
    const { light, dark } = rarityColours[rarity];
    expect(contrast(light, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light, '#f8f9fa')).toBeGreaterThanOrEqual(4.5);
    // Mantine's dark body (dark-7) and card (dark-6).
    expect(contrast(dark, '#242424')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(dark, '#2e2e2e')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('icons', () => {
  it('gives each SRD category its icon, and coins theirs', () => {
    expect(categoryIcon('weapon')).toBe('broadsword');
    expect(categoryIcon('Weapons')).toBe('broadsword');
    expect(categoryIcon('Wondrous Item')).toBe('crystal-ball');
    expect(categoryIcon('something homemade')).toBe('swap-bag');
    expect(categoryIcon(null)).toBe('swap-bag');
    expect(itemIcon({ tags: ['category:potion'], metadata: {} })).toBe('potion-ball');
    expect(itemIcon({ tags: [], metadata: { category: 'armor' } })).toBe('breastplate');
    expect(itemIcon({ tags: ['currency'], metadata: {}, coin: 'gp' })).toBe('two-coins');
  });

  it('ships only the icons it uses, each exactly as the Game Icons package draws it', () => {
    const names = Object.keys(gameIconBodies) as (keyof typeof gameIconBodies)[];
    expect(names.length).toBeLessThan(30);
    for (const name of names) {
      expect(gameIconBodies[name]).toBe((gameIcons.icons as Record<string, { body: string }>)[name]?.body);
    }
  });
});
