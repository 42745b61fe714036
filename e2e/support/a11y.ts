import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import axe from 'axe-core';
import { picturesWanted, screenshotBothWidths, screenshotDir } from './screenshots';
import { settleAnimations } from './settle';
import { dismissToasts } from './toasts';

/**
 * What the builder evaluates for axe's source once `putAxeIn` has put axe in the page: nothing. The
 * builder's legacy mode evaluated axe's whole source (about 550 KB) twice on every check, once to begin
 * and once more to inject it, each 0.1 to 1 s on 2 cores, and again on each later check of a page that
 * had not loaded since (a dialog, then the page behind it; a theme switch).
 */
const AXE_ALREADY_IN_PAGE = ';';

/** Evaluates axe's source in each of the page's frames that does not have it yet (a load clears it). */
async function putAxeIn(page: Page) {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  }
}

async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default opens a blank page for every check to merge the
  // frames' results in, which took half of each check's 2–3 s (our pages have no cross-origin frames for
  // it to reach). Only the violations are read, so axe builds no selectors for the passing nodes.
  // (`options` replaces what `withTags` set: it goes first.)
  await putAxeIn(page);
  const builder = new AxeBuilder({ page, axeSource: AXE_ALREADY_IN_PAGE });
  if (within) builder.include(within);
  const results = await builder
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * DESIGN §8: an axe check on every page visited; serious and critical violations fail the test.
 * A toast may start fading out while axe runs and fail colour contrast only by timing, so a page that
 * fails is settled and checked once more: a real violation fails both times.
 */
export async function expectAccessible(page: Page, label: string) {
  await settleAnimations(page);
  let violations = await seriousViolations(page);
  if (violations.length > 0) {
    await settleAnimations(page);
    violations = await seriousViolations(page);
  }
  expect(violations, `axe on ${label}`).toEqual([]);
}

/**
 * One part of the page checked on its own, while the rest is in a state axe cannot judge: during a drag,
 * the item picked up is drawn faded in its place, on purpose.
 */
export async function expectPartAccessible(page: Page, selector: string, label: string) {
  await settleAnimations(page);
  expect(await seriousViolations(page, selector), `axe on ${label}`).toEqual([]);
}

/**
 * A dialog checked and pictured on its own: while it is open the page behind is dimmed by the overlay and
 * out of reach (focus stays in the dialog), so axe's contrast verdicts on the dimmed page say nothing.
 */
export async function expectDialogAccessible(page: Page, dialog: Locator, name: string) {
  await settleAnimations(page);
  // A hovered button changes colour: check the dialog at rest.
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page, '[role="dialog"]'), `axe on ${name}`).toEqual([]);
  await expect(dialog).toBeVisible();
  if (picturesWanted) {
    await page.screenshot({
      path: path.join(screenshotDir, `${name}-${page.viewportSize()?.width ?? 1280}.png`),
    });
  }
}

/**
 * A page checked and pictured as a user finds it: one title (h1), no toasts over it, the pointer off its
 * buttons, axe's verdict, and a full-page screenshot at phone and desktop widths (unless `bothWidths`
 * is false).
 */
export async function checkPage(page: Page, name: string, { bothWidths = true } = {}) {
  await expect(page.getByRole('heading', { level: 1 }), `one h1 on ${name}`).toHaveCount(1);
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page, name);
  if (bothWidths) await screenshotBothWidths(page, name);
}
