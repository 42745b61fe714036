/** Marks the measuring function installed below, so that a worker's files (isolate: false) install it once. */
const chartsLaidOut = Symbol.for('haversack.chartsLaidOut');

/**
 * Gives charts' responsive containers a size, as a browser would (happy-dom lays nothing out), so they draw
 * and recharts does not warn "The width(0) and height(0) of chart should be greater than 0". Installed by the
 * test setup for every test, not a spy: restoreMocks would take a spy away after the first test, and a test
 * that forgot to ask for it again printed the warning. Only recharts' containers are measured differently.
 */
export function layOutCharts(): void {
  const measure = HTMLElement.prototype.getBoundingClientRect;
  if ((measure as unknown as Record<symbol, boolean>)[chartsLaidOut]) return;
  const measureCharts = function (this: HTMLElement): DOMRect {
    return this.classList.contains('recharts-responsive-container')
      ? DOMRect.fromRect({ width: 600, height: 220 })
      : measure.call(this);
  };
  Object.assign(measureCharts, { [chartsLaidOut]: true });
  HTMLElement.prototype.getBoundingClientRect = measureCharts;
}
