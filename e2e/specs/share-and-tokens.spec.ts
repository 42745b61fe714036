import { type Browser, expect, type Page, test } from '@playwright/test';
import { checkPage, expectDialogAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api, upgradeTo } from '../support/api';

interface Character {
  id: string;
  name: string;
  primary_container_id: string;
}

async function signedUp(browser: Browser, prefix: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await signUpThroughApi(page, newAccount(prefix));
  return page;
}

test('copy buttons copy on a server reached over plain http, where the page has no Clipboard API', async ({
  browser,
}) => {
  const player = await signedUp(browser, 'lanhost');
  // A phone at http://192.168.1.20:3000 (the group's own server on the table's Wi-Fi) is not a secure
  // context: browsers give such a page no navigator.clipboard.
  await player.addInitScript(() => {
    delete (Navigator.prototype as { clipboard?: unknown }).clipboard;
    Object.defineProperty(window, 'isSecureContext', { value: false });
  });
  const character = await api<Character>(player, 'POST', '/characters', { character: { name: 'Nim' } });
  await player.goto(`/characters/${character.id}`);
  expect(
    await player.evaluate(() => ({ secure: window.isSecureContext, api: 'clipboard' in navigator })),
  ).toEqual({ secure: false, api: false });

  await player.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = player.getByRole('dialog', { name: "Share Nim's inventory" });
  const url = (await dialog.locator('pre').textContent())?.trim() ?? '';
  expect(url).toMatch(/\/discord\/share\//);
  await dialog.getByRole('button', { name: 'Copy Share link' }).click();
  const copied = dialog.getByRole('button', { name: 'Share link copied' });
  await expect(copied).toBeVisible();
  await expect(copied).toBeFocused();
  await expect(dialog.getByText('Failed to copy to clipboard')).toHaveCount(0);

  // Another page of the same browser, which has the API, reads what was copied.
  const reader = await player.context().newPage();
  await reader.goto('/home');
  expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await player.context().close();
});

test('a player shares a character, a stranger opens the link signed out, and revoking it ends the page', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const player = await signedUp(browser, 'sharer');
  const thorin = await api<Character>(player, 'POST', '/characters', {
    character: { name: 'Thorin Oakenshield', race: 'Dwarf', character_class: 'Fighter', level: 5 },
  });
  await addItem(player, thorin.primary_container_id, 'Spyglass', 1);
  await addItem(player, thorin.primary_container_id, 'Rope, hempen (50 feet)', 2);
  await addItem(player, thorin.primary_container_id, 'Gold piece', 152);

  // The character page's Share button makes the link and offers to copy it.
  await player.goto(`/characters/${thorin.id}`);
  await player.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = player.getByRole('dialog', { name: "Share Thorin Oakenshield's inventory" });
  const linkText = dialog.locator('pre');
  await expect(linkText).toContainText('/discord/share/');
  const url = (await linkText.textContent())?.trim() ?? '';
  expect(url).toMatch(/\/discord\/share\/[A-Za-z0-9_-]{22}$/);
  await dialog.getByRole('button', { name: 'Copy Share link' }).click();
  await expect(dialog.getByRole('button', { name: 'Share link copied' })).toBeVisible();
  expect(await player.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expectDialogAccessible(player, dialog, 'share-dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Chat apps read the page's HTML, not the app: its meta tags carry the preview card.
  const html = await (await request.get(url)).text();
  expect(html).toContain('<meta property="og:title" content="Thorin Oakenshield&#39;s inventory" />');
  expect(html).toMatch(/Thorin Oakenshield&#39;s inventory: 3 items, [\d.,]+ lbs, [\d,]+ gp/);
  expect(html).toContain('application/json+oembed');

  // A stranger, signed out, sees the items read-only.
  const strangerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const stranger = await strangerContext.newPage();
  await stranger.goto(url);
  await expect(
    stranger.getByRole('heading', { level: 1, name: "Thorin Oakenshield's inventory" }),
  ).toBeVisible();
  await expect(stranger.getByText('Level 5 Dwarf Fighter')).toBeVisible();
  await expect(stranger.getByRole('cell', { name: 'Spyglass' })).toBeVisible();
  await expect(stranger.getByRole('cell', { name: 'Gold piece' })).toBeVisible();
  await expect(stranger.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  await checkPage(stranger, 'share-page');

  // The owner finds the link on the profile and revokes it.
  await player.goto('/profile');
  const shared = player.getByRole('region', { name: 'Shared links' });
  const row = shared.getByTestId('shared-link').filter({ hasText: 'Thorin Oakenshield' });
  await expect(row).toContainText(url);
  await row.getByRole('button', { name: 'Revoke link to Thorin Oakenshield' }).click();
  const confirm = player.getByRole('dialog', { name: 'Revoke share link?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(shared.getByTestId('shared-links-empty')).toBeVisible();

  // The stranger's page is now a clear not-found page, and so is its HTML.
  await stranger.reload();
  await expect(stranger.getByRole('heading', { name: 'Share link not found' })).toBeVisible();
  await expect(stranger.getByText('Spyglass')).toHaveCount(0);
  const gone = await request.get(url);
  expect(gone.status()).toBe(404);
  expect(await gone.text()).not.toContain('Thorin');
  await checkPage(stranger, 'share-not-found');
  await strangerContext.close();
});

test('a paying player creates a read-only API token on the profile and reads characters with it', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const player = await signedUp(browser, 'scripter');
  await api<Character>(player, 'POST', '/characters', { character: { name: 'Vex Nightwhisper' } });

  // On Free the section says what the plan lacks and where to get it.
  await player.goto('/profile');
  const section = player.getByRole('region', { name: 'API tokens' });
  await expect(section.getByText('API access is not included in your plan')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Create token' })).toHaveCount(0);

  await upgradeTo(player, 'tier_2');
  await player.reload();
  await section.getByRole('button', { name: 'Create token' }).click();
  const dialog = player.getByRole('dialog', { name: 'Create API token' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Inventory spreadsheet');
  await dialog.getByRole('radio', { name: 'Read only' }).check();
  await expectDialogAccessible(player, dialog, 'api-token-create');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByText('Copy your token now')).toBeVisible();
  const token = ((await dialog.locator('pre').textContent()) ?? '').trim();
  expect(token).toMatch(/^hvk_[A-Za-z0-9_-]{43}$/);
  await expectDialogAccessible(player, dialog, 'api-token-created');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = section.getByTestId('api-token').filter({ hasText: 'Inventory spreadsheet' });
  await expect(row).toContainText('Read only');
  await expect(row).toContainText('Never used');
  await expect(row).not.toContainText(token);

  // A script reads with the token; a read-only token cannot write.
  const read = await request.get('/api/v1/characters', { headers: { Authorization: `Bearer ${token}` } });
  expect(read.status()).toBe(200);
  expect(await read.text()).toContain('Vex Nightwhisper');
  const write = await request.post('/api/v1/characters', {
    headers: { Authorization: `Bearer ${token}` },
    data: { character: { name: 'Sneaky' } },
  });
  expect(write.status()).toBe(403);

  await player.reload();
  await expect(row).toContainText('Last used');
  await checkPage(player, 'profile-api-tokens');

  // Revoking ends it at once.
  await row.getByRole('button', { name: 'Revoke API token Inventory spreadsheet' }).click();
  await player
    .getByRole('dialog', { name: 'Revoke API token?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(section.getByTestId('api-tokens-empty')).toBeVisible();
  const after = await request.get('/api/v1/characters', { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});
