import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { AccountPages, newAccount, signInThroughApi, signUpThroughApi } from '../support/accounts';
import { e2eAdmin } from '../support/admin';
import { api } from '../support/api';
import { screenshotBothWidths } from '../support/screenshots';

/** Ends the tab's admin session on the server behind the page's back, as an expiry would. */
async function endAdminSessionBehindThePage(page: Page) {
  const { token, adminSession } = await page.evaluate(() => ({
    token: window.localStorage.getItem('auth_token'),
    adminSession: window.sessionStorage.getItem('haversack_admin_session'),
  }));
  const response = await page.request.fetch('/api/v1/admin/sessions/current', {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}`, 'X-Admin-Session': adminSession ?? '' },
  });
  expect(response.status()).toBe(204);
}

test('a non-admin opening /admin lands on the dashboard, and the admin sees the attempt in the audit log', async ({
  page,
}) => {
  const accounts = new AccountPages(page);
  const player = newAccount('snoop');
  await signUpThroughApi(page, player);

  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/dashboard$/);
  await accounts.signOut();

  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/audit');
  await expect(page.getByTestId('admin-mode-badge')).toHaveText('ADMIN MODE');
  await expect(page.getByTestId('admin-email')).toHaveText(e2eAdmin.email);
  await expect(page.getByRole('heading', { name: 'Audit Logs', level: 1 })).toBeVisible();

  await page.getByLabel('Actor').fill(player.email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`actor=${encodeURIComponent(player.email)}`));
  const entries = page.getByTestId('audit-log-entry');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Refused admin access');
  await expect(entries.first()).toContainText(player.email);
  await entries.first().getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('dialog', { name: 'Audit entry' })).toContainText('"path": "/admin/users"');
  await expectAccessible(page, 'audit entry details');
  await page.keyboard.press('Escape');

  // The CSV export holds what the filters show.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^haversack-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);

  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(entries.first()).toBeVisible();
  await expectAccessible(page, 'audit logs');
  await screenshotBothWidths(page, 'admin-audit-logs');

  // On a phone the bar keeps the theme switch, and the menu names who is signed in.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole('button', { name: /^Switch to (light|dark) theme$/ })).toBeVisible();
  // The bar's two ends keep apart on the narrower phones too, down to 320 px: the initial never lies on
  // the badge, and Exit Admin Mode keeps its name when only its icon is left.
  for (const width of [375, 360, 320]) {
    await page.setViewportSize({ width, height: 812 });
    const badge = await page.getByTestId('admin-mode-badge').boundingBox();
    const initial = await page.getByRole('img', { name: /^Signed in as / }).boundingBox();
    expect(initial?.x ?? 0, `at ${width} px`).toBeGreaterThanOrEqual(
      (badge?.x ?? 0) + (badge?.width ?? 0) + 8,
    );
    await expect(page.getByRole('link', { name: 'Exit Admin Mode' }), `at ${width} px`).toBeInViewport({
      ratio: 1,
    });
  }
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('button', { name: 'Open admin navigation' }).click();
  await expect(page.getByTestId('admin-email-menu')).toHaveText(e2eAdmin.email);
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByLabel('Actor').fill('nobody-at-all@example.com');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('heading', { name: 'No Audit Entries', exact: true })).toBeVisible();
  await screenshotBothWidths(page, 'admin-audit-logs-empty');

  // A page chosen by keyboard in the phone's menu: the menu closes with the focused link, and the new
  // page's heading takes the focus (it was left on nothing, and Tab started again from the top).
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('button', { name: 'Open admin navigation' }).click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeFocused();
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('an admin session that ends shows the expired card; Exit Admin Mode leaves for the dashboard', async ({
  page,
}) => {
  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit Logs', level: 1 })).toBeVisible();

  await endAdminSessionBehindThePage(page);
  // The next admin call is refused as expired: the card replaces the page.
  await page.getByLabel('Actor').fill('someone');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Session Expired' })).toBeVisible();
  await expectAccessible(page, 'admin session expired');
  await screenshotBothWidths(page, 'admin-session-expired');
  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Entering again starts a new admin session.
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit Logs', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Exit Admin Mode' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an admin’s refused admin session is in the audit log by its whole name, with why', async ({ page }) => {
  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit Logs', level: 1 })).toBeVisible();
  // A value that is no admin session, sent with the admin's own sign-in, to a route with a long path.
  const token = await page.evaluate(() => window.localStorage.getItem('auth_token'));
  const refused = await page.request.fetch(
    '/api/v1/admin/reports/00000000-0000-4000-8000-000000000000/unpublish',
    { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'X-Admin-Session': 'forged' } },
  );
  expect(refused.status()).toBe(401);

  await page.goto('/admin/audit?action=admin_session_refused');
  const entry = page.getByTestId('audit-log-entry').first();
  await expect(entry).toContainText('/unpublish');
  // The badge shows its whole label beside a long path, not "REFUSED …".
  const label = entry.getByText('Refused admin session', { exact: true });
  await expect(label).toBeVisible();
  expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await entry.getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('dialog', { name: 'Audit entry' })).toContainText(
    'Why refused: what was sent is not an admin session',
  );
});

test('an admin suspends a user: their open session is cut off and they cannot sign in again', async ({
  page,
  browser,
}) => {
  // The player, on a device of their own, with a party page open (a live cable connection).
  const playerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const playerPage = await playerContext.newPage();
  const playerAccounts = new AccountPages(playerPage);
  const player = newAccount('rowdy');
  await signUpThroughApi(playerPage, player);
  const party = await api<{ id: string }>(playerPage, 'POST', '/parties', {
    party: { name: 'The Night Owls' },
  });
  await playerPage.goto(`/parties/${party.id}`);
  await expect(playerPage.getByText('Real-time updates active')).toBeVisible();

  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await page.getByLabel('Search', { exact: true }).fill(player.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByTestId('admin-user-row')).toHaveCount(1);
  await expectAccessible(page, 'admin users');
  await screenshotBothWidths(page, 'admin-users');
  await page.getByRole('link', { name: player.email }).click();
  await expect(page.getByRole('heading', { name: player.email, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Parties' })).toContainText('The Night Owls');
  await expectAccessible(page, 'admin user detail');
  await screenshotBothWidths(page, 'admin-user-detail');

  await page.getByRole('button', { name: 'Suspend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend this account' });
  await dialog.getByLabel('Reason').fill('Spamming the marketplace');
  await dialog.getByRole('button', { name: 'Suspend account' }).click();
  await expect(page.getByTestId('suspension-note')).toContainText('Spamming the marketplace');
  // The suspended user's page, with its Unsuspend button, reads well too.
  await expect(page.getByRole('button', { name: 'Unsuspend' })).toBeVisible();
  await expectAccessible(page, 'admin user detail, suspended');

  // The player's open page loses its session at once: the socket is closed and the app signs them out.
  await expect(playerPage).toHaveURL(/\/login/, { timeout: 15_000 });
  await playerAccounts.fillSignIn(player.email, player.password);
  await expect(playerPage.getByTestId('login-error')).toContainText(
    'This account has been suspended. Contact support if you think this is a mistake.',
  );
  await playerContext.close();

  // The suspension is in the audit log with what changed.
  await page.goto(`/admin/audit?action=user_suspended`);
  await expect(page.getByTestId('audit-log-entry').first()).toContainText(e2eAdmin.email);
});

test('maintenance mode, switched on in Settings, shows its banner to everyone', async ({ page }) => {
  await signInThroughApi(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/settings');
  const maintenance = page.getByRole('switch', { name: 'Maintenance mode' });
  await expect(maintenance).not.toBeChecked();
  await expectAccessible(page, 'admin settings');
  await screenshotBothWidths(page, 'admin-settings');
  await maintenance.click();
  // Turning it on asks first: every user's writes stop at once.
  await page
    .getByRole('dialog', { name: 'Turn On Maintenance Mode' })
    .getByRole('button', { name: 'Turn On' })
    .click();
  await expect(maintenance).toBeChecked();
  try {
    await page.getByRole('link', { name: 'Exit Admin Mode' }).click();
    await expect(page.getByTestId('maintenance-banner')).toContainText('System is in maintenance mode.');
  } finally {
    await page.goto('/admin/settings');
    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await expect(page.getByRole('switch', { name: 'Maintenance mode' })).not.toBeChecked();
  }
});
