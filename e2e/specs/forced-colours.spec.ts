import { expect, type Page, test } from '@playwright/test';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api } from '../support/api';

/*
 * The edges of WCAG 2.2 AA that jsdom cannot see (review 2026-12, a11y edges): Windows' High Contrast
 * themes (forced colours, which Chromium really paints when emulated), a 320 px screen (400 % zoom) and
 * the toasts at the top of a phone. Each check reads what the browser computed or laid out.
 */

interface Character {
  id: string;
  primary_container_id: string;
}

/** The computed value of a CSS property of the first element matching `selector`. */
async function css(page: Page, selector: string, property: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

/** A colour that shows: not fully transparent. */
function painted(colour: string) {
  const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(colour)?.[1];
  return colour !== 'transparent' && (alpha === undefined || Number(alpha) > 0);
}

test('forced colours show every control’s state; 320 px keeps a tile’s buttons on its row; toasts never cover focus', async ({
  page,
}) => {
  await signUpThroughApi(page, newAccount('forced'));
  const character = await api<Character>(page, 'POST', '/characters', {
    character: { name: 'Wren', max_weight: 100, max_slots: 20 },
  });
  // A second container, so that each tile has both its Move and its More actions buttons.
  await api(page, 'POST', `/characters/${character.id}/containers`, { container: { name: 'Belt pouch' } });
  await addItem(page, character.primary_container_id, 'Adamantine Armor', 1);
  await addItem(page, character.primary_container_id, 'Abacus', 1);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ forcedColors: 'active', colorScheme: scheme });

    // Switches (H1): an edge, and on looks unlike off.
    await page.goto('/profile/preferences');
    const notifications = page.getByRole('switch', { name: /Notifications/ });
    await expect(notifications).toBeChecked();
    await expect(page.getByRole('switch', { name: /Compact view/ })).not.toBeChecked();
    const track = (checked: boolean) =>
      `.mantine-Switch-input${checked ? ':checked' : ':not(:checked)'} + .mantine-Switch-track`;
    const offTrack = await css(page, track(false), 'background-color');
    expect(await css(page, track(false), 'border-top-style'), `${scheme}: a switch's edge`).toBe('solid');
    expect(Number.parseFloat(await css(page, track(false), 'border-top-width'))).toBeGreaterThan(0);
    expect(await css(page, track(true), 'background-color'), `${scheme}: on and off`).not.toBe(offTrack);
    const thumb = await css(page, `${track(false)} .mantine-Switch-thumb`, 'background-color');
    expect(thumb, `${scheme}: the thumb`).not.toBe(offTrack);

    // The chosen tab, segment and page (M1); the load bars (M2).
    await page.goto(`/containers/${character.primary_container_id}`);
    await expect(page.getByTestId('item-tile').first()).toBeVisible();
    // Each is painted, in a colour unlike the page's (before, the page link's tint was forced to Canvas).
    const ground = await css(page, 'body', 'background-color');
    for (const active of [
      '.mantine-Tabs-tab[data-active]',
      '.mantine-SegmentedControl-label[data-active]',
      'nav a[aria-current="page"]',
    ]) {
      const tint = await css(page, active, 'background-color');
      expect(painted(tint), `${scheme}: ${active} is ${tint}`).toBe(true);
      expect(tint, `${scheme}: ${active}`).not.toBe(ground);
    }
    const bar = '.mantine-Progress-root';
    expect(await css(page, bar, 'outline-style'), `${scheme}: the bar's edge`).toBe('solid');
    const fill = await css(page, `${bar} .mantine-Progress-section`, 'background-color');
    expect(fill, `${scheme}: the bar's fill`).not.toBe(await css(page, bar, 'background-color'));

    // A ticked box (H2): its tick was drawn in the box's own colour, white on white, in the light palette.
    if (scheme === 'light') {
      await page.goto('/items/new');
      await page.getByLabel('Requires attunement').check();
      const box = await css(page, '.mantine-Checkbox-input:checked', 'background-color');
      const tick = await css(page, '.mantine-Checkbox-input:checked + .mantine-Checkbox-icon', 'color');
      expect(tick, `${scheme}: the tick`).not.toBe(box);
    }
  }

  // 320 px (400 % zoom, M4): each tile's buttons on its row, and its name broken only between words.
  await page.emulateMedia({ forcedColors: 'none', colorScheme: 'light' });
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/containers/${character.primary_container_id}`);
  const cells = page.getByTestId('item-tile-cell');
  await expect(cells).toHaveCount(2);
  for (const cell of await cells.all()) {
    const tile = await cell.getByTestId('item-tile').boundingBox();
    for (const button of ['item-move-menu', 'item-actions-menu']) {
      const box = await cell.getByTestId(button).boundingBox();
      if (!tile || !box) throw new Error('a tile or its button is not drawn');
      expect(box.y, `${button} beside ${await cell.getAttribute('data-item-id')}`).toBeGreaterThanOrEqual(
        tile.y,
      );
      expect(box.y + box.height).toBeLessThanOrEqual(tile.y + tile.height);
    }
  }
  const brokenWords = await page.getByTestId('item-row-name').evaluateAll((names) =>
    names.flatMap((name) => {
      const text = name.firstChild;
      if (!text?.textContent) return [];
      const broken: string[] = [];
      for (const word of text.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (range.getClientRects().length > 1) broken.push(word[0]);
      }
      return broken;
    }),
  );
  expect(brokenWords).toEqual([]);

  // A toast at the top of a phone (M3): what the keyboard scrolls to stops below it, not under it.
  await page.setViewportSize({ width: 375, height: 812 });
  await cells
    .first()
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Add to Queue' }).click();
  const toast = page.getByTestId('toast-info');
  await expect(toast).toBeVisible();
  const drawn = await toast.boundingBox();
  if (!drawn) throw new Error('the toast is not drawn');
  const padding = await page.evaluate(() =>
    Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
  );
  expect(padding, 'the scroll padding clears the toast').toBeGreaterThan(drawn.y + drawn.height);
});
