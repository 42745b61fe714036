import { expect, type Page } from '@playwright/test';

/**
 * Clears the toasts before a screenshot or an axe check: they cover the top of a phone screen, and one
 * fading out while axe runs fails colour contrast by timing. Each is closed with its own Dismiss button
 * rather than waited out (3 to 7 s each, spec/01 §9); a toast that comes in meanwhile is closed too.
 */
export async function dismissToasts(page: Page) {
  const toasts = page.locator('[data-testid^="toast-"]');
  await expect(async () => {
    await page.evaluate(() => {
      document
        .querySelectorAll<HTMLButtonElement>(
          '[data-testid^="toast-"] button[aria-label="Dismiss notification"]',
        )
        .forEach((close) => {
          close.click();
        });
    });
    await expect(toasts).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
