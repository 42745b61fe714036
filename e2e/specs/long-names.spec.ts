import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { AccountPages } from '../support/accounts';
import { api, upgradeTo } from '../support/api';
import { screenshotDir } from '../support/screenshots';
import { dismissToasts } from '../support/toasts';

/** The page is no wider than the phone: nothing of it (the account menu, a dialog) is off to the right. */
async function expectNoSidewaysScroll(page: Page, name: string) {
  await dismissToasts(page);
  await page.screenshot({ path: path.join(screenshotDir, `long-names-${name}-375.png`), fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(375);
}

/** Every role badge shows its whole word, not "PL…" or a bare dot squeezed by the name beside it. */
async function expectWholeRoleBadges(page: Page) {
  const badges = page.getByTestId('party-role-badge');
  await expect(badges.first()).toBeVisible();
  for (const badge of await badges.all()) {
    const clipped = await badge.evaluate((el) => {
      const label = el.querySelector('.mantine-Badge-label') ?? el;
      return label.scrollWidth > label.clientWidth + 1 || label.clientWidth < 12;
    });
    expect(clipped, `the badge "${await badge.textContent()}" is cut`).toBe(false);
  }
}

test('the longest names a user may choose fit a phone: username, party, character and shop trail', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const suffix = randomBytes(2).toString('hex');
  // 30 characters, the most a username may have.
  const username = `gandalf_the_grey_wanderer_${suffix}`;
  await new AccountPages(page).register({
    email: `${username}@example.com`,
    username,
    password: 'Adventure1',
  });
  await upgradeTo(page, 'tier_1');
  const partyName = 'The Fellowship of the Extremely Long Party Name That Goes On And On Around The Ring';
  const party = await api<{ id: string }>(page, 'POST', '/parties', { party: { name: partyName } });
  const character = await api<{ id: string }>(page, 'POST', '/characters', {
    character: { name: 'Vexanderalathiel Nightwhisperingshadow', party_id: party.id },
  });
  const [store] = await api<{ id: string }[]>(page, 'GET', '/shop_templates?search=Wayfarer');
  if (!store) throw new Error('the General Store is not seeded');
  const shop = await api<{ id: string }>(page, 'POST', '/shop_instances', {
    shop_instance: { shop_template_id: store.id, party_id: party.id },
  });

  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-heading')).toContainText(username);
  await expect(page.getByTestId('party-role-badge').first()).toHaveText('GM');
  await expectNoSidewaysScroll(page, 'dashboard');
  await expectWholeRoleBadges(page);
  await expect(page.getByTestId('user-menu-button')).toBeInViewport();

  await page.goto('/parties');
  await expect(page.getByRole('heading', { level: 1, name: 'My Parties' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'parties');
  await expectWholeRoleBadges(page);

  await page.goto(`/parties/${party.id}`);
  await expect(page.getByRole('heading', { level: 1, name: partyName })).toBeVisible();
  await expectNoSidewaysScroll(page, 'party');

  await page.goto(`/characters/${character.id}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vexanderalathiel Nightwhisperingshadow' }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page, 'character');

  await page.goto(`/shops/instances/${shop.id}`);
  await expect(page.getByRole('link', { name: partyName })).toBeVisible();
  await expectNoSidewaysScroll(page, 'shop');
  await expect(page.getByTestId('user-menu-button')).toBeInViewport();
  await context.close();
});
