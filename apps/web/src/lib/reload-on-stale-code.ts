/** When the last reload for stale code happened (sessionStorage): a second failure soon after is not one. */
const LAST_RELOAD_KEY = 'haversack_stale_code_reload';
const AGAIN_AFTER_MS = 10_000;

/**
 * A tab left open through a release still runs the old build; the next page it opens asks for that build's
 * file (`shop-instance-page-<oldhash>.js`), which the new release no longer has, and the page stayed
 * blank. Vite says so with `vite:preloadError`: the tab then loads the address it was going to (or the one
 * it is on) afresh, once, and gets the new release. A failure again within 10 s is left to the page's error ("could not be
 * loaded"), so that a file that is really missing does not reload the tab in a loop.
 */
export function reloadOnStaleCode(
  /** Where the tab was going (a navigation waits for its page's code before the address changes). */
  goingTo: () => string | null = () => null,
  load: (address: string) => void = (address) => window.location.assign(address),
): () => void {
  const onPreloadError = (event: Event) => {
    let last = 0;
    try {
      last = Number(window.sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0);
      if (Date.now() - last < AGAIN_AFTER_MS) return;
      window.sessionStorage.setItem(LAST_RELOAD_KEY, String(Date.now()));
    } catch {
      // No storage to remember it in: reload all the same, once per this page's life.
      window.removeEventListener('vite:preloadError', onPreloadError);
    }
    event.preventDefault();
    load(goingTo() ?? `${window.location.pathname}${window.location.search}${window.location.hash}`);
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => window.removeEventListener('vite:preloadError', onPreloadError);
}
