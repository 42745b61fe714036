import { type Browser, expect, type Page, test } from '@playwright/test';
import { checkPage, expectAccessible } from '../support/a11y';
import { type NewAccount, newAccount, signUpThroughApi } from '../support/accounts';
import { api } from '../support/api';

async function signedUp(browser: Browser, prefix: string): Promise<{ page: Page; account: NewAccount }> {
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const account = newAccount(prefix);
  await signUpThroughApi(page, account);
  return { page, account };
}

test('a GM shares a party code, a player joins and brings a character, the GM re-roles the player; the free limit leads to an upgrade', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const partyName = `Copper Lanterns ${Date.now() % 10_000}`;

  // The GM creates a public party.
  const gm = await signedUp(browser, 'gm');
  await gm.page.goto('/parties');
  await expect(gm.page.getByText('No parties joined')).toBeVisible();
  await checkPage(gm.page, 'party-list-empty', { bothWidths: false });
  await gm.page.getByRole('link', { name: 'Create Party' }).click();
  await expect(gm.page).toHaveURL(/\/parties\/new$/);
  await gm.page.getByRole('textbox', { name: 'Party Name' }).fill('ab');
  await gm.page.getByRole('button', { name: 'Create Party' }).click();
  await expect(gm.page.getByText('Party name must be at least 3 characters')).toBeVisible();
  await gm.page.getByRole('textbox', { name: 'Party Name' }).fill(partyName);
  await gm.page.getByRole('textbox', { name: 'Description' }).fill('Lamplighters who walk the old roads.');
  await gm.page.getByRole('combobox', { name: 'Game System' }).click();
  await gm.page.getByRole('option', { name: 'D&D 5e' }).click();
  await gm.page.getByRole('textbox', { name: 'Setting' }).fill('Waterdeep');
  await gm.page.getByRole('switch', { name: /Public party/ }).check();
  await checkPage(gm.page, 'party-create');
  await gm.page.getByRole('button', { name: 'Create Party' }).click();
  await expect(gm.page).toHaveURL(/\/parties\/[0-9a-f-]{36}$/);
  const partyUrl = gm.page.url();
  await expect(gm.page.getByRole('heading', { level: 1, name: partyName })).toBeVisible();

  // Share dialog: read the code, copy a message.
  await gm.page.getByRole('button', { name: 'Share Join Code' }).first().click();
  const dialog = gm.page.getByRole('dialog', { name: 'Share Party Join Code' });
  await expect(dialog).toBeVisible();
  const joinCode = (await dialog.getByTestId('share-join-code').textContent())?.trim() ?? '';
  expect(joinCode).toMatch(/^[A-Z2-9]{6,8}$/);
  await expect(dialog.getByText('Friendly Message')).toBeVisible();
  await dialog.getByRole('button', { name: 'Copy Simple Code' }).click();
  await expect(dialog.getByRole('button', { name: 'Simple Code copied' })).toBeVisible();
  expect(await gm.page.evaluate(() => navigator.clipboard.readText())).toContain(joinCode);
  // Axe judges the button under the pointer by its hover colours; check the dialog at rest.
  await gm.page.mouse.move(0, 0);
  await expectAccessible(gm.page, 'share dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await checkPage(gm.page, 'party-detail-overview');

  // On a phone the party's tabs stay on one row: they scroll sideways instead of wrapping.
  await gm.page.setViewportSize({ width: 375, height: 812 });
  const tabTops = await gm.page
    .getByRole('tab')
    .evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)));
  expect(tabTops.length).toBeGreaterThan(5);
  expect(new Set(tabTops).size).toBe(1);
  await gm.page.setViewportSize({ width: 1280, height: 800 });

  await gm.page.goto('/parties');
  await expect(gm.page.getByTestId('party-card')).toHaveCount(1);
  await expect(gm.page.getByTestId('party-card').getByText('GM')).toBeVisible();
  await checkPage(gm.page, 'party-list');

  // A player discovers the party, previews it by code and joins as a player.
  const player = await signedUp(browser, 'player');
  await player.page.goto('/parties/discover');
  await player.page.getByRole('textbox', { name: 'Search public parties' }).fill(partyName);
  await expect(player.page.getByRole('link', { name: new RegExp(partyName) })).toBeVisible();
  await checkPage(player.page, 'party-discover');
  await player.page.getByRole('link', { name: 'Join with Code' }).click();
  await expect(player.page).toHaveURL(/\/parties\/join$/);
  // Pasted as a chat message may carry it: a leading space, a dash, lower case. The whole code must survive.
  const pastedCode = ` ${joinCode.slice(0, 4)}-${joinCode.slice(4)}`.toLowerCase();
  await player.page.getByRole('textbox', { name: 'Join Code' }).fill(pastedCode);
  await expect(player.page.getByRole('textbox', { name: 'Join Code' })).toHaveValue(joinCode);
  await expect(player.page.getByText('Join code format looks good')).toBeVisible();
  await expect(player.page.getByTestId('join-preview')).toContainText(partyName);
  await expect(player.page.getByRole('combobox', { name: 'Join as' })).toHaveValue('Player');
  await checkPage(player.page, 'party-join');
  await player.page.getByRole('button', { name: 'Join Party' }).click();

  // The welcome panel, then a character for the party from it.
  await expect(player.page).toHaveURL(/\/parties\/[0-9a-f-]{36}$/);
  await expect(player.page.getByTestId('welcome-panel')).toBeVisible();
  await expectAccessible(player.page, 'party welcome');
  await player.page.getByRole('link', { name: 'Create Your First Character' }).click();
  await expect(player.page).toHaveURL(/\/characters\/new\?party_id=/);
  await expect(player.page.getByRole('combobox', { name: 'Party' })).toHaveValue(partyName);
  await player.page.getByRole('textbox', { name: 'Name', exact: true }).fill('Aria Swiftwind');
  await player.page.getByRole('textbox', { name: 'Race' }).fill('Elf');
  await player.page.getByRole('textbox', { name: 'Class' }).fill('Ranger');
  await checkPage(player.page, 'character-create');
  await player.page.getByRole('button', { name: 'Create Character' }).click();
  await expect(player.page).toHaveURL(/\/characters\/[0-9a-f-]{36}$/);
  await expect(player.page.getByRole('heading', { level: 1, name: 'Aria Swiftwind' })).toBeVisible();
  await expect(player.page.getByRole('link', { name: partyName })).toBeVisible();
  await checkPage(player.page, 'character-detail');

  await player.page.goto('/characters');
  await expect(player.page.getByTestId('character-card')).toHaveCount(1);
  await checkPage(player.page, 'character-list');
  await player.page.goto('/notifications');
  await expect(player.page.getByText('You have no pending party invitations.')).toBeVisible();
  await checkPage(player.page, 'notifications');
  await player.page.goto('/dashboard');
  await expect(player.page.getByTestId('dashboard-characters')).toContainText('Aria Swiftwind');
  await expect(player.page.getByTestId('dashboard-parties')).toContainText(partyName);
  await checkPage(player.page, 'dashboard-with-party');

  // The GM sees the character and makes the player a manager.
  await gm.page.goto(partyUrl);
  await gm.page.getByRole('tab', { name: 'Characters' }).click();
  const characterCard = gm.page.getByTestId('party-character-card');
  await expect(characterCard).toContainText('Aria Swiftwind');
  await expect(characterCard).toContainText(`Played by ${player.account.username}`);
  await expect(characterCard).toContainText('Has inventory');
  await checkPage(gm.page, 'party-detail-characters');
  await gm.page.getByRole('tab', { name: 'Members' }).click();
  const roleSelect = gm.page.getByRole('combobox', { name: `Role of ${player.account.username}` });
  await expect(roleSelect).toHaveValue('Player');
  await roleSelect.click();
  await gm.page.getByRole('option', { name: 'Manager' }).click();
  await expect(gm.page.getByText('Role changed to Manager')).toBeVisible();
  await expect(roleSelect).toHaveValue('Manager');
  await checkPage(gm.page, 'party-detail-members');

  // The free plan allows one character: the page says so once, with the way to upgrade, and Create
  // Character cannot be pressed.
  await player.page.goto('/characters/new');
  await player.page.getByRole('textbox', { name: 'Name', exact: true }).fill('Bram Stoutarm');
  const hint = player.page.getByTestId('plan-limit-hint');
  await expect(hint).toContainText('1 of 1 character used');
  await expect(player.page.getByRole('button', { name: 'Create Character' })).toBeDisabled();
  await expect(player.page.getByRole('link', { name: 'See upgrade options' })).toHaveCount(1);
  await expectAccessible(player.page, 'character limit');
  // The form holds the name typed: leaving it asks first (spec/01 §8 "You have unsaved changes.").
  await hint.getByRole('link', { name: 'See upgrade options' }).click();
  const leave = player.page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(leave).toContainText('You have unsaved changes.');
  await leave.getByRole('button', { name: 'Leave anyway' }).click();
  await expect(player.page).toHaveURL(/\/subscription\/upgrade\?resource=characters$/);
  await player.page.getByRole('button', { name: /^Upgrade to Adventurer/ }).click();
  await expect(player.page).toHaveURL(/\/subscription\/success/);
  await player.page.goto('/characters/new');
  await player.page.getByRole('textbox', { name: 'Name', exact: true }).fill('Bram Stoutarm');
  await player.page.getByRole('button', { name: 'Create Character' }).click();
  await expect(player.page).toHaveURL(/\/characters\/[0-9a-f-]{36}$/);
  await expect(player.page.getByRole('heading', { level: 1, name: 'Bram Stoutarm' })).toBeVisible();
});

test('on a phone the party tabs scroll sideways, show that more wait past the edge, and keep the chosen tab in view', async ({
  browser,
}) => {
  const gm = await signedUp(browser, 'tabs');
  const party = await api<{ id: string }>(gm.page, 'POST', '/parties', {
    party: { name: `Narrow Road ${Date.now() % 10_000}` },
  });
  await gm.page.setViewportSize({ width: 375, height: 812 });
  const tab = (name: string) => gm.page.getByRole('tab', { name });
  // Whole, give or take the fraction of a pixel a scrolled row can end on.
  const shown = { ratio: 0.99 };
  // By their labels: a faded arrow is hidden from screen readers (aria-hidden), so it has no role to find.
  const scrollLeft = gm.page.locator('button[aria-label="Scroll left"]');
  const scrollRight = gm.page.locator('button[aria-label="Scroll right"]');
  const arrowButton = (name: string) => gm.page.getByRole('button', { name });
  const pageScrollsSideways = () =>
    gm.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  // A link to the loot tab, next to last, lands at the end of the row with that tab in view, and the fading
  // arrow at the start says the first tabs wait past the edge.
  await gm.page.goto(`/parties/${party.id}?tab=loot`);
  await expect(tab('Loot')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('Loot')).toBeInViewport(shown);
  await expect(tab('Overview')).not.toBeInViewport(shown);
  await expect(scrollLeft).toHaveCSS('opacity', '1');
  await expect(scrollRight).toHaveCSS('opacity', '0');
  await expect(scrollRight).toHaveAttribute('aria-hidden', 'true');
  await expect(arrowButton('Scroll left')).toBeVisible();
  expect(await pageScrollsSideways()).toBe(false);

  // Back to the start with the arrow (a step at a time): the first tab shows and the arrows swap.
  await expect(async () => {
    await scrollLeft.click();
    await expect(tab('Overview')).toBeInViewport({ ...shown, timeout: 1_000 });
  }).toPass();
  await expect(scrollLeft).toHaveCSS('opacity', '0');
  await expect(scrollRight).toHaveCSS('opacity', '1');
  await expect(scrollLeft).toHaveAttribute('aria-hidden', 'true');
  await expect(arrowButton('Scroll right')).toBeVisible();

  // Choosing a tab by keyboard (Overview, left arrow, wraps to Activity) brings the chosen one into view.
  await tab('Overview').click();
  await gm.page.keyboard.press('ArrowLeft');
  await expect(tab('Activity')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('Activity')).toBeInViewport(shown);
  expect(await pageScrollsSideways()).toBe(false);
  await checkPage(gm.page, 'party-detail-tabs-phone');

  // A desktop has room for every tab: no arrows.
  await gm.page.setViewportSize({ width: 1280, height: 800 });
  for (const name of ['Overview', 'Members', 'Characters', 'Inventory', 'Shops', 'Loot', 'Activity']) {
    await expect(tab(name)).toBeInViewport(shown);
  }
  await expect(scrollLeft).toHaveCSS('opacity', '0');
  await expect(scrollRight).toHaveCSS('opacity', '0');
  await expect(gm.page.getByRole('button', { name: /^Scroll (left|right)$/ })).toHaveCount(0);
});
