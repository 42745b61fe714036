import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { api, findTemplate, upgradeTo } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { screenshotBothWidths } from '../support/screenshots';

// Issue 13 §5: a long container loads its items as the list scrolls and draws only the rows in view.
const ITEM_COUNT = 320;
const nameOf = (n: number) => `Item ${String(n).padStart(3, '0')}`;
const lastName = nameOf(ITEM_COUNT);

async function fillHoard(page: Page) {
  const character = await api<{ id: string }>(page, 'POST', '/characters', {
    character: { name: 'Hoarder' },
  });
  const hoard = await api<{ id: string }>(page, 'POST', '/containers', {
    container: { name: 'Hoard', character_id: character.id, max_weight: null, max_slots: null },
  });
  const torch = await findTemplate(page, 'Torch');
  // The token read once, not from the page for each of the 320 calls as `api` does.
  const token = await page.evaluate(() => window.localStorage.getItem('auth_token'));
  let next = 1;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next <= ITEM_COUNT) {
        const n = next++;
        const response = await page.request.post('/api/v1/item_instances', {
          headers: { Authorization: `Bearer ${token}` },
          data: {
            item_template_id: torch.id,
            container_id: hoard.id,
            quantity: 1,
            instance_data: { name_override: nameOf(n) },
          },
        });
        expect(response.ok(), `item ${n}: ${response.status()} ${await response.text()}`).toBeTruthy();
      }
    }),
  );
  return hoard.id;
}

const tileOf = (page: Page, name: string) => page.getByRole('button', { name: `${name}, quantity 1` });

test('a container of 320 items scrolls to its last item by mouse and by keyboard, drawing a few rows at a time', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpThroughApi(page, newAccount('hoarder'));
  // Hundreds of additions are more than the free plan's daily actions.
  await upgradeTo(page, 'tier_3');
  const hoardId = await fillHoard(page);

  await page.goto(`/containers/${hoardId}`);
  await expectInventoryOf(page, 'Hoarder');
  const list = page.getByRole('list', { name: 'Items' });
  await expect(tileOf(page, nameOf(1))).toBeVisible();
  await expect(list).toHaveAttribute('data-virtualised', 'true');
  // The first page is 20 items; the list is virtualised from the start, never a "Load more" button.
  await expect(page.getByRole('button', { name: 'Load more items' })).toHaveCount(0);
  expect(await page.getByTestId('item-tile').count()).toBeLessThan(100);
  await page.mouse.move(0, 0);
  await expectAccessible(page, 'inventory-big-grid');
  await screenshotBothWidths(page, 'inventory-big-grid');

  // By keyboard, in the list layout: the first tile takes the focus, End goes to the last loaded one and
  // loads on; End again until the last item has the focus; Enter opens it.
  await page.getByText('List', { exact: true }).click();
  await expect(tileOf(page, nameOf(1))).toBeVisible();
  await tileOf(page, nameOf(1)).focus();
  await expect(tileOf(page, nameOf(1))).toBeFocused();
  await expect(async () => {
    await page.keyboard.press('End');
    await expect(tileOf(page, lastName)).toBeFocused({ timeout: 500 });
  }).toPass({ timeout: 60_000 });
  expect(await page.getByTestId('item-tile').count()).toBeLessThan(100);
  await page.keyboard.press('ArrowUp');
  await expect(tileOf(page, nameOf(ITEM_COUNT - 1))).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tileOf(page, nameOf(1))).toBeFocused();
  await page.keyboard.press('End');
  await expect(tileOf(page, lastName)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: new RegExp(lastName) })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.mouse.move(0, 0);
  await expectAccessible(page, 'inventory-big-list');
  await screenshotBothWidths(page, 'inventory-big-list');

  // By mouse, in the grid again (a fresh page, 20 items loaded): the wheel over the list reaches the last item, the next pages loading on the way.
  await page.goto(`/containers/${hoardId}`);
  await expect(tileOf(page, nameOf(1))).toBeVisible();
  const box = await list.boundingBox();
  if (!box) throw new Error('the item list has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 150));
  await expect(async () => {
    await page.mouse.wheel(0, 3000);
    await expect(tileOf(page, lastName)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 60_000 });
  // Virtualised: far fewer tiles in the DOM than items, and the first ones are gone.
  expect(await page.getByTestId('item-tile').count()).toBeLessThan(100);
  await expect(tileOf(page, nameOf(1))).toHaveCount(0);
  // Screen readers hear where a tile is in the whole list.
  await expect(page.locator(`[data-item-id]:has([aria-label="${lastName}, quantity 1"])`)).toHaveAttribute(
    'aria-posinset',
    String(ITEM_COUNT),
  );
  await expect(page.locator('[data-item-id]').first()).toHaveAttribute('aria-setsize', String(ITEM_COUNT));

  // Search asks the server, which finds an item not loaded yet.
  await page.keyboard.press('Control+f');
  await page.getByPlaceholder('Search items...').first().fill('319');
  await expect(tileOf(page, nameOf(319))).toBeVisible();
  await expect(page.getByTestId('item-tile')).toHaveCount(1);
});
