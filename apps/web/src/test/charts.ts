import { vi } from 'vitest';

/** Gives charts' responsive containers a size, as a browser would (jsdom lays nothing out), so they draw. */
export function layOutCharts() {
  const measure = HTMLElement.prototype.getBoundingClientRect;
  return vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.classList.contains('recharts-responsive-container')
      ? DOMRect.fromRect({ width: 600, height: 220 })
      : measure.call(this);
  });
}
