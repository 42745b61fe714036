import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { settleAnimations } from './settle';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
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
