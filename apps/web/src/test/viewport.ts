import { afterEach, vi } from 'vitest';

/** happy-dom's own window API: its media queries answer to this viewport (setting innerWidth moves none). */
interface HappyDomWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}
const isHappyDom = (candidate: object): candidate is HappyDomWindow => 'happyDOM' in candidate;

export function setViewport(width: number, height: number) {
  if (!isHappyDom(window)) throw new Error('These tests need happy-dom’s viewport.');
  window.happyDOM.setViewport({ width, height });
}

/**
 * Puts the viewport back after each test of the calling file: test files share a worker, and the next one
 * expects the viewport this one started with.
 */
export function restoreViewportAfterEach() {
  const initial = { width: window.innerWidth, height: window.innerHeight };
  afterEach(() => setViewport(initial.width, initial.height));
}

/**
 * A window whose media queries answer `matches(query)`, for components that ask `matchMedia`; undo it with
 * `vi.unstubAllGlobals()` after each test.
 */
export function stubMediaQueries(matches: (query: string) => boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/**
 * A phone's window for components that ask `matchMedia` (the layout's `(max-width: 47.99em)` query
 * matches); undo it with `vi.unstubAllGlobals()` after each test.
 */
export function stubPhoneWidth() {
  stubMediaQueries((query) => query.includes('max-width: 47.99em'));
}
