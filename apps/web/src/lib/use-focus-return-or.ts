import { useDidUpdate } from '@mantine/hooks';
import { type RefObject, useRef } from 'react';

/**
 * Mantine's `useFocusReturn` for a dialog drawn only while open, with somewhere to go when the button that
 * opened it can no longer take the focus back (WCAG 2.4.3): what the dialog did disabled it or removed it
 * (Distribute, once the loot is shared out). Focus then goes to `fallback` (a heading with tabIndex -1)
 * instead of falling to the page. As Mantine's, it waits a moment for the dialog to be gone, and only
 * moves focus that fell to the page or stayed where the dialog left it, never where the user moved it.
 */
export function useFocusReturnOr({
  opened,
  fallback,
}: {
  opened: boolean;
  fallback: RefObject<HTMLElement | null>;
}) {
  const opener = useRef<Element | null>(null);
  useDidUpdate(() => {
    if (opened) {
      opener.current = document.activeElement;
      return;
    }
    const atClose = document.activeElement;
    const timeout = window.setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active !== atClose) return;
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true });
      // A disabled button does not take it.
      if (document.activeElement !== back) fallback.current?.focus();
    }, 10);
    return () => window.clearTimeout(timeout);
  }, [opened]);
}
