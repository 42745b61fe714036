import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { checkPage, expectAccessible, expectDialogAccessible } from '../support/a11y';
import { type NewAccount, newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api, upgradeTo } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { picture } from '../support/screenshots';
import { dismissToasts } from '../support/toasts';

interface Character {
  id: string;
  primary_container_id: string;
}
interface Stack {
  id: string;
  name: string;
  quantity: number;
}
interface LedgerEntry {
  transaction_type: string;
  quantity: number | null;
  amount: number | null;
  transactable_data: { name: string | null };
}

const GENERAL_STORE = 'The Wayfarer’s General Store';

/** A person on their own device: a browser context of their own, signed up. */
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

const stockRow = (page: Page, name: string): Locator =>
  page.locator(`[data-testid="shop-stock-item"][data-item-name="${name}"]`);

test('a GM deploys the General Store; a player on a phone buys and sells with change; the GM sees the stock live', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const gm = await person(browser, 'gm', 'desktop');
  const player = await person(browser, 'rogue', 'phone');

  // The GM's plan deploys shops; the player joins with a character carrying 10 gp and a dagger.
  await upgradeTo(gm.page, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gm.page, 'POST', '/parties', {
    party: { name: 'The Copper Road' },
  });
  await api(player.page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const character = await api<Character>(player.page, 'POST', '/characters', {
    character: { name: 'Vex Nightwhisper', party_id: party.id, max_weight: 200, max_slots: 40 },
  });
  await addItem(player.page, character.primary_container_id, 'Gold piece', 10);
  await addItem(player.page, character.primary_container_id, 'Dagger', 1);
  // The GM keeps an abacus in the party stash, to put on the shelf later.
  // Every new party comes with its Party Stash.
  const [stash] = await api<{ id: string; name: string }[]>(
    gm.page,
    'GET',
    `/parties/${party.id}/containers`,
  );
  if (stash?.name !== 'Party Stash') throw new Error('a new party has its Party Stash');
  await addItem(gm.page, stash.id, 'Abacus', 1);

  // Before anything is deployed: the party's Shops tab and the instances page say so.
  await gm.page.goto(`/parties/${party.id}`);
  await gm.page.getByRole('tab', { name: 'Shops' }).click();
  await expect(gm.page.getByRole('heading', { name: 'Party Shops (0)' })).toBeVisible();
  await expect(
    gm.page.getByText('No active shops in your party yet. Deploy a shop template to get started.'),
  ).toBeVisible();
  await expect(gm.page.getByRole('link', { name: 'Deploy Shop Template' })).toBeVisible();
  await checkPage(gm.page, 'shops-party-tab-empty');
  await gm.page.goto('/shops/instances');
  await expect(
    gm.page.getByText('No shop instances found. Deploy shop templates from the marketplace to get started.'),
  ).toBeVisible();
  await checkPage(gm.page, 'shops-instances-empty');

  // The GM browses the shops and deploys the seeded General Store with 10% off.
  await gm.page.goto('/shops');
  await expect(gm.page.getByRole('heading', { level: 1, name: 'Shops' })).toBeVisible();
  const card = gm.page
    .getByTestId('shop-card')
    .filter({ has: gm.page.getByRole('heading', { name: GENERAL_STORE }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('General Store', { exact: true })).toBeVisible();
  await expect(card.getByText('Restock: Every 7 days')).toBeVisible();
  await checkPage(gm.page, 'shops-browse');
  await card.getByRole('button', { name: `Deploy ${GENERAL_STORE}` }).click();
  const deploy = gm.page.getByRole('dialog', { name: `Deploy ${GENERAL_STORE}` });
  await expect(deploy.getByRole('combobox', { name: 'Party' })).toHaveValue('The Copper Road');
  await deploy.getByRole('textbox', { name: 'Discount (%)' }).fill('10');
  await expectDialogAccessible(gm.page, deploy, 'shops-deploy-dialog');
  await deploy.getByRole('button', { name: 'Deploy Shop' }).click();
  await expect(gm.page.getByTestId('toast-success')).toContainText(
    `Shop "${GENERAL_STORE}" deployed successfully!`,
  );
  await expect(gm.page).toHaveURL(/\/shops\/instances\/[^/]+$/);
  const shopUrl = new URL(gm.page.url()).pathname;
  await expect(gm.page.getByRole('heading', { level: 1, name: GENERAL_STORE })).toBeVisible();
  await expect(gm.page.getByText('10% OFF')).toBeVisible();
  await expect(stockRow(gm.page, 'Backpack').getByTestId('stock-quantity')).toHaveText('10 in stock');
  await expect(stockRow(gm.page, 'Arrow').getByTestId('stock-quantity')).toHaveText('200 in stock');
  await expect(stockRow(gm.page, 'Dagger').getByTestId('stock-quantity')).toHaveText('10 in stock');
  await expect(gm.page.getByText('Real-time updates active')).toBeVisible();

  // The player opens the shop on a phone: their coins, then a backpack in two taps (2 gp less 10%).
  await player.page.goto(shopUrl);
  await expect(player.page.getByRole('heading', { level: 1, name: GENERAL_STORE })).toBeVisible();
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 10 gp');
  await checkPage(player.page, 'shops-instance-player', { bothWidths: false });
  await picture(player.page, 'shops-instance-player-375.png', { fullPage: true });
  await stockRow(player.page, 'Backpack').getByRole('button', { name: 'Buy Backpack' }).tap();
  const buyBackpack = player.page.getByRole('dialog', { name: 'Buy Backpack' });
  await expect(buyBackpack.getByTestId('trade-change')).toHaveText('You hand over 2 gp and get 2 sp back.');
  await expectDialogAccessible(player.page, buyBackpack, 'shops-buy-dialog');
  await buyBackpack.getByRole('button', { name: 'Buy for 1 gp 8 sp' }).tap();
  await expect(player.page.getByTestId('toast-success')).toContainText(
    'Purchase complete: 1 × Backpack for 1 gp 8 sp. Paid 2 gp, change 2 sp.',
  );
  await expect(buyBackpack).toBeHidden();
  // On the phone the toast opens below the header, not over the menu and the account button.
  const headerBottom = await player.page
    .locator('header.mantine-AppShell-header')
    .evaluate((header) => header.getBoundingClientRect().bottom);
  expect((await player.page.getByTestId('toast-success').boundingBox())?.y ?? 0).toBeGreaterThanOrEqual(
    headerBottom,
  );
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 8 gp 2 sp');

  // The GM's open screen follows without a reload.
  await expect(stockRow(gm.page, 'Backpack').getByTestId('stock-quantity')).toHaveText('9 in stock');

  // Twenty arrows: 5 cp each (4.5 after the discount, rounded to the nearest copper), paid with a gold piece.
  await stockRow(player.page, 'Arrow').getByRole('button', { name: 'Buy Arrow' }).tap();
  const buyArrows = player.page.getByRole('dialog', { name: 'Buy Arrow' });
  await buyArrows.getByRole('textbox', { name: /Quantity/ }).fill('20');
  await buyArrows.getByRole('button', { name: 'Buy for 1 gp' }).tap();
  await expect(player.page.getByTestId('toast-success').last()).toContainText(
    'Purchase complete: 20 × Arrow for 1 gp. Paid 1 gp.',
  );
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 7 gp 2 sp');
  await expect(stockRow(gm.page, 'Arrow').getByTestId('stock-quantity')).toHaveText('180 in stock');

  // The dagger goes back to the shop at half its 2 gp value.
  await player.page.getByRole('tab', { name: 'Sell' }).tap();
  const dagger = player.page.locator('[data-testid="sell-item"][data-item-name="Dagger"]');
  await dagger.getByRole('button', { name: 'Sell Dagger' }).tap();
  const sellDagger = player.page.getByRole('dialog', { name: 'Sell Dagger' });
  await sellDagger.getByRole('button', { name: 'Sell for 1 gp' }).tap();
  await expect(player.page.getByTestId('toast-success').last()).toContainText(
    'Sale complete: 1 × Dagger for 1 gp.',
  );
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 8 gp 2 sp');
  await expect(stockRow(gm.page, 'Dagger').getByTestId('stock-quantity')).toHaveText('11 in stock');
  await expect(dagger).toBeHidden();

  // The GM prices the daggers at 3 gp by keyboard, without stocking one; players pay 2 gp 7 sp after the
  // discount, and the player's open shop follows without a reload.
  const setDaggerPrice = stockRow(gm.page, 'Dagger').getByRole('button', { name: 'Set price of Dagger' });
  await setDaggerPrice.focus();
  await gm.page.keyboard.press('Enter');
  const priceDialog = gm.page.getByRole('dialog', { name: 'Set price: Dagger' });
  await expect(priceDialog.getByRole('textbox', { name: /Own price/ })).toBeFocused();
  await gm.page.keyboard.type('3');
  await expectDialogAccessible(gm.page, priceDialog, 'shops-set-price-dialog');
  await gm.page.keyboard.press('Enter');
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Price saved');
  await expect(priceDialog).toBeHidden();
  await expect(setDaggerPrice).toBeFocused();
  await player.page.getByRole('tab', { name: 'Buy' }).tap();
  await expect(stockRow(player.page, 'Dagger').getByTestId('stock-price')).toHaveText('2 gp 7 sp');
  await player.page.getByRole('tab', { name: 'Sell' }).tap();
  await checkPage(player.page, 'shops-instance-player-sell', { bothWidths: false });
  await picture(player.page, 'shops-instance-player-sell-375.png', { fullPage: true });

  // What the player carries now, and the ledger: each purchase and sale with its coin movements (2 gp paid
  // and 2 sp back for the backpack, 1 gp for the arrows, 1 gp received for the dagger).
  const carried = await api<Stack[]>(
    player.page,
    'GET',
    `/containers/${character.primary_container_id}/items?per_page=100`,
  );
  const byName = Object.fromEntries(
    carried.map((s) => [
      s.name,
      carried.filter((c) => c.name === s.name).reduce((n, c) => n + c.quantity, 0),
    ]),
  );
  expect(byName).toEqual({ Backpack: 1, Arrow: 20, 'Gold piece': 8, 'Silver piece': 2 });
  const purchases = await api<{ transactions: LedgerEntry[] }>(
    player.page,
    'GET',
    `/transactions/character/${character.id}?per_page=100&transaction_type=purchase`,
  );
  expect(purchases.transactions.map((t) => `${t.transactable_data.name} ×${t.quantity}`).sort()).toEqual([
    'Arrow ×20',
    'Backpack ×1',
    'Gold piece ×1',
    'Gold piece ×2',
    'Silver piece ×2',
  ]);
  const sales = await api<{ transactions: LedgerEntry[] }>(
    player.page,
    'GET',
    `/transactions/character/${character.id}?per_page=100&transaction_type=sale`,
  );
  expect(sales.transactions.map((t) => `${t.transactable_data.name} ×${t.quantity}`).sort()).toEqual([
    'Dagger ×1',
    'Gold piece ×1',
  ]);

  // The player's workspace: the Shop tab offers the party's shop as a source.
  await player.page.goto(`/containers/${character.primary_container_id}`);
  const panel = player.page.getByTestId('panel-left');
  await panel.getByRole('tab', { name: 'Shop' }).tap();
  await expect(panel.getByRole('combobox', { name: 'Shop' })).toHaveValue(
    /^The Wayfarer’s General Store · Open/,
  );
  await expect(stockRow(player.page, 'Backpack')).toBeVisible();
  await expect(panel.getByTestId('my-coins')).toHaveText('Your coins: 8 gp 2 sp');
  await checkPage(player.page, 'shops-workspace-tab');
  // Selling from the workspace on a phone, where there is no second panel to drag to: Sell, then an arrow.
  await panel.getByTestId('workspace-shop-side').getByText('Sell').tap();
  const arrowToSell = panel.locator('[data-testid="sell-item"][data-item-name="Arrow"]');
  await arrowToSell.getByRole('button', { name: 'Sell Arrow' }).tap();
  const sellArrow = player.page.getByRole('dialog', { name: 'Sell Arrow' });
  await sellArrow.getByRole('button', { name: /^Sell for / }).tap();
  await expect(player.page.getByTestId('toast-success').last()).toContainText(
    'Sale complete: 1 × Arrow for 2 cp.',
  );
  await expect(stockRow(gm.page, 'Arrow').getByTestId('stock-quantity')).toHaveText('181 in stock');
  await checkPage(player.page, 'shops-workspace-sell');

  // The GM's screens: the running shop (with Manage), the party tab, the instances, the template pages.
  await gm.page.getByRole('tab', { name: 'Manage' }).click();
  await expect(gm.page.getByRole('switch', { name: /Open: players can buy and sell/ })).toBeChecked();
  await checkPage(gm.page, 'shops-instance-gm-manage');
  // The GM puts the stash's abacus on the shelf at 5 gp of its own (4 gp 5 sp after the 10% off).
  await expect(gm.page.getByRole('combobox', { name: 'From' })).toHaveValue('Party Stash (The Copper Road)');
  await gm.page.getByRole('combobox', { name: 'Item', exact: true }).click();
  await gm.page.getByRole('option', { name: 'Abacus ×1' }).click();
  await gm.page.getByRole('textbox', { name: 'Own price (gp)' }).fill('5');
  await gm.page.getByRole('button', { name: 'Put on the Shelf' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Stock updated successfully!');
  await gm.page.getByRole('tab', { name: 'Buy' }).click();
  await expect(stockRow(gm.page, 'Abacus').getByTestId('stock-price')).toHaveText('4 gp 5 sp');
  await expect(stockRow(gm.page, 'Abacus').getByText('Shop price')).toBeVisible();

  // Shopping while the GM is away: above 1 gp a purchase waits for approval, with the goods held.
  await gm.page.getByRole('tab', { name: 'Manage' }).click();
  await gm.page.getByRole('switch', { name: /pay from the party fund/ }).check();
  await gm.page.getByRole('textbox', { name: /Ask me to approve purchases above/ }).fill('1');
  await gm.page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Shop updated successfully!');
  await gm.page.getByRole('tab', { name: /Requests/ }).click();
  await expect(gm.page.getByTestId('requests-empty')).toBeVisible();

  await player.page.goto(shopUrl);
  // 8 gp 2 sp, and 2 cp for the arrow sold from the workspace.
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 8 gp 2 sp 2 cp');
  await stockRow(player.page, 'Backpack').getByRole('button', { name: 'Buy Backpack' }).tap();
  const askBackpack = player.page.getByRole('dialog', { name: 'Buy Backpack' });
  // Backpacks do not stack: two of the shelf's nine, each a stack of its own, in one purchase.
  await expect(askBackpack).toContainText(`${GENERAL_STORE} has 9 in stock.`);
  await askBackpack.getByRole('textbox', { name: /Quantity/ }).fill('2');
  await expect(askBackpack.getByTestId('trade-needs-approval')).toContainText('waits for the GM');
  await expect(askBackpack.getByTestId('trade-payment-source')).toBeVisible();
  await askBackpack.getByRole('button', { name: 'Ask to buy for 3 gp 6 sp' }).tap();
  await expect(player.page.getByTestId('toast-info').last()).toContainText(
    'Your purchase is waiting for the GM’s approval. 2 × Backpack.',
  );
  // Nothing paid yet; the backpacks are held off the shelf, on both screens.
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 8 gp 2 sp 2 cp');
  await expect(stockRow(player.page, 'Backpack').getByTestId('stock-quantity')).toHaveText('7 in stock');

  // The GM's Requests tab shows it live; approving takes the coins.
  const waiting = gm.page.getByTestId('shop-request');
  await expect(waiting).toContainText('2 × Backpack');
  await checkPage(gm.page, 'shops-instance-gm-requests');
  await waiting.getByRole('button', { name: /^Approve 2 × Backpack/ }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Purchase approved: 2 × Backpack');
  await expect(gm.page.getByTestId('requests-empty')).toBeVisible();
  // 3 gp 6 sp, paid with 4 gp and 4 sp back, on the player's open screen, which says who let it through.
  await expect(player.page.getByTestId('my-coins')).toHaveText('Your coins: 4 gp 6 sp 2 cp');
  await expect(
    player.page.getByText(`${gm.account.username} approved your purchase of 2 × Backpack`),
  ).toBeVisible();
  await expect(gm.page.getByTestId('decided-request').first()).toContainText('Approved by');
  await gm.page.getByRole('tab', { name: 'Sales log' }).click();
  await expect(gm.page.getByTestId('shop-sale').first()).toBeVisible();
  await expect(gm.page.getByTestId('shop-sales')).toContainText('Backpack');
  await expect(gm.page.getByTestId('shop-sales')).toContainText('Dagger');
  await checkPage(gm.page, 'shops-instance-gm-sales');
  await gm.page.goto(`/parties/${party.id}`);
  await gm.page.getByRole('tab', { name: 'Shops' }).click();
  await expect(gm.page.getByRole('heading', { name: 'Party Shops (1)' })).toBeVisible();
  await expect(gm.page.getByRole('link', { name: `Enter Shop ${GENERAL_STORE}` })).toBeVisible();
  await checkPage(gm.page, 'shops-party-tab');
  await gm.page.goto('/shops/instances');
  await expect(gm.page.getByTestId('summary-active')).toHaveText('1');
  await checkPage(gm.page, 'shops-instances');
  await gm.page.goto('/shops');
  await gm.page
    .getByTestId('shop-card')
    .filter({ has: gm.page.getByRole('heading', { name: GENERAL_STORE }) })
    .getByRole('link', { name: `View Template ${GENERAL_STORE}` })
    .click();
  await expect(gm.page.getByRole('heading', { level: 1, name: GENERAL_STORE })).toBeVisible();
  await expect(gm.page.getByTestId('template-items')).toContainText('Backpack');
  await checkPage(gm.page, 'shops-template-detail');

  // The GM rates the catalogue shop, then clones it to make their own.
  await gm.page.getByRole('button', { name: 'Rate 4 out of 5' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Thanks for rating this shop');
  await expect(gm.page.getByTestId('rating-summary')).toContainText('4.0 · 1 review');
  await expect(gm.page.getByRole('button', { name: 'Rate 4 out of 5' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await gm.page.getByRole('button', { name: 'Clone' }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText('Shop template cloned');
  await expect(gm.page.getByRole('link', { name: 'Manage Inventory' })).toBeVisible();
  const copyPath = new URL(gm.page.url()).pathname;
  await gm.page.goto(`${copyPath}/edit`);
  await expect(gm.page.getByRole('textbox', { name: 'Shop name' })).toBeVisible();
  await checkPage(gm.page, 'shops-template-edit');
  await gm.page.goto(`${copyPath}/inventory`);
  await expect(gm.page.getByTestId('shop-items').getByTestId('shop-item-row').first()).toBeVisible();
  await checkPage(gm.page, 'shops-template-inventory');
  await gm.page.goto('/shops/templates');
  await expect(gm.page.getByRole('heading', { level: 1, name: 'My Shop Templates' })).toBeVisible();
  await expect(gm.page.getByTestId('shop-card')).toHaveCount(1);
  await checkPage(gm.page, 'shops-my-templates');
  await gm.page.goto('/shops/new');
  await expect(gm.page.getByRole('heading', { level: 1, name: 'New Shop' })).toBeVisible();
  await checkPage(gm.page, 'shops-new');

  // The dark theme: the browse grid and the running shop keep their contrast.
  const toggle = gm.page.getByTestId('theme-toggle');
  if ((await toggle.getAttribute('aria-label')) === 'Switch to dark theme') await toggle.click();
  await gm.page.mouse.move(0, 0);
  await expect(gm.page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await gm.page.goto('/shops');
  await expect(gm.page.getByTestId('shop-card').first()).toBeVisible();
  await checkPage(gm.page, 'shops-browse-dark');
  await gm.page.goto(shopUrl);
  await expect(stockRow(gm.page, 'Backpack')).toBeVisible();
  await checkPage(gm.page, 'shops-instance-dark');

  // The GM takes 15 candles back off the shelf into the party stash.
  await expect(stockRow(gm.page, 'Candle').getByTestId('stock-quantity')).toHaveText('30 in stock');
  await gm.page.getByRole('tab', { name: 'Manage' }).click();
  await gm.page.getByRole('combobox', { name: 'Item on the shelf' }).click();
  // Candles sit on the shelf in stacks of ten: the list shows them as the shop page does, one line of 30,
  // and takes more than a stack from the line.
  await gm.page.getByRole('option', { name: 'Candle ×30 · 1 cp each' }).click();
  await gm.page.getByRole('button', { name: 'Take Back…' }).click();
  const takeBack = gm.page.getByRole('dialog', { name: 'Take stock back' });
  await expect(takeBack.getByRole('combobox', { name: 'Put it in' })).toHaveValue(
    'Party Stash (The Copper Road)',
  );
  await takeBack.getByRole('textbox', { name: 'Quantity' }).fill('15');
  await expectDialogAccessible(gm.page, takeBack, 'shops-take-back-dialog');
  await takeBack.getByRole('button', { name: 'Take Back', exact: true }).click();
  await expect(gm.page.getByTestId('toast-success').last()).toContainText(
    'Taken back from the shop: 15 × Candle',
  );
  await gm.page.getByRole('tab', { name: 'Buy' }).click();
  await expect(stockRow(gm.page, 'Candle').getByTestId('stock-quantity')).toHaveText('15 in stock');
  const inStash = await api<Stack[]>(gm.page, 'GET', `/containers/${stash.id}/items`);
  expect(inStash.filter((s) => s.name === 'Candle').reduce((sum, s) => sum + s.quantity, 0)).toBe(15);
});

test('a player on the free plan is told up front that the plan does not deploy shops, with the upgrade', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const gm = await person(browser, 'freegm', 'desktop');
  await api(gm.page, 'POST', '/parties', { party: { name: 'The Thin Purse' } });
  await gm.page.goto('/shops');
  const card = gm.page
    .getByTestId('shop-card')
    .filter({ has: gm.page.getByRole('heading', { name: GENERAL_STORE }) });
  await card.getByRole('button', { name: `Deploy ${GENERAL_STORE}` }).click();
  const deploy = gm.page.getByRole('dialog', { name: `Deploy ${GENERAL_STORE}` });
  await expect(deploy.getByRole('combobox', { name: 'Party' })).toHaveValue('The Thin Purse');
  // Said as soon as the party is chosen, before anything is filled in: Deploy Shop could only be refused.
  const prompt = deploy.getByTestId('upgrade-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Shop deployment is not included in your plan');
  await expect(deploy.getByRole('button', { name: 'Deploy Shop' })).toBeDisabled();
  await expect(prompt.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
    'href',
    /\/subscription\/(upgrade\?feature=shops_deployment|compare)/,
  );
  await expectDialogAccessible(gm.page, deploy, 'shops-deploy-upgrade');
});

test('at a desktop, a player drags from the shop into their pack to buy and onto the shop to sell (keyboard)', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const gm = await person(browser, 'dmgm', 'desktop');
  const player = await person(browser, 'ranger', 'desktop');
  await upgradeTo(gm.page, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gm.page, 'POST', '/parties', {
    party: { name: 'The Long Table' },
  });
  const templates = await api<{ id: string; name: string }[]>(
    gm.page,
    'GET',
    `/shop_templates?search=${encodeURIComponent('Wayfarer')}`,
  );
  const store = templates.find((t) => t.name === GENERAL_STORE);
  if (!store) throw new Error('the General Store is not seeded');
  await api(gm.page, 'POST', '/shop_instances', {
    shop_instance: { shop_template_id: store.id, party_id: party.id },
  });
  await api(player.page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const character = await api<Character>(player.page, 'POST', '/characters', {
    character: { name: 'Orin Vale', party_id: party.id, max_weight: 200, max_slots: 40 },
  });
  await addItem(player.page, character.primary_container_id, 'Gold piece', 10);
  await addItem(player.page, character.primary_container_id, 'Dagger', 1);

  const page = player.page;
  await page.goto(`/containers/${character.primary_container_id}`);
  await expectInventoryOf(page, 'Orin Vale');
  await page.getByText('Dual', { exact: true }).click();
  const left = page.getByTestId('panel-left');
  const right = page.getByTestId('panel-right');
  await right.getByRole('tab', { name: 'Shops' }).click();
  await expect(right.getByRole('combobox', { name: 'Shop' })).toHaveValue(
    /^The Wayfarer’s General Store · Open/,
  );
  await expect(right.getByTestId('my-coins')).toHaveText('Your coins: 10 gp');

  // Space picks the backpack up from the shelf, Left jumps to my pack, Space drops it: the price first.
  const backpack = right.getByRole('button', { name: 'Backpack, 10 in stock, drag to buy' });
  await backpack.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowLeft');
  await expect(left).toHaveAttribute('data-drop-over', 'true');
  await page.keyboard.press('Space');
  const buy = page.getByRole('dialog', { name: 'Buy Backpack' });
  await expect(buy.getByTestId('trade-total')).toHaveText('2 gp');
  await buy.getByRole('button', { name: 'Buy for 2 gp' }).click();
  await expect(page.getByTestId('toast-success').last()).toContainText(
    'Purchase complete: 1 × Backpack for 2 gp.',
  );
  await expect(left.getByRole('button', { name: 'Backpack, quantity 1' })).toBeVisible();
  await expect(right.getByTestId('my-coins')).toHaveText('Your coins: 8 gp');

  // My dagger dropped on the shop: sold at half its value.
  await left.getByRole('button', { name: 'Dagger, quantity 1' }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(right).toHaveAttribute('data-drop-over', 'true');
  await page.keyboard.press('Space');
  const sellDialog = page.getByRole('dialog', { name: 'Sell Dagger' });
  await sellDialog.getByRole('button', { name: 'Sell for 1 gp' }).click();
  await expect(page.getByTestId('toast-success').last()).toContainText('Sale complete: 1 × Dagger for 1 gp.');
  await expect(left.getByRole('button', { name: 'Dagger, quantity 1' })).toBeHidden();
  await expect(right.getByTestId('my-coins')).toHaveText('Your coins: 9 gp');
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page, 'shops-workspace-dual');
  await picture(page, 'shops-workspace-dual-1280.png', { fullPage: true });
});
