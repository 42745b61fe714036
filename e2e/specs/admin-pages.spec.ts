import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import {
  AccountPages,
  newAccount,
  registerThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from '../support/accounts';
import { e2eAdmin } from '../support/admin';
import { screenshotBothWidths } from '../support/screenshots';

/** The admin, signed in through the API: these specs are about the admin pages, not the sign-in form. */
async function signInAsAdmin(page: Page) {
  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
}

test('an admin publishes an announcement that another user sees as a banner and dismisses for good', async ({
  page,
}) => {
  const accounts = new AccountPages(page);
  const title = `Tavern closes early ${Date.now()}`;
  await signInAsAdmin(page);
  await page.goto('/admin/communications');
  await expect(page.getByRole('heading', { name: 'Communications', level: 1 })).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Message', { exact: true }).first().fill('Maintenance from 22:00 to 23:00 UTC.');
  await page.getByRole('button', { name: 'Publish Announcement' }).click();
  await expect(page.getByTestId('announcement-row').filter({ hasText: title })).toBeVisible();
  await expectAccessible(page, 'admin communications');
  await screenshotBothWidths(page, 'admin-communications');
  await page.goto('/dashboard');
  await accounts.signOut();

  const player = newAccount('reader');
  await signUpThroughApi(page, player);
  await page.goto('/dashboard');
  const banner = page.getByTestId('announcement-banner').filter({ hasText: title });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Maintenance from 22:00 to 23:00 UTC.');
  await screenshotBothWidths(page, 'announcement-banner');
  await banner.getByRole('button', { name: `Dismiss announcement: ${title}` }).click();
  await expect(banner).toHaveCount(0);
  // Dismissed on the server: a reload does not bring it back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByTestId('announcement-banner').filter({ hasText: title })).toHaveCount(0);

  // Every spec shares one server: take the banner down so it shows on no one else's pages.
  await page.goto('/dashboard');
  await accounts.signOut();
  await signInAsAdmin(page);
  await page.goto('/admin/communications');
  await page.getByRole('button', { name: `Delete announcement ${title}` }).click();
  // It asks first: a deleted banner is gone for everyone.
  await page
    .getByRole('dialog', { name: 'Delete Announcement' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByTestId('announcement-row').filter({ hasText: title })).toHaveCount(0);
});

test('an admin changes the tier of a filtered set of users after a dry run, and watches the progress', async ({
  page,
}) => {
  const tag = `bulk${Date.now()}`;
  const player = newAccount(tag);
  await registerThroughApi(page.request, player);

  await signInAsAdmin(page);
  await page.goto('/admin/bulk-operations');
  await expect(page.getByRole('heading', { name: 'Bulk Operations', level: 1 })).toBeVisible();
  // At 1280 px the tier field has room for its label on one line, as the filters' labels have.
  const tierLabel = await page
    .getByText('Change their tier to (without payment)', { exact: true })
    .boundingBox();
  const filterLabel = await page.getByText('Email contains', { exact: true }).boundingBox();
  expect(tierLabel?.height).toBeGreaterThan(0);
  expect(tierLabel?.height).toBe(filterLabel?.height);
  await page.getByLabel('Email contains').fill(tag);
  await page.getByRole('button', { name: 'Count Matches (Dry Run)' }).click();
  await expect(page.getByTestId('bulk-preview-count')).toHaveText('1 users match.');
  await expectAccessible(page, 'admin bulk operations');
  await page.getByRole('button', { name: 'Run Operation' }).click();
  await page.getByRole('dialog', { name: 'Run Bulk Operation' }).getByRole('button', { name: 'Run' }).click();

  const progress = page.getByTestId('operation-progress').first();
  await expect(progress).toBeVisible();
  // The server's job queue polls every 15 seconds.
  await expect(progress).toContainText('1 of 1 users done', { timeout: 40_000 });
  await expect(progress).toContainText('done');
  await screenshotBothWidths(page, 'admin-bulk-operations');
});

test('the dashboard, analytics, financial and moderation pages show their figures', async ({ page }) => {
  await signInAsAdmin(page);
  const pages = [
    { path: '/admin', heading: 'Dashboard', shot: 'admin-dashboard' },
    { path: '/admin/analytics', heading: 'Analytics', shot: 'admin-analytics' },
    { path: '/admin/financial', heading: 'Financial', shot: 'admin-financial' },
    { path: '/admin/moderation', heading: 'Moderation', shot: 'admin-moderation' },
  ];
  for (const { path, heading, shot } of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expectAccessible(page, `admin ${heading.toLowerCase()}`);
    await screenshotBothWidths(page, shot);
  }
  await page.goto('/admin');
  await expect(page.getByText('Users', { exact: true }).first()).toBeVisible();
  await page.goto('/admin/analytics');
  await page.getByText('By week', { exact: true }).click();
  await expect(page.getByRole('columnheader', { name: 'Week of' })).toBeVisible();
});

test('a user reports a public party, and staff unpublish it from the moderation queue', async ({ page }) => {
  const accounts = new AccountPages(page);
  const owner = newAccount('owner');
  const { token } = await registerThroughApi(page.request, owner);
  const partyName = `Public Table ${Date.now()}`;
  const created = await page.request.post('/api/v1/parties', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      party: {
        name: partyName,
        description: 'Everyone welcome',
        game_system: 'D&D 5e',
        setting: '',
        join_permission: 'full',
        encumbrance_style: 'both',
        item_conjuring: 'free',
        is_public: true,
      },
    },
  });
  expect(created.status()).toBe(201);
  const partyId: string = (await created.json()).data.id;

  const reporter = newAccount('reporter');
  await signUpThroughApi(page, reporter);
  await page.goto(`/parties/join?preview=${partyId}`);
  await page.getByRole('button', { name: `Report party ${partyName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Report party: ${partyName}` });
  await dialog.getByLabel('Why are you reporting this?').fill('Spam links in the description');
  await expectAccessible(page, 'report dialog');
  await dialog.getByRole('button', { name: 'Send Report' }).click();
  await expect(page.getByText('Thank you. The staff will look at your report.')).toBeVisible();
  await accounts.signOut();

  await signInAsAdmin(page);
  await page.goto('/admin/moderation');
  const card = page.getByTestId('report-card').filter({ hasText: partyName });
  await expect(card).toContainText('Spam links in the description');
  await expect(card).toContainText(owner.email);
  // What was reported: its description's start, and a link to it while it is public.
  await expect(card).toContainText('Everyone welcome');
  await expect(card.getByRole('link', { name: partyName })).toHaveAttribute('href', `/parties/${partyId}`);
  await screenshotBothWidths(page, 'admin-moderation-queue');
  await card.getByRole('button', { name: 'Unpublish' }).click();
  const confirm = page.getByRole('dialog', { name: 'Unpublish this content?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Unpublish' }).click();
  await expect(page.getByTestId('report-card').filter({ hasText: partyName })).toHaveCount(0);
  await page.getByText('Unpublished', { exact: true }).click();
  await expect(page.getByTestId('report-card').filter({ hasText: partyName })).toContainText('unpublished');
});
