import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { APP_NAME } from '../lib/page-title';

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

/**
 * What a new page is called: its h1, else the document's title without the app's name; null while the page
 * still loads (its heading inside an aria-busy region, "Loading party").
 */
function pageName(): string | null {
  const heading = document.querySelector('main h1') ?? document.querySelector('h1');
  if (heading?.closest('[aria-busy="true"]')) return null;
  return heading?.textContent?.trim() || document.title.replace(` · ${APP_NAME}`, '').trim() || null;
}

/** How often the new page's name is read until it holds still, and how many times at most. */
const NAME_CHECK_MS = 250;
const NAME_CHECKS = 40;

/** Longer than a drawer's or a modal's closing transition (Mantine's 200 ms and its focus return). */
const DIALOG_CLOSING_MS = 400;

// ScrollRestoration owns the scroll position (restored on Back): focusing must not move it.
const focusQuietly = (element: HTMLElement | null) => element?.focus({ preventScroll: true });

/**
 * A move to another page says nothing to a screen reader, and when the control that made it (a form's
 * submit button) went with the old page, focus falls to <body> and the keyboard starts again from the top.
 * Then the new page's h1 takes the focus, so it is read out. Focus on something still there (a sidebar
 * link, a dialog) stays where it is; the first load and its redirects, where nothing had focus yet, and a
 * change of the query or hash alone, move nothing. Where the focus stays, the new page's name is said
 * politely instead, from a live region that is in the page from the start.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const shownPathname = useRef(pathname);
  const lastFocused = useRef<Element | null>(null);
  const [announcement, setAnnouncement] = useState('');

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
    if (!focusWasLost || !nothingFocused()) {
      // A sidebar or account-menu link keeps the focus: nothing would tell a screen reader the page changed.
      // Its name is said once it holds still (a loading page's heading gives way to the page's own).
      setAnnouncement('');
      if (lastFocused.current === null) return;
      let last: string | null = null;
      let checks = 0;
      const check = setInterval(() => {
        const name = pageName();
        checks += 1;
        if (name !== null && name === last) setAnnouncement(name);
        if ((name !== null && name === last) || checks >= NAME_CHECKS) clearInterval(check);
        last = name;
      }, NAME_CHECK_MS);
      return () => clearInterval(check);
    }

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

  return (
    <div className="haversack-visually-hidden" aria-live="polite" data-testid="route-announcer">
      {announcement}
    </div>
  );
}
