import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { loadAuthSchemas } from '../lib/auth-schemas-loader';
import { forgetSignOutHere } from '../lib/session-end-note';
import { forgetAllUnanswered } from '../lib/unanswered-changes';
import { initialAuthState, useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { layOutCharts } from './charts';

// findBy*/waitFor give up after 1 s by default: on a busy 2-core machine a modal or a lazy page can take
// longer than that to appear (CI once took past 5 s for a mutation and the list asked again after it).
// They still resolve as soon as the element is there.
configure({ asyncUtilTimeout: 10_000 });

// The same for vitest's own vi.waitFor, whose default is 1 s (a test that names its timeout keeps it).
// Wrapped once per worker: test files share one (isolate: false) and each runs this setup.
const waitForWithRoom = Symbol.for('haversack.waitForWithRoom');
if (!(vi.waitFor as unknown as Record<symbol, boolean>)[waitForWithRoom]) {
  const original = vi.waitFor;
  const withRoom: typeof vi.waitFor = (callback, options) =>
    original(callback, typeof options === 'number' ? options : { timeout: 10_000, ...options });
  Object.assign(withRoom, { [waitForWithRoom]: true });
  vi.waitFor = withRoom;
}

// Mantine reads media queries and observes element sizes; happy-dom provides neither.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: window.ResizeObserver });

window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};

layOutCharts();

// Unit tests have no server. A call no test answered fails at once, as it would offline, naming its
// address; before, it went to happy-dom's origin (127.0.0.1:3000), printed ECONNREFUSED into the run, and
// would have reached whatever else listened there. data: and blob: addresses still load.
const documentFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (/^(data|blob):/.test(url)) return documentFetch(input, init);
  return Promise.reject(new TypeError(`Failed to fetch: no test answered ${url}`));
};

// The app loads the session's schemas on demand (a chunk of their own, issue 13 §1); a test on fake timers
// cannot wait for a module to load, so they are in before any test starts, as after the first sign-in.
await loadAuthSchemas();

const uiInitial = useUiStore.getState();

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  forgetAllUnanswered();
  forgetSignOutHere();
  useAuthStore.setState(initialAuthState, true);
  useUiStore.setState(uiInitial, true);
});

afterEach(() => {
  cleanup();
  // Test files share a worker (isolate: false): a toast left in Mantine's store would be drawn by the next
  // file's <Notifications />.
  notifications.clean();
  notifications.cleanQueue();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
