import { expect, test } from '@playwright/test';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { withMotion } from '../support/motion';

// Every transition drawn: the phone and drag flows are where motion meets the finger.
test.use(withMotion);

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('a page chosen in the navigation menu by keyboard takes the focus on its heading', async ({
    page,
  }) => {
    await signUpThroughApi(page, newAccount('phonenav'));
    await page.goto('/dashboard');
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await burger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('navigation', { name: 'Main' });
    const parties = menu.getByRole('link', { name: 'Parties' });
    await expect(parties).toBeVisible();
    await parties.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/parties$/);
    // The menu closes (inert, off-screen) and takes the focused link with it: the new page's h1 has it.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  });

  test('the navigation button is a finger’s width (44 px) square', async ({ page }) => {
    await signUpThroughApi(page, newAccount('phoneburger'));
    await page.goto('/dashboard');
    const box = await page.getByRole('button', { name: 'Open navigation' }).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
  });
});

test.describe('on a phone held sideways', () => {
  test.use({ viewport: { width: 667, height: 375 }, hasTouch: true, isMobile: true });

  test('the navigation menu shows that it scrolls, and its last link is reached', async ({ page }) => {
    await signUpThroughApi(page, newAccount('sideways'));
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Open navigation' }).tap();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    // 375 px less the header holds five of the eleven links, cut cleanly after the fifth: nothing said
    // that My Content, Shops, Loot, Subscription, Notifications and Profile were below (review "tablet").
    // A touch screen never hovers, so the scroll bar has to be there without it.
    const scrollbar = menu.locator('.mantine-ScrollArea-scrollbar[data-orientation="vertical"]');
    await expect(scrollbar).toBeVisible();
    const profile = menu.getByRole('link', { name: 'Profile' });
    await profile.scrollIntoViewIfNeeded();
    await profile.tap();
    await expect(page).toHaveURL(/\/profile$/);
  });
});
