import { expect, type Locator, type Page, test } from '@playwright/test';
import { AccountPages, newAccount } from '../support/accounts';
import { api } from '../support/api';

// Author review, H1: in a browser the Weight field showed 1.23 for a typed 1.234 and 0 for a pasted 12.750,
// and saved that, under a note saying it had read 1.234. jsdom dispatches the input event without the
// browser's turns between listeners, so only a real browser shows it.

/** Clears the field and types the text key by key, as a person does. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

/** Pastes the text over what the field holds, through the clipboard and the keyboard. */
async function pasteInto(page: Page, field: Locator, text: string) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await field.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+v');
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a weight keeps its thousandths typed or pasted, refuses a fourth decimal, and is saved as shown', async ({
  page,
}) => {
  await new AccountPages(page).register(newAccount('scale'));
  await page.goto('/items/new');
  await page.getByRole('textbox', { name: 'Name' }).fill('Weighed Lantern');
  const weight = page.getByRole('textbox', { name: 'Weight (lbs)' });

  await typeInto(page, weight, '1.234');
  await expect(weight).toHaveValue('1.234');
  await page.keyboard.type('5');
  await expect(weight).toHaveValue('1.234');
  await expect(weight).toHaveAccessibleDescription(/At most 3 decimal places here/);

  await pasteInto(page, weight, '12.750');
  await expect(weight).toHaveValue('12.750');
  await expect(weight).toHaveAccessibleDescription(
    '12.750 is read as 12.75: the point marks decimals. For 12750, type 12750.',
  );
  await pasteInto(page, weight, '0.0755');
  await expect(weight).toHaveValue('12.750');
  await expect(weight).toHaveAccessibleDescription(/At most 3 decimal places here/);

  await pasteInto(page, weight, '1.234');
  await expect(weight).toHaveValue('1.234');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page).toHaveURL(/\/items\/templates\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop();
  const saved = await api<{ weight: number }>(page, 'GET', `/item_templates/${id}`);
  expect(saved.weight).toBe(1.234);
});

test('a container’s max weight keeps two decimals and refuses the third, typed or pasted', async ({
  page,
}) => {
  await new AccountPages(page).register(newAccount('bags'));
  const character = await api<{ primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Porter' },
  });
  await page.goto(`/containers/${character.primary_container_id}`);
  await page.getByRole('button', { name: 'New Container' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Container' });
  const maxWeight = dialog.getByRole('textbox', { name: 'Max Weight' });

  await typeInto(page, maxWeight, '0.125');
  await expect(maxWeight).toHaveValue('0.12');
  await expect(maxWeight).toHaveAccessibleDescription('At most 2 decimal places here');
  // A paste over the whole text replaces what was refused: the refusal goes with it.
  await pasteInto(page, maxWeight, '7.5');
  await expect(maxWeight).toHaveValue('7.5');
  await expect(maxWeight).not.toHaveAttribute('aria-invalid', 'true');
  await pasteInto(page, maxWeight, '1.000');
  await expect(maxWeight).toHaveValue('7.5');
  await expect(maxWeight).toHaveAccessibleDescription(
    'At most 2 decimal places here (for one thousand, type 1000, not 1.000)',
  );
});
