import { expect, test } from '@playwright/test';
import { FakeDiscord } from '../../apps/server/src/test/fake-discord';
import { expectAccessible } from '../support/a11y';
import { AccountPages, newAccount, signInThroughApi, signUpThroughApi } from '../support/accounts';
import { screenshotBothWidths } from '../support/screenshots';

// The server under test talks to this stand-in for Discord (playwright.config.ts sets its address).
const discord = new FakeDiscord();
test.beforeAll(async () => {
  await discord.start(Number(process.env.E2E_DISCORD_PORT));
});
test.afterAll(async () => discord.stop());

test('the /discord page explains the integration and what this server supports', async ({ page }) => {
  await page.goto('/discord');
  await expect(page.getByRole('heading', { level: 1, name: 'Haversack on Discord' })).toBeVisible();
  const support = page.getByTestId('discord-support');
  await expect(support.getByText('Sign in and link accounts with Discord')).toBeVisible();
  // This server has the OAuth settings but no public key: sign-in is on, slash commands are not.
  await expect(support.getByText('Available')).toHaveCount(1);
  await expect(support.getByText('Not set up')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Add Haversack to a Discord server' })).toHaveAttribute(
    'href',
    /client_id=fake-client-id/,
  );
  await expectAccessible(page, 'discord');
  await screenshotBothWidths(page, 'discord');
});

test('link Discord from the profile, sign in with it, refuse a denied consent, unlink', async ({ page }) => {
  const accounts = new AccountPages(page);
  const account = newAccount('bard');
  await signUpThroughApi(page, account);

  await page.goto('/profile');
  const section = page.getByTestId('discord-section');
  await expect(section.getByRole('heading', { name: 'Discord' })).toBeVisible();
  await expect(section.getByText('Not linked.')).toBeVisible();

  // A denied consent comes back to the callback page with a clear message and a way back.
  discord.browserConsent = 'deny';
  await section.getByRole('button', { name: 'Link Discord' }).click();
  await expect(page).toHaveURL(/\/auth\/discord\/callback\?error=access_denied/);
  await expect(page.getByRole('alert')).toContainText(
    'You cancelled the Discord sign-in, so nothing changed.',
  );
  await expectAccessible(page, 'discord callback error');
  await screenshotBothWidths(page, 'discord-callback-error');
  await page.getByRole('link', { name: 'Back to your profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);

  // Consent: Discord sends the browser back with a code; the account is linked.
  discord.browserConsent = {
    id: '424242',
    username: 'bard.discord',
    global_name: 'Bard of Discord',
    email: account.email,
    verified: true,
  };
  await section.getByRole('button', { name: 'Link Discord' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Discord linked.')).toBeVisible();
  await expect(section.getByTestId('discord-linked')).toContainText('Bard of Discord');
  await expectAccessible(page, 'profile with Discord linked');
  await screenshotBothWidths(page, 'profile-discord-linked');

  // Signed out, "Continue with Discord" signs in to the linked account.
  await accounts.signOut();
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-heading')).toContainText(account.username);

  // A callback nobody started in this browser ends on a message too.
  await accounts.signOut();
  await page.goto('/auth/discord/callback?code=made-up&state=made-up');
  await expect(page.getByRole('alert')).toContainText(
    'This Discord sign-in has expired or did not start here. Please start again.',
  );
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toBeVisible();

  // Unlink (the account has a password, so it keeps a way to sign in).
  await signInThroughApi(page, account.email, account.password);
  await page.goto('/profile');
  await section.getByRole('button', { name: 'Unlink Discord' }).click();
  await expect(page.getByText('Discord unlinked.')).toBeVisible();
  await expect(section.getByText('Not linked.')).toBeVisible();
});
