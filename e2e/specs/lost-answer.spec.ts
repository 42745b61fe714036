import { expect, test } from '@playwright/test';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { api, findTemplate } from '../support/api';

interface Character {
  id: string;
  primary_container_id: string;
}
interface Stack {
  name: string;
  quantity: number;
}

test('an add whose answer the network lost is sent again with its key and made once', async ({ page }) => {
  const account = newAccount('wifi');
  await signUpThroughApi(page, account);
  const hero = await api<Character>(page, 'POST', '/characters', {
    character: { name: 'Pip on the table Wi-Fi', max_weight: null, max_slots: null },
  });
  const lantern = await findTemplate(page, 'Lantern, hooded');

  // The first answer to the add is lost after the server made the change, as on a phone whose Wi-Fi drops.
  const sent: { key: string | null; replayed: string | null }[] = [];
  let dropped = false;
  await page.route('**/api/v1/item_instances', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch();
    sent.push({
      key: route.request().headers()['idempotency-key'] ?? null,
      replayed: response.headers()['idempotent-replayed'] ?? null,
    });
    if (!dropped) {
      dropped = true;
      return route.abort('connectionreset');
    }
    return route.fulfill({ response });
  });

  await page.goto(`/marketplace?q=${encodeURIComponent(lantern.name)}`);
  await page.getByRole('button', { name: `Add to Container: ${lantern.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add ${lantern.name}` });
  await expect(dialog.getByRole('combobox', { name: 'Container' })).toHaveValue(/Backpack/);
  await dialog.getByRole('textbox', { name: 'Quantity' }).fill('3');
  await dialog.getByRole('button', { name: 'Add to Container' }).click();

  await expect(page.getByText(`Added 3 × ${lantern.name}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(sent).toHaveLength(2);
  expect(sent[0]?.key).toMatch(/^[0-9a-f]{32}$/);
  expect(sent[1]).toEqual({ key: sent[0]?.key, replayed: 'true' });
  const held = await api<Stack[]>(page, 'GET', `/containers/${hero.primary_container_id}/items?per_page=50`);
  const lanterns = held.filter((stack) => stack.name === lantern.name);
  expect(lanterns.reduce((sum, stack) => sum + stack.quantity, 0)).toBe(3);
});
