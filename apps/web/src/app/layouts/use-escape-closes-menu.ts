import { type KeyboardEvent, useRef } from 'react';

/**
 * On a phone the open navigation covers the page as a drawer would: Escape, on the burger or in the menu,
 * closes it as it closes a drawer, and the keyboard goes back to the burger rather than stay on a link
 * that is now inert.
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
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !isMobile || !open) return;
    close();
    burgerRef.current?.focus();
  };
  return { burgerRef, onKeyDown };
}
