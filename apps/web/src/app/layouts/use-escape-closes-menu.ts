import { useFocusTrap, useWindowEvent } from '@mantine/hooks';
import { useRef } from 'react';

/**
 * On a phone the open navigation covers the page as a drawer does, and behaves as one: the keyboard moves
 * into it and Tab cycles through its links (Mantine's focus trap on `menuRef`), the layout makes the page
 * under it inert (`coversPage`: Tab used to go on to "Back to …" hidden beneath), and Escape pressed
 * anywhere closes it, the keyboard going back to the burger rather than staying on a link now inert.
 */
export function useEscapeClosesMenu({
  open,
  isMobile,
  close,
}: {
  open: boolean;
  isMobile: boolean;
  close: () => void;
}) {
  const burgerRef = useRef<HTMLButtonElement>(null);
  const coversPage = open && isMobile;
  const menuRef = useFocusTrap(coversPage);
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape' || !coversPage || event.defaultPrevented) return;
    close();
    burgerRef.current?.focus();
  });
  return { burgerRef, menuRef, coversPage };
}
