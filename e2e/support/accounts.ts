import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

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
