/** When the last reload for stale code happened (sessionStorage): a second failure soon after is not one. */
const LAST_RELOAD_KEY = 'haversack_stale_code_reload';
const AGAIN_AFTER_MS = 10_000;

/** Whether the server answers now: the app's own page, never from a cache. */
async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch('/', { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

export interface StaleCodeChecks {
  /** Whether the browser thinks it is online (`navigator.onLine`). */
  online: () => boolean;
  /** Whether the server answers a request now. */
  serverAnswers: () => Promise<boolean>;
}

const browserChecks: StaleCodeChecks = { online: () => navigator.onLine, serverAnswers };

/**
 * A tab left open through a release still runs the old build; the next page it opens asks for that build's
 * file (`shop-instance-page-<oldhash>.js`), which the new release no longer has, and the page stayed
 * blank. Vite says so with `vite:preloadError`. The same event comes when the file could not be fetched
 * because the server or the network is down; a reload then would lose the app (and whatever was typed) to
 * the browser's "site can't be reached". So the failure is always left to the route's error panel (spec/01
 * §2: it names the page and advises a refresh), and only when the browser is online and the server answers
 * is it stale code: the tab then loads the address it was going to afresh, once, and gets the new release.
 * A failure again within 10 s stays on the error panel, so that a file that is really missing does not
 * reload the tab in a loop.
 */
export function reloadOnStaleCode(
  /** Where the tab was going (a navigation waits for its page's code before the address changes). */
  goingTo: () => string | null = () => null,
  load: (address: string) => void = (address) => window.location.assign(address),
  checks: StaleCodeChecks = browserChecks,
): () => void {
  let stopped = false;
  const reloadedRecently = () => {
    try {
      return Date.now() - Number(window.sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0) < AGAIN_AFTER_MS;
    } catch {
      return false;
    }
  };
  const onPreloadError = () => {
    if (!checks.online() || reloadedRecently()) return;
    // Read now: once the failed navigation settles, the router is going nowhere.
    const address =
      goingTo() ?? `${window.location.pathname}${window.location.search}${window.location.hash}`;
    void checks.serverAnswers().then((answers) => {
      if (!answers || stopped || reloadedRecently()) return;
      try {
        window.sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
      } catch {
        // No storage to remember it in: reload all the same, once per this page's life.
        stop();
      }
      load(address);
    });
  };
  const stop = () => {
    stopped = true;
    window.removeEventListener('vite:preloadError', onPreloadError);
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return stop;
}
