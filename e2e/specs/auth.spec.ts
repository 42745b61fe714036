import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { AccountPages, newAccount, registerThroughApi, signUpThroughApi } from '../support/accounts';
import { chunkPaths } from '../support/chunks';
import { countMailLinks, waitForMailLink } from '../support/mailbox';
import { screenshotBothWidths } from '../support/screenshots';

test('register, sign out, sign in, recover the password by mail and sign in with the new one', async ({
  page,
}) => {
  const accounts = new AccountPages(page);
  const account = newAccount();

  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, 'register');
  await screenshotBothWidths(page, 'register');

  // Validation messages of spec/01 §5 before anything is sent.
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm Password', { exact: true }).fill('different');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await accounts.register(account);
  await expect(page.getByTestId('dashboard-heading')).toContainText(account.username);
  await expect(page.getByTestId('unverified-email-notice')).toBeVisible();
  await expectAccessible(page, 'dashboard');
  await screenshotBothWidths(page, 'dashboard');

  await accounts.signOut();
  await expectAccessible(page, 'login');
  await screenshotBothWidths(page, 'login');

  // A wrong password is refused with the catalogue's message.
  await accounts.fillSignIn(account.email, 'Wrong12345');
  await expect(page.getByTestId('login-error')).toContainText('Invalid email or password.');
  await accounts.fillSignIn(account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await accounts.signOut();

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expectAccessible(page, 'forgot password');
  await screenshotBothWidths(page, 'forgot-password');
  const before = countMailLinks(account.email, 'reset-password');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Instructions' }).click();
  await expect(page.getByRole('heading', { name: 'Reset Instructions Sent' })).toBeVisible();
  await expect(
    page.getByText(
      "If an account exists with that email, we've sent instructions on how to reset your password.",
    ),
  ).toBeVisible();
  await screenshotBothWidths(page, 'forgot-password-sent');

  const link = await waitForMailLink(account.email, 'reset-password', before);
  await page.goto(new URL(link).pathname);
  await expectAccessible(page, 'reset password');
  await screenshotBothWidths(page, 'reset-password');
  const newPassword = 'Recovered42';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Successful' })).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 5_000 });

  // The link works once.
  await page.goto(new URL(link).pathname);
  await page.getByLabel('New Password', { exact: true }).fill('Another123');
  await page.getByLabel('Confirm New Password', { exact: true }).fill('Another123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
  await expect(page.getByText('This password reset link has already been used.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );

  await page.goto('/login');
  await accounts.fillSignIn(account.email, account.password);
  await expect(page.getByTestId('login-error')).toBeVisible();
  await accounts.fillSignIn(account.email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a reset link opened while still signed in resets the password and signs the browser out', async ({
  page,
}) => {
  const accounts = new AccountPages(page);
  const account = newAccount('resetter');
  await signUpThroughApi(page, account);
  const before = countMailLinks(account.email, 'reset-password');
  const asked = await page.request.post('/api/v1/auth/forgot_password', { data: { email: account.email } });
  expect(asked.ok()).toBeTruthy();
  const link = await waitForMailLink(account.email, 'reset-password', before);

  await page.goto(new URL(link).pathname);
  await expect(page).toHaveURL(new URL(link).pathname);
  const newPassword = 'Recovered42';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Successful' })).toBeVisible();
  // Signed out here as everywhere: the sign-in page stays, rather than sending the old session on.
  await expect(page).toHaveURL(/\/login/, { timeout: 5_000 });
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await accounts.fillSignIn(account.email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a protected page sends a visitor to sign in and back', async ({ page }) => {
  const accounts = new AccountPages(page);
  const account = newAccount('returner');
  // The account exists; this browser was never signed in to it.
  await registerThroughApi(page.request, account);

  await page.goto('/profile/preferences?from=test');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile%2Fpreferences%3Ffrom%3Dtest$/);
  await accounts.fillSignIn(account.email, account.password);
  await expect(page).toHaveURL(/\/profile\/preferences\?from=test$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, 'preferences');
  await screenshotBothWidths(page, 'preferences');

  // Preferences are saved on the server: the light theme survives a reload.
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await screenshotBothWidths(page, 'preferences-light');

  await page.goto('/profile');
  await expect(page.getByTestId('email-unverified-badge')).toBeVisible();
  await expectAccessible(page, 'profile');
  await screenshotBothWidths(page, 'profile');
});

test('the mailed verification link verifies the address', async ({ page }) => {
  const account = newAccount('verifier');
  await signUpThroughApi(page, account);
  const link = await waitForMailLink(account.email, 'verify-email');
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText(/verified/i).first()).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByTestId('email-verified-badge')).toBeVisible();
});

test('unknown pages show the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expectAccessible(page, 'not found');
});

test('the public pages never scroll sideways on a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  for (const path of ['/home', '/about', '/login', '/register', '/forgot-password']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth, `${path} is ${scrollWidth} px wide`).toBeLessThanOrEqual(clientWidth);
  }
});

test("a visitor's landing page loads what it draws, not the signed-in app's parts", async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Haversack: the inventory your whole table shares',
  );
  // TanStack Query, the API's contracts and Mantine's overlays are for the pages that ask the API
  // (issue 13 §1): with them, a phone's first load of /home was 272 KB of JavaScript, without 157 KB.
  const chunk = (name: string) => scripts.filter((url) => chunkPaths(name).includes(url));
  expect(chunk('home-page')).toHaveLength(1);
  for (const name of ['query-client', 'contracts', 'app-common', 'mantine-overlays'])
    expect(chunk(name), `/home loaded ${name}: ${scripts.join(', ')}`).toEqual([]);

  // The real screens (lossless WebP) decode at their full size.
  const screens = page.getByRole('figure').getByRole('img');
  await expect(screens).toHaveCount(3);
  for (const screen of await screens.all()) {
    await screen.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        screen.evaluate(
          (img: HTMLImageElement) => img.complete && img.naturalWidth === Number(img.getAttribute('width')),
        ),
      )
      .toBe(true);
  }

  // The theme switch of the public pages names itself without Mantine's Tooltip.
  const toggle = page.getByRole('button', { name: 'Switch to light theme' });
  await expect(toggle).toHaveAttribute('title', 'Switch to light theme');
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');

  // The way in still works from there: the sign-up page, which asks the API, loads what it needs.
  await page.getByRole('link', { name: 'Create an account' }).first().click();
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
});

test('two tabs on a server reached over plain http refresh their shared session once, and both stay signed in', async ({
  browser,
}) => {
  // A laptop or phone at http://192.168.1.20:3000 is not a secure context, so it has no Web Locks API. Its
  // tabs share the tokens in localStorage, and refresh tokens rotate on every use: two tabs that both spent
  // the same one would look like a stolen token to the server, which ends the session everywhere.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    delete (Navigator.prototype as { locks?: unknown }).locks;
    Object.defineProperty(window, 'isSecureContext', { value: false });
  });
  const first = await context.newPage();
  await signUpThroughApi(first, newAccount('twotabs'));
  await first.goto('/dashboard');
  const second = await context.newPage();
  await second.goto('/dashboard');
  await expect(second.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await second.evaluate(() => 'locks' in navigator)).toBe(false);

  // Both tabs wake with the access token about to expire (a laptop's lid opened after an hour, say). Each
  // refresh is held on its way for a second, so the two tabs' refreshes are due at the same moment.
  let refreshes = 0;
  await context.route('**/api/v1/auth/refresh', async (route) => {
    refreshes += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await first.evaluate(() =>
    localStorage.setItem('token_expires_at', new Date(Date.now() - 1_000).toISOString()),
  );
  await Promise.all([first.reload(), second.reload()]);

  for (const tab of [first, second]) {
    await expect(tab).toHaveURL(/\/dashboard$/);
    await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await expect
    .poll(() => first.evaluate(() => Date.parse(localStorage.getItem('token_expires_at') ?? '')))
    .toBeGreaterThan(Date.now());
  expect(refreshes).toBe(1);
  // The session the one refresh made still works in both tabs.
  for (const tab of [first, second]) {
    await tab.reload();
    await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(tab).toHaveURL(/\/dashboard$/);
  }
  await context.close();
});

test('a tab left open follows what another tab does to the session: signed out there, signed in as someone else there', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await context.newPage();
  const cara = newAccount('cara');
  const dan = newAccount('dan');
  // Dan's account exists; cara is the one signed in.
  await registerThroughApi(first.request, dan);
  await signUpThroughApi(first, cara);
  await first.goto('/dashboard');
  const second = await context.newPage();
  await second.goto('/parties/new');
  await expect(second.getByRole('textbox', { name: /^Party Name/ })).toBeVisible();

  // Signed out in the first tab: the second ends too, at once, and says why.
  await new AccountPages(first).signOut();
  await expect(second).toHaveURL(/\/login/);
  await expect(second.getByText('You signed out in another tab. Sign in again to continue.')).toBeVisible();

  // Signed in as dan in the first tab: the second shows dan's account, and says so, rather than cara's
  // screens over dan's session.
  await new AccountPages(first).signIn(dan.email, dan.password);
  await expect(second).toHaveURL(/\/dashboard$/);
  await expect(
    second.getByText(`Signed in as ${dan.username} in another tab: this tab now shows that account.`),
  ).toBeVisible();
  await expect(second.getByTestId('user-menu-button')).toContainText(dan.username.charAt(0).toUpperCase());
  await context.close();
});

test('a toast that cannot load its component while the network is down leaves the page as it was, and shows once back online', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // The toasts' component is a chunk of its own, loaded on demand: here every fetch of it fails, as when the
  // server went away before the page needed it.
  let offline = true;
  const [toastsChunk] = chunkPaths('toasts-component');
  await context.route(`**${toastsChunk}`, (route) => (offline ? route.abort() : route.continue()));
  // Through the form, not the API: the toasts' chunk fails first on the sign-up page, and the app's one
  // reload for stale code (the server answers, so a missing chunk looks like an old build) is spent there,
  // 10 s before it may come again; signed up through the API, it came on /profile and lost the click.
  await new AccountPages(page).register(newAccount('offline'));
  // That reload comes once the server has answered its check, after the dashboard is reached: on a busy
  // machine it aborted the visit to /profile below (net::ERR_ABORTED). Wait until it has been spent.
  await page.waitForFunction(() => sessionStorage.getItem('haversack_stale_code_reload') !== null);
  await page.waitForLoadState('load');
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByTestId('profile-save').click();
  await page.waitForTimeout(1_000);
  // Nothing went blank: the page is still drawn and usable.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('profile-save')).toBeVisible();
  await expect(page.getByText('Nothing to save: your details are unchanged.')).toHaveCount(0);

  offline = false;
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByText('Nothing to save: your details are unchanged.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.close();
});
