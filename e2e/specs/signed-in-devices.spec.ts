import { expect, test } from '@playwright/test';
import { checkPage } from '../support/a11y';
import { AccountPages, newAccount, signUpThroughApi } from '../support/accounts';

const androidPhone =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

test('a player signs a phone left at a friend’s table out from the laptop; the phone is sent to sign in', async ({
  browser,
}) => {
  const laptopContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const laptop = await laptopContext.newPage();
  const account = newAccount('careful');
  await signUpThroughApi(laptop, account);

  // The same account on a phone, signed in through the screens.
  const phoneContext = await browser.newContext({
    viewport: { width: 375, height: 812 },
    userAgent: androidPhone,
    hasTouch: true,
    isMobile: true,
  });
  const phone = await phoneContext.newPage();
  await new AccountPages(phone).signIn(account.email, account.password);
  await phone.goto('/characters');

  await laptop.goto('/profile');
  const devices = laptop.getByRole('region', { name: 'Signed-in devices' });
  const phoneRow = devices.getByTestId('signed-in-device').filter({ hasText: 'Chrome on Android' });
  await expect(phoneRow).toBeVisible();
  await expect(devices.getByTestId('signed-in-device').first()).toContainText('This device');
  await checkPage(laptop, 'profile-signed-in-devices');

  await phoneRow.getByRole('button', { name: /^Sign out Chrome on Android/ }).click();
  await expect(laptop.getByText('Chrome on Android has been signed out.')).toBeVisible();
  await expect(phoneRow).toHaveCount(0);
  await expect(devices.getByText('No other device is signed in.')).toBeVisible();
  // API tokens are not devices: the section says they keep working and links to where they are revoked.
  await devices.getByRole('link', { name: 'API tokens' }).click();
  await expect(laptop).toHaveURL(/\/profile#api-tokens$/);
  await expect(laptop.getByRole('heading', { level: 2, name: 'API tokens' })).toBeInViewport();

  // The phone's tokens no longer work: its next page load ends at the sign-in screen.
  await phone.reload();
  await expect(phone).toHaveURL(/\/login/);
  // The laptop stays signed in.
  await laptop.reload();
  await expect(laptop.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  await laptopContext.close();
  await phoneContext.close();
});
