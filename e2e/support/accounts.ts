import { randomBytes } from 'node:crypto';
import type { AuthSession } from '@haversack/contracts';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export interface NewAccount {
  email: string;
  username: string;
  password: string;
}

export function newAccount(prefix = 'hero'): NewAccount {
  const suffix = randomBytes(4).toString('hex');
  return {
    email: `${prefix}-${suffix}@example.com`,
    username: `${prefix}_${suffix}`,
    password: 'Adventure1',
  };
}

/**
 * Signs `account` up through the API (`POST /auth/register`) and answers the session it opens, without
 * signing any browser in: for an account a spec needs to exist, not to use.
 */
export async function registerThroughApi(
  request: APIRequestContext,
  account: NewAccount,
): Promise<AuthSession> {
  const response = await request.post('/api/v1/auth/register', {
    data: { user: { ...account, password_confirmation: account.password } },
  });
  expect(response.ok(), `sign-up of ${account.username}: ${await response.text()}`).toBeTruthy();
  return ((await response.json()) as { data: AuthSession }).data;
}

/**
 * Signs `account` up through the API and leaves `page`'s browser signed in to it, as the sign-up form
 * does: the session's tokens and user in local storage (spec/01 §3), where the app reads them when it next
 * loads. For the specs whose point is not the sign-up form (auth.spec.ts is where the form is tested):
 * going through the form loaded /register, typed four fields and drew the dashboard, seconds for each of
 * the run's accounts. The page is left on a bare page of the app's origin (the health check), not on the
 * dashboard: the caller opens the page it wants next.
 */
export async function signUpThroughApi(page: Page, account: NewAccount): Promise<AuthSession> {
  const session = await registerThroughApi(page.request, account);
  await keepSession(page, session);
  return session;
}

/**
 * Signs `page`'s browser in through the API (`POST /auth/login`), as the sign-in form does, for the specs
 * whose point is not that form (auth.spec.ts tests it). Like `signUpThroughApi`, it leaves the page on a
 * bare page of the app's origin.
 */
export async function signInThroughApi(page: Page, email: string, password: string): Promise<AuthSession> {
  const response = await page.request.post('/api/v1/auth/login', { data: { email, password } });
  expect(response.ok(), `sign-in of ${email}: ${await response.text()}`).toBeTruthy();
  const session = ((await response.json()) as { data: AuthSession }).data;
  await keepSession(page, session);
  return session;
}

/** Stores a session where the app keeps it (spec/01 §3), for the app to read when it next loads. */
async function keepSession(page: Page, session: AuthSession) {
  // Local storage belongs to an origin: the page must be on the app's to write it.
  await page.goto('/api/v1/health');
  await page.evaluate((signedIn) => {
    window.localStorage.setItem('auth_token', signedIn.token);
    window.localStorage.setItem('refresh_token', signedIn.refresh_token);
    window.localStorage.setItem('token_expires_at', signedIn.expires_at);
    window.localStorage.setItem('user', JSON.stringify(signedIn.user));
  }, session);
}

/** Page object for the sign-up, sign-in and sign-out screens (role and label locators only). */
export class AccountPages {
  constructor(private readonly page: Page) {}

  async register(account: NewAccount) {
    await this.page.goto('/register');
    await this.page.getByLabel('Email', { exact: true }).fill(account.email);
    await this.page.getByLabel('Username', { exact: true }).fill(account.username);
    await this.page.getByLabel('Password', { exact: true }).fill(account.password);
    await this.page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
    await this.page.getByRole('button', { name: 'Create Account' }).click();
    await expect(this.page).toHaveURL(/\/dashboard$/);
  }

  async fillSignIn(email: string, password: string) {
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign In' }).click();
  }

  async signIn(email: string, password: string) {
    await this.page.goto('/login');
    await this.fillSignIn(email, password);
    await expect(this.page).toHaveURL(/\/dashboard$/);
  }

  async signOut() {
    await this.page.getByTestId('user-menu-button').click();
    await this.page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
