/**
 * A busy button (Mantine's `loading`) is disabled while its request runs, and the browser then drops the
 * keyboard focus to the page: after a refused sign-in or a saved profile the next Tab started again from
 * the top, and a screen reader said nothing. When a button that had the focus is enabled again and the
 * focus is still nowhere, it gets the focus back. Anything that took the focus meanwhile (a field in
 * error, a dialog, the next page's heading) keeps it.
 */
export function keepFocusThroughBusyButtons(root: HTMLElement = document.body): () => void {
  let lastFocused: Element | null = null;
  let busy: HTMLButtonElement | null = null;
  const onFocusIn = (event: FocusEvent) => {
    lastFocused = event.target instanceof Element ? event.target : null;
  };
  const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;
  const observer = new MutationObserver((records) => {
    for (const { target } of records) {
      if (!(target instanceof HTMLButtonElement)) continue;
      if (target.disabled) {
        if (target === lastFocused) busy = target;
      } else if (target === busy) {
        busy = null;
        if (target.isConnected && focusIsLost()) target.focus();
      }
    }
  });
  document.addEventListener('focusin', onFocusIn);
  observer.observe(root, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    document.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
  };
}
