import { type Browser, expect, type Page, test } from '@playwright/test';
import { checkPage, expectDialogAccessible } from '../support/a11y';
import { type NewAccount, newAccount, signUpThroughApi } from '../support/accounts';
import { api, upgradeTo } from '../support/api';
import { picture } from '../support/screenshots';

interface Character {
  id: string;
  name: string;
  primary_container_id: string;
}
interface Stack {
  name: string;
  quantity: number;
  value_cp: number;
  item_template: { coin: 'cp' | 'sp' | 'ep' | 'gp' | 'pp' | null };
}
interface LedgerEntry {
  transaction_type: string;
  quantity: number | null;
  transactable_data: { name: string | null };
}

const CHEST = 'Sunken Chest';
const copperPer = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 } as const;
/** The seeded Sunken Chest: 150 gp, 400 sp, 30 ep, a spyglass, two potions of healing and a lock. */
const CHEST_COINS_CP = 150 * 100 + 400 * 10 + 30 * 50;

async function person(
  browser: Browser,
  prefix: string,
  device: 'desktop' | 'phone',
): Promise<{ page: Page; account: NewAccount }> {
  const context = await browser.newContext(
    device === 'phone'
      ? { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const page = await context.newPage();
  const account = newAccount(prefix);
  await signUpThroughApi(page, account);
  return { page, account };
}

async function carried(page: Page, character: Character): Promise<Stack[]> {
  return api<Stack[]>(page, 'GET', `/containers/${character.primary_container_id}/items?per_page=100`);
}

const coinValue = (stacks: Stack[]) =>
  stacks.reduce(
    (sum, s) => sum + (s.item_template.coin ? copperPer[s.item_template.coin] * s.quantity : 0),
    0,
  );
const goods = (stacks: Stack[]) =>
  Object.fromEntries(stacks.filter((s) => !s.item_template.coin).map((s) => [s.name, s.quantity]));

test('a GM deploys a hoard hidden, reveals it live, a phone player takes a potion, and the GM shares the rest evenly', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const gm = await person(browser, 'lootgm', 'desktop');
  const player = await person(browser, 'looter', 'phone');

  // The GM's plan has loot; the player joins with one character and the GM plays two more.
  await upgradeTo(gm.page, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gm.page, 'POST', '/parties', {
    party: { name: 'The Drowned Coast' },
  });
  await api(player.page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const vex = await api<Character>(player.page, 'POST', '/characters', {
    character: { name: 'Vex Nightwhisper', party_id: party.id, max_weight: 300, max_slots: 40 },
  });
  const aldric = await api<Character>(gm.page, 'POST', '/characters', {
    character: { name: 'Brother Aldric', party_id: party.id, max_weight: 300, max_slots: 40 },
  });
  const mira = await api<Character>(gm.page, 'POST', '/characters', {
    character: { name: 'Mira Swiftfoot', party_id: party.id, max_weight: 300, max_slots: 40 },
  });

  // The player keeps the party's Loot tab open on a phone: nothing there yet.
  await player.page.goto(`/parties/${party.id}`);
  await player.page.getByRole('tab', { name: 'Loot' }).tap();
  await expect(player.page.getByRole('heading', { name: 'Party Loot' })).toBeVisible();
  await expect(player.page.getByText('No loot instances in this party yet')).toBeVisible();
  await expect(player.page.getByRole('link', { name: 'Deploy Loot Template' })).toHaveCount(0);

  // The GM starts from the party's empty Loot tab and browses the catalogue for this party.
  await gm.page.goto(`/parties/${party.id}?tab=loot`);
  await expect(gm.page.getByText('No loot instances in this party yet')).toBeVisible();
  await checkPage(gm.page, 'loot-party-tab-empty');
  await gm.page.getByRole('link', { name: 'Deploy Loot Template' }).click();
  await expect(gm.page).toHaveURL(/\/loot\/templates\?party_id=/);
  await expect(gm.page.getByText('Choose a template to deploy to The Drowned Coast')).toBeVisible();
  const card = gm.page
    .getByTestId('loot-template-card')
    .filter({ has: gm.page.getByRole('heading', { name: CHEST }) });
  await expect(card).toBeVisible();
  await checkPage(gm.page, 'loot-templates');
  await card.getByRole('link', { name: `View ${CHEST}` }).click();
  await expect(gm.page.getByRole('heading', { level: 1, name: CHEST })).toBeVisible();
  await checkPage(gm.page, 'loot-template-detail');

  await gm.page.getByRole('button', { name: 'Deploy to Party' }).click();
  const deploy = gm.page.getByRole('dialog', { name: `Deploy ${CHEST}` });
  await expect(deploy.getByRole('combobox', { name: 'Party' })).toHaveValue('The Drowned Coast');
  await deploy.getByRole('textbox', { name: 'Location' }).fill('The drowned chapel');
  await expectDialogAccessible(gm.page, deploy, 'loot-deploy-dialog');
  await deploy.getByRole('button', { name: 'Deploy Loot' }).click();
  await expect(gm.page.getByTestId('toast-success')).toContainText('Loot deployed to party');
  const deployedAt = Date.now();
  await expect(gm.page).toHaveURL(new RegExp(`/parties/${party.id}\\?tab=loot`));
  const gmCard = gm.page.getByTestId('loot-card').filter({ hasText: CHEST });
  await expect(gmCard.getByTestId('loot-hidden-badge')).toHaveText('Hidden');
  await expect(gmCard.getByText('The drowned chapel')).toBeVisible();
  await checkPage(gm.page, 'loot-party-tab-gm');

  // Hidden loot never reaches the player: not on the open tab, not through the API. The tab has had 1.5 s
  // since the deploy to show it (most of it spent on the GM's page checks above).
  await player.page.waitForTimeout(Math.max(0, 1_500 - (Date.now() - deployedAt)));
  await expect(player.page.getByText('No loot instances in this party yet')).toBeVisible();
  expect(await api<unknown[]>(player.page, 'GET', `/parties/${party.id}/loot_instances`)).toEqual([]);

  // The GM reveals it at the table; the player's open tab shows it without a reload.
  await gmCard.getByRole('button', { name: 'Reveal' }).click();
  await expect(gm.page.getByTestId('toast-success')).toContainText('Loot revealed to party');
  const playerCard = player.page.getByTestId('loot-card').filter({ hasText: CHEST });
  await expect(playerCard).toBeVisible({ timeout: 15_000 });
  await expect(playerCard.getByTestId('loot-hidden-badge')).toHaveCount(0);
  await checkPage(player.page, 'loot-party-tab-player', { bothWidths: false });
  await picture(player.page, 'loot-party-tab-player-375.png');

  // On the phone the player takes one of the two potions into their pack.
  await playerCard.getByRole('link', { name: `View Loot Contents: ${CHEST}` }).tap();
  await expect(player.page.getByRole('heading', { level: 1, name: CHEST })).toBeVisible();
  await checkPage(player.page, 'loot-instance-player', { bothWidths: false });
  await picture(player.page, 'loot-instance-player-375.png', { fullPage: true });
  await player.page.getByRole('button', { name: 'Take Potion of Healing' }).tap();
  const take = player.page.getByRole('dialog', { name: 'Take Potion of Healing' });
  await take.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await expectDialogAccessible(player.page, take, 'loot-take-dialog');
  await take.getByRole('button', { name: 'Take 1' }).tap();
  await expect(player.page.getByTestId('toast-success')).toContainText('Item taken successfully');
  await expect(take).toBeHidden();
  expect(goods(await carried(player.page, vex))).toEqual({ 'Potion of Healing': 1 });

  // The player's workspace offers the loot as a source on the Loot tab.
  await player.page.goto(`/containers/${vex.primary_container_id}`);
  const panel = player.page.getByTestId('panel-left');
  await panel.getByRole('tab', { name: 'Loot' }).tap();
  await expect(panel.getByRole('combobox', { name: 'Loot' })).toHaveValue(new RegExp(`^${CHEST}`));
  await expect(panel.getByText('Spyglass')).toBeVisible();
  await checkPage(player.page, 'loot-workspace-tab');

  // The GM shares the rest evenly among the three characters, after a preview.
  await gm.page.goto(`/loot/instances/${await lootIdOf(gm.page, party.id)}`);
  await expect(gm.page.getByRole('heading', { level: 1, name: CHEST })).toBeVisible();
  await checkPage(gm.page, 'loot-instance-gm');
  await gm.page.getByRole('button', { name: 'Distribute' }).click();
  const share = gm.page.getByRole('dialog', { name: `Distribute ${CHEST}` });
  for (const name of [vex.name, aldric.name, mira.name]) {
    await expect(share.getByRole('checkbox', { name })).toBeChecked();
  }
  await share.getByRole('radio', { name: /Even split/ }).check();
  await share.getByRole('button', { name: 'Preview' }).click();
  await expect(share.getByTestId('distribution-recipient')).toHaveCount(3);
  await expectDialogAccessible(gm.page, share, 'loot-distribute-preview');
  await share.getByRole('button', { name: 'Confirm distribution' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Loot distributed successfully');

  // Every copper and item is accounted for, goods dealt once each; the coins even out the value shared
  // (the spyglass alone is worth more than all the coins, so whoever got it gets none).
  const holdings = await Promise.all(
    [vex, aldric, mira].map(async (c) => carried(c === vex ? player.page : gm.page, c)),
  );
  const coins = holdings.map(coinValue);
  expect(coins.reduce((a, b) => a + b, 0)).toBe(CHEST_COINS_CP);
  const shared = holdings.map(
    (stacks, index) =>
      stacks.reduce((sum, s) => sum + s.value_cp * s.quantity, 0) -
      // Vex's own potion was a take before the distribution.
      (index === 0 ? (stacks.find((s) => s.name === 'Potion of Healing')?.value_cp ?? 0) : 0),
  );
  const withCoins = shared.filter((_, index) => (coins[index] ?? 0) > 0);
  expect(withCoins).toHaveLength(2);
  expect(Math.max(...withCoins) - Math.min(...withCoins)).toBeLessThanOrEqual(1);
  expect(Math.min(...shared)).toBe(Math.min(...withCoins));
  expect(goods(holdings[coins.indexOf(0)] ?? [])).toMatchObject({ Spyglass: 1 });
  const dealt: Record<string, number> = {};
  for (const stacks of holdings) {
    for (const [name, quantity] of Object.entries(goods(stacks))) dealt[name] = (dealt[name] ?? 0) + quantity;
  }
  expect(dealt).toEqual({ 'Potion of Healing': 2, Spyglass: 1, Lock: 1 });

  // The ledger agrees with each inventory: one loot row for the take, loot_distribution rows for the rest.
  for (const [index, character] of [vex, aldric, mira].entries()) {
    const page = character === vex ? player.page : gm.page;
    const rows = await api<{ transactions: LedgerEntry[] }>(
      page,
      'GET',
      `/transactions/character/${character.id}?per_page=100`,
    );
    const received: Record<string, number> = {};
    for (const row of rows.transactions) {
      if (!['loot', 'loot_distribution'].includes(row.transaction_type)) continue;
      const name = row.transactable_data.name ?? '?';
      received[name] = (received[name] ?? 0) + (row.quantity ?? 0);
    }
    const held = Object.fromEntries(holdings[index]?.map((s) => [s.name, s.quantity]) ?? []);
    expect(received, `${character.name}'s ledger`).toEqual(held);
  }
  const loot = await api<{ distributed_at: string | null; container: { item_instances: unknown[] } }>(
    gm.page,
    'GET',
    `/loot_instances/${await lootIdOf(gm.page, party.id)}`,
  );
  expect(loot.distributed_at).not.toBeNull();
  expect(loot.container.item_instances).toEqual([]);
  await expect(gm.page.getByText(/Distributed/).first()).toBeVisible();
});

test('a GM writes a loot template and fills it with an item and coins', async ({ browser }) => {
  test.setTimeout(180_000);
  const gm = await person(browser, 'lootauthor', 'desktop');
  await upgradeTo(gm.page, 'tier_1');
  // `/loot` typed by hand lands where the sidebar's Loot link goes.
  await gm.page.goto('/loot');
  await expect(gm.page).toHaveURL(/\/loot\/templates$/);

  await gm.page.goto('/loot/templates/new');
  await expect(gm.page.getByRole('heading', { level: 1 })).toBeVisible();
  await gm.page.getByRole('button', { name: /Create/ }).click();
  await expect(gm.page.getByText('Loot name is required')).toBeVisible();
  await checkPage(gm.page, 'loot-template-new');
  await gm.page.getByRole('textbox', { name: /Name/ }).fill('Ogre’s Sack');
  await gm.page.getByRole('textbox', { name: /^Source$/ }).fill('Ogre');
  await gm.page.getByRole('button', { name: /Create/ }).click();
  await expect(gm.page.getByTestId('toast-success')).toContainText('Loot template created successfully');
  await expect(gm.page).toHaveURL(/\/loot\/templates\/[^/]+\/inventory$/);
  await checkPage(gm.page, 'loot-template-inventory-empty', { bothWidths: false });

  // A greataxe from the catalogue, and 250 gp.
  const item = gm.page.getByRole('combobox', { name: 'Item' });
  await item.fill('Greataxe');
  await gm.page.getByRole('option', { name: /^Greataxe/ }).click();
  await gm.page.getByRole('button', { name: 'Add Item' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Greataxe');
  await gm.page.getByRole('textbox', { name: 'Amount' }).fill('250');
  await gm.page.getByRole('button', { name: 'Add Coins' }).click();
  await expect(gm.page.getByText('250 gp', { exact: true })).toBeVisible();
  await expect(gm.page.getByRole('textbox', { name: 'Quantity of Greataxe' })).toHaveValue('1');
  await checkPage(gm.page, 'loot-template-inventory');

  // The template reads back with both lines; My Content counts it against the plan.
  const templates = await api<{ name: string; items_count: number; total_value_cp: number }[]>(
    gm.page,
    'GET',
    '/loot_templates?mine=true',
  );
  expect(templates).toEqual([
    expect.objectContaining({ name: 'Ogre’s Sack', items_count: 2, total_value_cp: 250 * 100 + 30 * 100 }),
  ]);
  await gm.page.goto('/my-content');
  const mine = gm.page.getByRole('region', { name: 'Loot templates' });
  await expect(mine.getByRole('link', { name: 'Ogre’s Sack' })).toBeVisible();
  await expect(mine.getByTestId('content-limit')).toHaveText('1 of 10');
});

/** The only loot of the party (these tests deploy one). */
async function lootIdOf(page: Page, partyId: string): Promise<string> {
  const list = await api<{ id: string }[]>(page, 'GET', `/parties/${partyId}/loot_instances`);
  const first = list[0];
  if (!first) throw new Error('the party has no loot');
  return first.id;
}
