import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api, findTemplate, upgradeTo } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { screenshotBothWidths } from '../support/screenshots';
import { dismissToasts } from '../support/toasts';

interface Character {
  id: string;
  name: string;
  primary_container_id: string;
}
interface Stack {
  name: string;
  quantity: number;
}
interface LedgerEntry {
  transaction_type: string;
  quantity: number | null;
  transactable_data: { name: string | null };
}

async function person(browser: Browser, prefix: string, device: 'desktop' | 'phone'): Promise<Page> {
  const context = await browser.newContext(
    device === 'phone'
      ? { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const page = await context.newPage();
  await signUpThroughApi(page, newAccount(prefix));
  return page;
}

/** Calls the API without failing the test on a refusal: its status and envelope. */
async function attempt(page: Page, path: string, body: unknown) {
  const token = await page.evaluate(() => window.localStorage.getItem('auth_token'));
  const response = await page.request.fetch(`/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  return {
    status: response.status(),
    body: (await response.json()) as { error?: { code: string; message: string } },
  };
}

test('at the table: purse and load, attunement, giving live, the GM’s party table and the conjuring rule', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const gm = await person(browser, 'tablegm', 'desktop');
  const player = await person(browser, 'tableplayer', 'phone');
  await upgradeTo(gm, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gm, 'POST', '/parties', {
    party: { name: 'The Gilded Lantern' },
  });
  await api(player, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const vex = await api<Character>(player, 'POST', '/characters', {
    character: { name: 'Vex Nightwhisper', party_id: party.id, max_weight: 150 },
  });
  const aldric = await api<Character>(gm, 'POST', '/characters', {
    character: { name: 'Brother Aldric', party_id: party.id, max_weight: 150 },
  });
  // The party starts free to conjure: the player fills a pack with coins, rope and four magic items.
  await addItem(player, vex.primary_container_id, 'Gold piece', 40);
  await addItem(player, vex.primary_container_id, 'Silver piece', 15);
  await addItem(player, vex.primary_container_id, 'Rope, hempen (50 feet)', 1);
  for (const name of ['Amulet of Health', 'Cloak of Protection', 'Ring of Protection', 'Boots of Speed']) {
    await addItem(player, vex.primary_container_id, name, 1);
  }

  // Item 4: the purse and the load in the inventory header.
  await player.goto(`/containers/${vex.primary_container_id}`);
  await expect(player.getByText('40 gp 15 sp').first()).toBeVisible();
  await expectInventoryOf(player, 'Vex Nightwhisper');

  // Item 5: attune to three items from the tile menu; the fourth is refused with the SRD rule.
  // Each menu is gone before the next opens: a closing menu, its item now "End attunement", would match too.
  for (const name of ['Amulet of Health', 'Cloak of Protection', 'Ring of Protection']) {
    await player.getByRole('button', { name: `More actions for ${name}` }).tap();
    await player.getByRole('menuitem', { name: 'Attune', exact: true }).tap();
    await expect(player.getByTestId('toast-success').last()).toContainText(`Attuned to ${name}`);
    await expect(player.getByRole('menu')).toHaveCount(0);
  }
  await player.getByRole('button', { name: 'More actions for Boots of Speed' }).tap();
  await player.getByRole('menuitem', { name: 'Attune', exact: true }).tap();
  await expect(player.getByTestId('toast-error').last()).toContainText(
    'A character can be attuned to at most 3 items. End an attunement first.',
  );
  await dismissToasts(player);
  await expectAccessible(player, 'table-inventory-attuned');
  await screenshotBothWidths(player, 'table-inventory-attuned');

  // Item 8: the player gives a rope to the GM's character; the GM's open inventory shows it live.
  await gm.goto(`/containers/${aldric.primary_container_id}`);
  await expectInventoryOf(gm, 'Brother Aldric');
  await player.getByRole('button', { name: 'More actions for Rope, hempen (50 feet)' }).tap();
  await player.getByRole('menuitem', { name: 'Give to...' }).tap();
  const give = player.getByRole('dialog', { name: 'Give Rope, hempen (50 feet)' });
  await give.getByRole('combobox', { name: 'Give to' }).tap();
  await player.getByRole('option', { name: /Brother Aldric/ }).tap();
  await give.getByRole('button', { name: 'Give' }).tap();
  await expect(player.getByTestId('toast-success').last()).toContainText('Brother Aldric');
  await expect(gm.getByText(/gave you 1 × Rope, hempen \(50 feet\)/)).toBeVisible({ timeout: 15_000 });
  await expect(gm.getByRole('button', { name: /^Rope, hempen \(50 feet\), quantity 1/ })).toBeVisible();
  const received = await api<Stack[]>(
    gm,
    'GET',
    `/containers/${aldric.primary_container_id}/items?per_page=100`,
  );
  expect(received.map((s) => `${s.name} ×${s.quantity}`)).toEqual(['Rope, hempen (50 feet) ×1']);
  const ledger = await api<{ transactions: LedgerEntry[] }>(
    gm,
    'GET',
    `/transactions/party/${party.id}?per_page=100&transaction_type=character_to_character_transfer`,
  );
  expect(ledger.transactions.map((t) => `${t.transactable_data.name} ×${t.quantity}`)).toEqual([
    'Rope, hempen (50 feet) ×1',
  ]);

  // Item 7: the GM's party overview tabulates every character's purse, wealth and load, with a total.
  await gm.goto(`/parties/${party.id}`);
  const table = gm.getByRole('table');
  await expect(table.getByRole('row', { name: /Vex Nightwhisper/ })).toContainText('40 gp 15 sp');
  await expect(table.getByRole('row', { name: /Brother Aldric/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Party total/ })).toContainText('40 gp 15 sp');
  await dismissToasts(gm);
  await expectAccessible(gm, 'table-party-overview');
  await screenshotBothWidths(gm, 'table-party-overview');

  // Item 9: the GM closes conjuring to players; the player's next gold is refused and nothing is written.
  await api(gm, 'PATCH', `/parties/${party.id}`, { party: { item_conjuring: 'gm_only' } });
  const gold = await findTemplate(player, 'Gold piece');
  const refused = await attempt(player, '/item_instances', {
    item_template_id: gold.id,
    container_id: vex.primary_container_id,
    quantity: 1000,
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error?.message).toBe('Only the GM can add items from the marketplace in this party.');
  const purse = await api<Stack[]>(
    player,
    'GET',
    `/containers/${vex.primary_container_id}/items?per_page=100`,
  );
  expect(purse.find((s) => s.name === 'Gold piece')?.quantity).toBe(40);
  // The marketplace says so where the player would choose the destination.
  await player.goto('/marketplace');
  await player
    .getByRole('button', { name: /^Add to Container: / })
    .first()
    .tap();
  await expect(
    player.getByText('Only the GM can add items from the marketplace in this party.').first(),
  ).toBeVisible();
});
