import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { screenshotBothWidths } from '../support/screenshots';

/** Page object for the subscription screens (role, label and test-id locators only). */
class SubscriptionPages {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  planCard(identifier: string) {
    return this.page.getByTestId(`plan-${identifier}`);
  }

  usageSummary(resource: string) {
    return this.page.getByTestId(`usage-${resource}-summary`);
  }

  async checkPage(name: string) {
    await expectAccessible(this.page, name);
    await screenshotBothWidths(this.page, name);
  }
}

test('a free user compares plans, upgrades with local billing, cancels with a reason and reactivates', async ({
  page,
}) => {
  const subscription = new SubscriptionPages(page);
  await signUpThroughApi(page, newAccount('patron'));
  await page.goto('/dashboard');

  // The dashboard's plan card.
  await expect(page.getByTestId('plan-summary-name')).toHaveText('Free');
  await expect(page.getByTestId('plan-summary').getByTestId('usage-characters-summary')).toHaveText('0 / 1');
  await subscription.checkPage('dashboard-plan-card');

  // Compare: four plans, Free marked as the current one.
  await page.goto('/subscription/compare');
  await expect(subscription.heading()).toHaveText('Compare plans');
  await expect(page).toHaveTitle('Compare plans · Haversack');
  const plans = { tier_free: 'Free', tier_1: 'Adventurer', tier_2: 'Hero', tier_3: 'Legend' };
  for (const [identifier, name] of Object.entries(plans)) {
    await expect(subscription.planCard(identifier).getByRole('heading', { name })).toBeVisible();
  }
  await expect(subscription.planCard('tier_free').getByTestId('current-plan-badge')).toHaveText(
    'Current plan',
  );
  await expect(page.getByTestId('current-plan-badge')).toHaveCount(1);
  await expect(
    subscription.planCard('tier_1').getByRole('link', { name: 'Upgrade to Adventurer' }),
  ).toBeVisible();
  await subscription.checkPage('subscription-compare');

  // Upgrade from the characters limit, with the local provider.
  await page.goto('/subscription/upgrade?resource=characters');
  await expect(page.getByTestId('upgrade-explanation')).toHaveText(
    'You have used 0 of 1 character on the Free plan.',
  );
  await expect(page.getByTestId('upgrade-option-tier_1')).toContainText('Recommended');
  await expect(page.getByTestId('local-billing')).toHaveText('Local billing: no payment is taken');
  await subscription.checkPage('subscription-upgrade');
  await page.getByRole('button', { name: 'Upgrade to Adventurer — $5/month' }).click();

  await expect(page).toHaveURL(/\/subscription\/success\?previous_plan=tier_free&session_id=local_/);
  await expect(subscription.heading()).toHaveText('Thank you for upgrading');
  await expect(page.getByTestId('success-plan')).toContainText('You are on the Adventurer plan');
  await subscription.checkPage('subscription-success');

  await page.getByRole('link', { name: 'View your subscription' }).click();
  await expect(page).toHaveURL(/\/subscription$/);
  await expect(page.getByTestId('plan-name')).toHaveText('Adventurer');
  await expect(page.getByTestId('plan-status')).toHaveText('Active');
  await expect(subscription.usageSummary('characters')).toHaveText('0 / 5');
  await expect(page.getByTestId('plan-renewal')).toContainText(/Renews on \w+ \d{1,2}, \d{4}/);
  await subscription.checkPage('subscription');

  // Cancel at the end of the period, with a reason.
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
  await dialog.getByLabel(/Why are you cancelling/).fill('Our campaign is taking a break');
  // Adventurer has party collaboration and Free does not: the dialog says what the move takes away.
  await expect(dialog.getByTestId('cancel-ends-party-collaboration')).toContainText(
    'The Free plan does not include party collaboration.',
  );
  await expectAccessible(page, 'cancel subscription dialog');
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText('Your subscription will end at the close of the current period.').first(),
  ).toBeVisible();
  await expect(page.getByTestId('plan-ends')).toContainText(/Ends on \w+ \d{1,2}, \d{4}/);
  await expect(page.getByTestId('plan-status')).toHaveText(/^Ends \w+ \d{1,2}$/);
  await expect(page.getByTestId('plan-name')).toHaveText('Adventurer');
  await subscription.checkPage('subscription-cancelled');

  // Reactivate.
  await page.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByTestId('plan-renewal')).toContainText(/Renews on \w+ \d{1,2}, \d{4}/);
  await expect(page.getByTestId('plan-ends')).toBeHidden();
  await expect(page.getByTestId('plan-status')).toHaveText('Active');

  // The other colour scheme must pass the same checks.
  await page.getByTestId('theme-toggle').click();
  await subscription.checkPage('subscription-other-theme');
  await page.goto('/subscription/compare');
  await expect(subscription.planCard('tier_1').getByTestId('current-plan-badge')).toBeVisible();
  await subscription.checkPage('subscription-compare-other-theme');
});

test('an upgrade link that names nothing known leads to the comparison', async ({ page }) => {
  await signUpThroughApi(page, newAccount('lost'));
  await page.goto('/subscription/upgrade?feature=time_travel');
  await expect(page.getByTestId('upgrade-unknown')).toBeVisible();
  await page.getByRole('link', { name: 'Compare all plans' }).click();
  await expect(page).toHaveURL(/\/subscription\/compare$/);
});

test('an upgrade with demo billing stays on the address the app was opened at, signed in', async ({
  browser,
  baseURL,
}) => {
  // The server's APP_URL is http://127.0.0.1:PORT; a player who opened it as http://localhost:PORT (or a
  // phone at the laptop's LAN address) has their session in that origin's storage only.
  const otherAddress = String(baseURL).replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: otherAddress, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signUpThroughApi(page, newAccount('elsewhere'));
  await page.goto('/subscription/upgrade?tier=tier_2');
  await page.getByRole('button', { name: /^Upgrade to Hero/ }).click();
  await expect(page).toHaveURL(
    new RegExp(`^${otherAddress}/subscription/success\\?previous_plan=tier_free&session_id=local_`),
  );
  await expect(page.getByTestId('success-plan')).toContainText('You are on the Hero plan');

  // A move down from the comparison is a plan change, not an upgrade, on the way there and back.
  await page.goto('/subscription/compare');
  await page.getByTestId('plan-tier_1').getByRole('link', { name: 'Switch to Adventurer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Switch to a lower plan');
  await page.getByRole('button', { name: 'Switch to Adventurer — $5/month' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Switch to Adventurer', exact: true }).click();
  await expect(page.getByTestId('success-plan')).toContainText('You are on the Adventurer plan');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your plan has changed');
  await expect(page).toHaveTitle('Plan change complete · Haversack');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your plan has changed');
  await context.close();
});
