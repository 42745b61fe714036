import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { settleAnimations, settleWorkspaceLayout } from './settle';

export const screenshotDir = path.resolve(import.meta.dirname, '..', '.output', 'screenshots');

/**
 * A full-page screenshot of the current page at phone (375 px) and desktop (1280 px) widths; at 375 px the
 * page must not be wider than the screen (a table or a code may scroll inside its own box, the page not).
 */
export async function screenshotBothWidths(page: Page, name: string) {
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    // Resizing starts layout changes (the navbar slides, the workspace switches layout); wait for them.
    await settleWorkspaceLayout(page, width);
    await settleAnimations(page);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth, `${name} at ${width} px is ${pageWidth} px wide`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(original);
}
