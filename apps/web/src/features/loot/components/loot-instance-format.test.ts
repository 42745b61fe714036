import { describe, expect, it } from 'vitest';
import { lootContentsLabel } from './loot-instance-format';

describe('lootContentsLabel', () => {
  it('keeps each amount of the worth with its coin, so a wrapped card never leaves "gp" alone on a line', () => {
    // A card in a third of 1280 px wrapped "… · 19,800" and put "gp" on the next line.
    expect(lootContentsLabel(6, 1_980_000, 15_600)).toBe('6 items and 15,600 coins · 19,800\u00a0gp');
    // Between the amounts the line may still break: "3 gp" then "8 cp".
    expect(lootContentsLabel(2, 308, 22)).toBe('2 items and 22 coins · 3\u00a0gp 8\u00a0cp');
    expect(lootContentsLabel(0, 50, 5)).toBe('5 coins · 5\u00a0sp');
  });

  it('says the same words as before', () => {
    expect(lootContentsLabel(2, 0)).toBe('2 items');
    expect(lootContentsLabel(0, 0)).toBe('Empty');
  });
});
