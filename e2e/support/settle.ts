import type { Page } from '@playwright/test';

/**
 * Waits for fonts and for finite CSS transitions and animations (a modal fading in, the navbar
 * sliding) to end. Infinite ones (loaders, the live indicator's pulse) never finish, so they are left,
 * and so are scroll-driven ones (a wide table's edge shadows): they run on a scroll timeline, not on
 * time, and finish only when the table is scrolled to its end.
 */
export async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document
      .getAnimations()
      .filter(
        (animation) =>
          animation.timeline === document.timeline &&
          animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
      );
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** The inventory workspace's device class (spec/02 §9 breakpoints) for a viewport width. */
function deviceClassFor(width: number) {
  if (width < 768) return 'mobile';
  if (width < 1024) return 'tablet';
  return 'desktop';
}

/**
 * The workspace adopts a new width only after its 150 ms resize debounce (spec/02 §9); wait until
 * it shows the layout for this width, when it is on the page.
 */
export async function settleWorkspaceLayout(page: Page, width: number) {
  const expected = deviceClassFor(width);
  await page.waitForFunction((device) => {
    const workspace = document.querySelector('[data-testid="inventory-workspace"]');
    return workspace === null || workspace.getAttribute('data-device') === device;
  }, expected);
}
