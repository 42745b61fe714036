import { expect, type Locator, type Page } from '@playwright/test';

/** How many touchMove events a drag sends between its start and its end. */
const MOVE_STEPS = 10;

/**
 * Drags one finger from `from` by (dx, dy) CSS pixels with real touch input (CDP
 * Input.dispatchTouchEvent): touchStart, several touchMoves, touchEnd. The browser turns them into
 * touch and pointer events (pointerType "touch") and applies `touch-action`, as on a phone. The page's
 * context must have `hasTouch: true`.
 */
export async function touchDrag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let step = 1; step <= MOVE_STEPS; step += 1) {
      const t = step / MOVE_STEPS;
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: from.x + dx * t, y: from.y + dy * t }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

/**
 * A swipe across the middle of `locator` by `dx` CSS pixels (negative: to the left) and, optionally,
 * `dy` (for a vertical drag). The finger starts on the element's middle line, half of `dx` before its
 * centre, so a sideways swipe stays inside the element's width.
 */
export async function swipe(page: Page, locator: Locator, dx: number, dy = 0) {
  let start = { x: 0, y: 0 };
  let previousY: number | null = null;
  await expect
    .poll(
      async () => {
        // Away from sticky bars and fixed headers, which would take the touch instead. A fling left by
        // an earlier vertical drag may still be scrolling the page: place the row again on every try and
        // start only once it stays where it is.
        await locator.evaluate((element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
        const box = await locator.boundingBox();
        if (!box) return false;
        const settled = previousY === box.y;
        previousY = box.y;
        start = { x: box.x + box.width / 2 - dx / 2, y: box.y + box.height / 2 };
        const free = await locator.evaluate(
          (element, point) => element.contains(document.elementFromPoint(point.x, point.y)),
          start,
        );
        return settled && free;
      },
      { message: 'the swipe starts on the element, with nothing over it', intervals: [100, 100, 250] },
    )
    .toBe(true);
  await touchDrag(page, start, dx, dy);
}
