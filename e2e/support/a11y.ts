import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { settleAnimations } from './settle';

/** DESIGN §8: an axe check on every page visited; serious and critical violations fail the test. */
export async function expectAccessible(page: Page, label: string) {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `axe on ${label}`,
  ).toEqual([]);
}
