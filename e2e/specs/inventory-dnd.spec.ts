import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible, expectPartAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { withMotion } from '../support/motion';
import { picture, screenshotDir } from '../support/screenshots';
import { settleAnimations, settleWorkspaceLayout } from '../support/settle';
import { dismissToasts } from '../support/toasts';

// Every transition drawn: the phone and drag flows are where motion meets the finger.
test.use(withMotion);

/**
 * Issue 12, items 1 and 2: drag and drop between two containers picked through the panels' Source
 * selects (mouse, touch, keyboard), and the keyboard path to the items with a visible focus and
 * "Move to...". Screenshots go to SHOTS_DIR (default e2e/.output/screenshots).
 */

const shots = process.env.SHOTS_DIR ? path.resolve(process.env.SHOTS_DIR) : screenshotDir;

interface Character {
  id: string;
  primary_container_id: string;
}
interface Container {
  id: string;
  name: string;
}
interface LedgerEntry {
  transaction_type: string;
  quantity: number | null;
  transactable_data: { name: string | null };
  source_location_data: { id: string | null; name: string | null };
  destination_location_data: { id: string | null; name: string | null };
}

/** The character's transfers, oldest first, as "name ×quantity: source → destination". */
async function transfers(page: Page, characterId: string) {
  const data = await api<{ transactions: LedgerEntry[] }>(
    page,
    'GET',
    `/transactions/character/${characterId}?per_page=100&transaction_type=transfer`,
  );
  return data.transactions
    .map(
      (t) =>
        `${t.transactable_data.name} ×${t.quantity}: ${t.source_location_data.name} → ${t.destination_location_data.name}`,
    )
    .reverse();
}

/** A character with a Backpack (its main container), a Saddlebag and a Chest, through the API. */
async function setUp(page: Page, prefix: string) {
  await signUpThroughApi(page, newAccount(prefix));
  const character = await api<Character>(page, 'POST', '/characters', {
    character: { name: 'Tamsin Reed', max_weight: 200, max_slots: 40 },
  });
  const saddlebag = await api<Container>(page, 'POST', `/characters/${character.id}/containers`, {
    container: { name: 'Saddlebag' },
  });
  const chest = await api<Container>(page, 'POST', `/characters/${character.id}/containers`, {
    container: { name: 'Chest' },
  });
  return { character, saddlebag, chest };
}

async function pickSource(page: Page, panel: Locator, name: string) {
  const source = panel.getByRole('combobox', { name: 'Source' });
  await source.click();
  await page.getByRole('option', { name: new RegExp(`^${name} `) }).click();
  await expect(source).toHaveValue(new RegExp(`^${name} `));
}

async function centre(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element has no box');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function mouseDrag(page: Page, from: Locator, to: Locator) {
  const start = await centre(from);
  const end = await centre(to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 12 });
  await page.mouse.up();
}

/**
 * A finger presses the tile, holds it until the drag starts (the dragged copy shows), moves to the
 * target and lifts: real touch input through CDP, so the browser applies touch-action as on a device.
 */
async function touchDrag(page: Page, from: Locator, to: Locator, overlay: Locator) {
  const start = await centre(from);
  const end = await centre(to);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [start] });
    await expect(overlay).toBeVisible();
    for (let step = 1; step <= 10; step += 1) {
      const t = step / 10;
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  const toggle = page.getByTestId('theme-toggle');
  if ((await toggle.getAttribute('aria-label')) === `Switch to ${theme} theme`) await toggle.click();
  // Away from the toggle, so its tooltip goes and axe sees controls at rest.
  await page.mouse.move(0, 0);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
}

/** The focused element draws a 2 px solid outline whose colour differs from the page's background. */
async function expectFocusRing(locator: Locator) {
  await expect(locator).toBeFocused();
  const ring = await locator.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
  });
  expect(ring.style).toBe('solid');
  expect(ring.width).toBe('2px');
  expect(ring.color).not.toBe('rgba(0, 0, 0, 0)');
}

test.describe('desktop with a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 1280, height: 800 } });

  test('two containers picked through the Source selects: drag with the mouse, touch and keyboard; the ledger has each move', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { character, saddlebag } = await setUp(page, 'dragger');
    for (const name of ['Longsword', 'Dagger', 'Torch'])
      await addItem(page, character.primary_container_id, name, 1);
    await addItem(page, saddlebag.id, 'Lantern, hooded', 1);

    await page.goto(`/containers/${character.primary_container_id}`);
    await expectInventoryOf(page, 'Tamsin Reed');
    await page.getByText('Dual', { exact: true }).click();
    const left = page.getByTestId('panel-left');
    const right = page.getByTestId('panel-right');
    // The second panel opens on the next container, not on the Market's long list (issue 12).
    await expect(right.getByRole('combobox', { name: 'Source' })).toHaveValue(/^Saddlebag /);
    // As the review did: the second panel's Source select picks a container (the first panel's, then
    // another). Before the fix, the first panel's tiles no longer dragged at all.
    await pickSource(page, right, 'Backpack');
    await expect(right.getByRole('button', { name: 'Longsword, quantity 1' })).toBeVisible();
    await pickSource(page, right, 'Saddlebag');
    await expect(right.getByRole('button', { name: 'Lantern, hooded, quantity 1' })).toBeVisible();

    // The mouse.
    await mouseDrag(page, left.getByRole('button', { name: 'Longsword, quantity 1' }), right);
    await expect(right.getByRole('button', { name: 'Longsword, quantity 1' })).toBeVisible();
    await expect(left.getByRole('button', { name: 'Longsword, quantity 1' })).toBeHidden();
    // No text was selected on the way.
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');

    // A finger: press and hold, then move.
    await touchDrag(
      page,
      left.getByRole('button', { name: 'Dagger, quantity 1' }),
      right,
      page.getByText('Dagger ×1', { exact: true }),
    );
    await expect(right.getByRole('button', { name: 'Dagger, quantity 1' })).toBeVisible();

    // The keyboard: Space picks the item up, Right jumps to the other panel, Space drops it; Escape
    // puts it back. A screen reader hears each step with the item's and the container's names, not
    // dnd-kit's ids.
    const heard = page.locator('[id^="DndLiveRegion"]');
    const torch = left.getByRole('button', { name: 'Torch, quantity 1' });
    await expect(torch).toHaveAccessibleDescription(/To pick up an item, press Space\./);
    await torch.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('Torch ×1', { exact: true })).toBeVisible();
    await expect(heard).toHaveText('Torch is over Backpack (Tamsin Reed).');
    await page.keyboard.press('Escape');
    await expect(heard).toHaveText('Moving Torch was cancelled.');
    await torch.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('Torch ×1', { exact: true })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(right).toHaveAttribute('data-drop-over', 'true');
    await expect(heard).toHaveText('Torch is over Saddlebag (Tamsin Reed).');
    await page.keyboard.press('Space');
    await expect(heard).toHaveText('Torch was dropped on Saddlebag (Tamsin Reed).');
    await expect(right.getByRole('button', { name: 'Torch, quantity 1' })).toBeVisible();

    // The first panel's Source select picks the Chest; the lantern goes there with the mouse.
    await pickSource(page, left, 'Chest');
    await expect(left.getByText('No items found.')).toBeVisible();
    await mouseDrag(page, right.getByRole('button', { name: 'Lantern, hooded, quantity 1' }), left);
    await expect(left.getByRole('button', { name: 'Lantern, hooded, quantity 1' })).toBeVisible();

    // The ledger, read through the API, has each move.
    await expect
      .poll(() => transfers(page, character.id))
      .toEqual([
        'Longsword ×1: Backpack (Tamsin Reed) → Saddlebag (Tamsin Reed)',
        'Dagger ×1: Backpack (Tamsin Reed) → Saddlebag (Tamsin Reed)',
        'Torch ×1: Backpack (Tamsin Reed) → Saddlebag (Tamsin Reed)',
        'Lantern, hooded ×1: Saddlebag (Tamsin Reed) → Chest (Tamsin Reed)',
      ]);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectAccessible(page, `inventory dual after drags (${theme})`);
      await picture(page, `${shots}/inventory-dual-after-drags-${theme}-1280.png`);
    }
  });
});

test('a drag over a container with no room for the item says so before the drop, and nothing moves', async ({
  page,
}) => {
  const { character, saddlebag } = await setUp(page, 'packrat');
  await api(page, 'PATCH', `/containers/${saddlebag.id}`, { container: { max_weight: 2 } });
  await addItem(page, character.primary_container_id, 'Longsword', 1);

  await page.goto(`/containers/${character.primary_container_id}`);
  await expectInventoryOf(page, 'Tamsin Reed');
  await page.getByText('Dual', { exact: true }).click();
  const left = page.getByTestId('panel-left');
  const right = page.getByTestId('panel-right');
  await expect(right.getByRole('combobox', { name: 'Source' })).toHaveValue(/^Saddlebag /);
  const sword = left.getByRole('button', { name: 'Longsword, quantity 1' });
  await sword.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('Longsword ×1', { exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  // A 3 lb sword over a 2 lb saddlebag: the outline, its legend and the screen reader say it will not fit.
  const refusal = 'Item(s) would exceed weight limit (3 lbs each, only 2 lbs left)';
  await expect(right).toHaveAttribute('data-drop-over', 'full');
  await expect(right.getByTestId('drop-no-room')).toHaveText(refusal);
  await expect(page.locator('[id^="DndLiveRegion"]')).toHaveText(
    `Longsword is over Saddlebag (Tamsin Reed). ${refusal}`,
  );
  await expectPartAccessible(page, '[data-testid="panel-right"]', 'a full container under a drag');
  await picture(page, 'inventory-drag-over-full-1280.png');
  await page.keyboard.press('Escape');
  await expect(right.getByTestId('drop-no-room')).toBeHidden();
  await expect(sword).toBeVisible();
  expect(await transfers(page, character.id)).toEqual([]);
});

test('a keyboard user reaches the items in a few keys, sees where the focus is, and moves an item with "Move to..."', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { character } = await setUp(page, 'keys');
  for (const name of ['Dagger', 'Longsword']) await addItem(page, character.primary_container_id, name, 1);
  await addItem(page, character.primary_container_id, 'Torch', 5);
  await page.goto(`/containers/${character.primary_container_id}`);
  await expect(page.getByRole('button', { name: 'Torch, quantity 5' })).toBeVisible();

  // Tab, Tab: "Skip to items" (shown when focused); Enter: the first item.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to items' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await settleAnimations(page);
  await picture(page, `${shots}/skip-to-items-light-1280.png`);
  await page.keyboard.press('Enter');
  const tiles = page.getByTestId('panel-left').getByTestId('item-tile');
  await expectFocusRing(tiles.first());
  // The grid is one Tab stop; arrows move between its tiles.
  await expect(tiles.and(page.locator('[tabindex="0"]'))).toHaveCount(1);
  await page.keyboard.press('End');
  const torch = page.getByRole('button', { name: 'Torch, quantity 5' });
  await expectFocusRing(torch);
  await expect(page.getByTestId('item-grid-help')).toBeVisible();

  // Each theme, a desktop and a phone: the ring shows and axe passes.
  // (The theme toggle is clicked: a key pressed on the tile afterwards tells Chromium the keyboard is back.)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await settleWorkspaceLayout(page, width);
      await torch.focus();
      await page.keyboard.press('End');
      await torch.scrollIntoViewIfNeeded();
      await expectFocusRing(torch);
      await settleAnimations(page);
      await picture(page, `${shots}/item-focus-${theme}-${width}.png`);
      await expectAccessible(page, `inventory with a focused item (${theme}, ${width} px)`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await settleWorkspaceLayout(page, 1280);
  }

  // "Move to..." without the dialog: M opens the menu on the focused tile; it lists the other
  // containers, not the Backpack itself.
  await torch.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('m');
  const menu = page.getByRole('menu', { name: 'Move Torch to...' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem')).toHaveText(['Saddlebag (Tamsin Reed)', 'Chest (Tamsin Reed)']);
  await expect(menu.getByRole('menuitem', { name: 'Saddlebag (Tamsin Reed)' })).toBeFocused();
  await settleAnimations(page);
  await picture(page, `${shots}/item-move-menu-dark-1280.png`);
  await expectAccessible(page, 'Move to menu');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Chest (Tamsin Reed)' })).toBeFocused();
  await page.keyboard.press('Enter');
  // A stack asks how many (all by default); Enter confirms.
  const move = page.getByRole('dialog', { name: 'Move Torch' });
  await expect(move.getByRole('textbox', { name: 'Quantity' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Item transferred successfully')).toBeVisible();
  await expect(torch).toBeHidden();
  // The focus stays in the grid, on the neighbour.
  await expectFocusRing(page.getByRole('button', { name: 'Longsword, quantity 1' }));

  // The same from a phone's list, in the light theme.
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 375, height: 812 });
  await settleWorkspaceLayout(page, 375);
  const dagger = page.getByRole('button', { name: 'Dagger, quantity 1' });
  await dagger.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+F10');
  const phoneMenu = page.getByRole('menu', { name: 'Move Dagger to...' });
  await expect(phoneMenu).toBeVisible();
  await settleAnimations(page);
  await picture(page, `${shots}/item-move-menu-light-375.png`);
  await page.keyboard.press('Enter');
  await expect(dagger).toBeHidden();

  await expect
    .poll(() => transfers(page, character.id))
    .toEqual([
      'Torch ×5: Backpack (Tamsin Reed) → Chest (Tamsin Reed)',
      'Dagger ×1: Backpack (Tamsin Reed) → Saddlebag (Tamsin Reed)',
    ]);
});

test('at a desktop, a player gathers items in the transfer queue with Ctrl+click and Q, and moves them together', async ({
  page,
}) => {
  const { character } = await setUp(page, 'gather');
  for (const name of ['Dagger', 'Longsword', 'Torch'])
    await addItem(page, character.primary_container_id, name, 1);
  await page.goto(`/containers/${character.primary_container_id}`);
  const dagger = page.getByRole('button', { name: 'Dagger, quantity 1' });
  const longsword = page.getByRole('button', { name: 'Longsword, quantity 1' });
  await expect(dagger).toBeVisible();
  const queue = page.getByTestId('transfer-queue');
  await expect(queue).toHaveCount(0);

  // Ctrl+click gathers instead of opening; Q on a focused item too.
  await dagger.click({ modifiers: ['ControlOrMeta'] });
  await expect(queue.getByText('Dagger ×1')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // On a short window the bar floats at the bottom of the screen; the toast rises above it, clear of
  // Process Queue.
  await page.setViewportSize({ width: 1280, height: 520 });
  await longsword.focus();
  await page.keyboard.press('q');
  await expect(queue.getByText('Longsword ×1')).toBeVisible();
  const toastBox = await page.getByTestId('toast-info').boundingBox();
  const processBox = await queue.getByRole('button', { name: 'Process Queue' }).boundingBox();
  if (!toastBox || !processBox) throw new Error('the toast or Process Queue has no box');
  expect(processBox.y + processBox.height, 'Process Queue is on screen').toBeLessThanOrEqual(520);
  expect(toastBox.y + toastBox.height, 'the toast is above the queue bar').toBeLessThanOrEqual(processBox.y);
  await page.setViewportSize({ width: 1280, height: 800 });
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page, 'transfer queue at a desktop');

  await queue.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: /^Chest/ }).click();
  await queue.getByRole('button', { name: 'Process Queue' }).click();
  await expect(dagger).toBeHidden();
  await expect(longsword).toBeHidden();
  await expect(page.getByRole('button', { name: 'Torch, quantity 1' })).toBeVisible();
  await expect(queue).toHaveCount(0);
  await expect
    .poll(() => transfers(page, character.id))
    .toEqual([
      'Dagger ×1: Backpack (Tamsin Reed) → Chest (Tamsin Reed)',
      'Longsword ×1: Backpack (Tamsin Reed) → Chest (Tamsin Reed)',
    ]);
});

test('dialogs of the inventory give the keyboard focus back to the button or item that opened them', async ({
  page,
}) => {
  const { character } = await setUp(page, 'refocus');
  await addItem(page, character.primary_container_id, 'Torch', 5);
  await page.goto(`/containers/${character.primary_container_id}`);
  const torch = page.getByRole('button', { name: 'Torch, quantity 5' });
  await expect(torch).toBeVisible();

  const newContainer = page.getByRole('button', { name: 'New Container' });
  await newContainer.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Create New Container' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Create New Container' })).toHaveCount(0);
  await expect(newContainer).toBeFocused();

  await torch.focus();
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: /Torch/ });
  await expect(details).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
  await expect(torch).toBeFocused();
});
