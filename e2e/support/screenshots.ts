import path from 'node:path';
import type { Page } from '@playwright/test';
import { settleAnimations, settleWorkspaceLayout } from './settle';

export const screenshotDir = path.resolve(import.meta.dirname, '..', '.output', 'screenshots');

/** A full-page screenshot of the current page at phone (375 px) and desktop (1280 px) widths. */
export async function screenshotBothWidths(page: Page, name: string) {
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    // Resizing starts layout changes (the navbar slides, the workspace switches layout); wait for them.
    await settleWorkspaceLayout(page, width);
    await settleAnimations(page);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}
