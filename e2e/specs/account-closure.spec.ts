import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { checkPage, expectDialogAccessible } from '../support/a11y';
import { AccountPages, newAccount, signUpThroughApi } from '../support/accounts';
import { api } from '../support/api';

interface Party {
  id: string;
  join_code: string;
}

test('a player downloads their data, then deletes their account; their party goes to the other member', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const account = newAccount('leaver');
  const pages = new AccountPages(page);
  await signUpThroughApi(page, account);
  const party = await api<Party>(page, 'POST', '/parties', { party: { name: 'The Last Lantern' } });
  await api(page, 'POST', '/characters', { character: { name: 'Wren Ashdown', party_id: party.id } });

  // A second player in the party, on a device of their own.
  const friendContext = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const friend = await friendContext.newPage();
  await signUpThroughApi(friend, newAccount('stayer'));
  await api(friend, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });

  await page.goto('/profile');
  await checkPage(page, 'profile-your-data-and-danger-zone');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^haversack-export-leaver_[0-9a-f]+-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile(String(await download.path()), 'utf8');
  const exported = JSON.parse(text) as { data: { characters: { name: string }[] } };
  expect(exported.data.characters.map((c) => c.name)).toEqual(['Wren Ashdown']);
  expect(text).not.toMatch(/password|refresh_token|hvk_/i);

  await page.getByRole('button', { name: 'Delete account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expectDialogAccessible(page, dialog, 'delete-account-dialog');
  await dialog.getByLabel('Your password').fill('NotMyPassword1');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Password is incorrect')).toBeVisible();
  await expect(dialog.getByLabel('Your password')).toBeFocused();

  await dialog.getByLabel('Your password').fill(account.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();

  // Gone for good: the password no longer signs in.
  await pages.fillSignIn(account.email, account.password);
  await expect(page.getByText('Invalid email or password.').first()).toBeVisible();

  // The party stays, with its other member as its GM.
  await friend.goto(`/parties/${party.id}`);
  await expect(friend.getByRole('heading', { level: 1, name: 'The Last Lantern' })).toBeVisible();
  const members = await api<{ role: string }[] | { members: { role: string }[] }>(
    friend,
    'GET',
    `/parties/${party.id}/members`,
  );
  const roles = (Array.isArray(members) ? members : members.members).map((m) => m.role);
  expect(roles).toEqual(['gm']);
  await context.close();
  await friendContext.close();
});
