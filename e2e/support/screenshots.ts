import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { settleAnimations, settleWorkspaceLayout } from './settle';

export const screenshotDir = path.resolve(import.meta.dirname, '..', '.output', 'screenshots');

/**
 * The pictures are for people to open; CI keeps none of them, and full-page captures were about a twelfth
 * of the end-to-end run there (docs/decisions.md). E2E_SCREENSHOTS=1 takes them under CI too. Every check
 * around them (the widths, the layout settling, axe) runs either way.
 */
export const picturesWanted = !process.env.CI || process.env.E2E_SCREENSHOTS === '1';

/**
 * A picture of the page as it is, written to `file` (under `screenshotDir` unless absolute) when pictures
 * are wanted (see `picturesWanted`); under CI it takes nothing and checks nothing, like the pictures of
 * `checkPage`. The specs' own pictures (a dialog, a menu, a bottom sheet) go through it.
 */
export async function picture(page: Page, file: string, { fullPage = false } = {}) {
  if (!picturesWanted) return;
  await page.screenshot({ path: path.resolve(screenshotDir, file), fullPage });
}

/**
 * A full-page screenshot (see `picturesWanted`) of the current page at phone (375 px) and desktop (1280 px) widths; at 375 px the
 * page must not be wider than the screen (a table or a code may scroll inside its own box, the page not).
 */
export async function screenshotBothWidths(page: Page, name: string) {
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    // Resizing starts layout changes (the navbar slides, the workspace switches layout); wait for them.
    await settleWorkspaceLayout(page, width);
    await settleAnimations(page);
    if (picturesWanted) {
      await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
    }
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth, `${name} at ${width} px is ${pageWidth} px wide`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(original);
  // And back: the workspace takes its width again only after its 150 ms debounce, so a tap made at once
  // (a phone's Sell, on CI's loaded machine) could land on the layout it was leaving.
  await settleWorkspaceLayout(page, original.width);
  await settleAnimations(page);
}
