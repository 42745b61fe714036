import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const nothingFocused = () => document.activeElement === null || document.activeElement === document.body;

/**
 * Where a screen reader should start on a new page: its h1, else its main region. Neither is focusable of
 * itself; tabindex -1 lets a script focus it without adding a stop to the tab order.
 */
function pageStart(): HTMLElement | null {
  const main = document.querySelector('main');
  const start = main?.querySelector('h1') ?? main ?? document.querySelector('h1');
  if (start && !start.hasAttribute('tabindex')) start.tabIndex = -1;
  return start;
}

/** Longer than a drawer's or a modal's closing transition (Mantine's 200 ms and its focus return). */
const DIALOG_CLOSING_MS = 400;

// ScrollRestoration owns the scroll position (restored on Back): focusing must not move it.
const focusQuietly = (element: HTMLElement | null) => element?.focus({ preventScroll: true });

/**
 * A move to another page says nothing to a screen reader, and when the control that made it (a form's
 * submit button) went with the old page, focus falls to <body> and the keyboard starts again from the top.
 * Then the new page's h1 takes the focus, so it is read out. Focus on something still there (a sidebar
 * link, a dialog) stays where it is; the first load and its redirects, where nothing had focus yet, and a
 * change of the query or hash alone, move nothing.
 */
export function RouteFocus(): null {
  const { pathname } = useLocation();
  const shownPathname = useRef(pathname);
  const lastFocused = useRef<Element | null>(null);

  useEffect(() => {
    const remember = (event: FocusEvent) => {
      if (event.target instanceof Element) lastFocused.current = event.target;
    };
    document.addEventListener('focusin', remember);
    return () => document.removeEventListener('focusin', remember);
  }, []);

  useEffect(() => {
    if (pathname === shownPathname.current) return;
    shownPathname.current = pathname;
    // A link in a dialog, or in a menu that closes once a page is chosen in it (the phone's navigation, marked
    // data-closes-on-navigation), is still there as the page changes, but the dialog or menu closes after it,
    // hidden or inert, and the focus falls to <body> then: the page start takes it once it has.
    if (lastFocused.current?.closest('[role="dialog"], [data-closes-on-navigation]')) {
      const afterClosing = setTimeout(() => {
        if (nothingFocused()) focusQuietly(pageStart());
      }, DIALOG_CLOSING_MS);
      return () => clearTimeout(afterClosing);
    }
    const focusWasLost = lastFocused.current !== null && !lastFocused.current.isConnected;
    if (!focusWasLost || !nothingFocused()) return;

    let start = pageStart();
    focusQuietly(start);
    // A page still loading has a heading of its own ("Loading party"), replaced with the page's when the
    // data arrives: the focus goes with it, so the new heading takes it, until the user moves it elsewhere.
    const observer = new MutationObserver(() => {
      if (start?.isConnected || !nothingFocused()) return;
      start = pageStart();
      focusQuietly(start);
    });
    const stopOnceFocusMoves = (event: FocusEvent) => {
      if (event.target !== start) observer.disconnect();
    };
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', stopOnceFocusMoves);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', stopOnceFocusMoves);
    };
  }, [pathname]);

  return null;
}
