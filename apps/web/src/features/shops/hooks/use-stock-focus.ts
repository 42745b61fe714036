import { useLayoutEffect, useRef } from 'react';

/** What a row's Buy or Sell button takes to keep focus in the list. */
export interface TradeButtonFocus {
  ref: (button: HTMLButtonElement | null) => void;
  onFocus: () => void;
}

/**
 * Keeps keyboard focus in a list of stacks to trade (WCAG 2.4.3): the shop's stock with its Buy buttons, or
 * my items with their Sell buttons. When the trade dialog closes, focus goes back to the button that opened
 * it: Mantine's own return finds nothing to focus once the dialog's button was disabled mid-trade, or was
 * removed with its row. When that row is gone (the last Sack was bought, a whole stack was sold), then or
 * later, focus goes to the button now in its place, else the one before, else the list itself, instead of
 * falling to the page.
 */
export function useStockFocus(keys: readonly string[], tradeOpen: boolean) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const list = useRef<HTMLDivElement>(null);
  const focused = useRef<{ key: string; index: number } | null>(null);
  const wasOpen = useRef(tradeOpen);

  useLayoutEffect(() => {
    const closed = wasOpen.current && !tradeOpen;
    wasOpen.current = tradeOpen;
    const last = focused.current;
    if (!last || tradeOpen) return;
    const gone = !keys.includes(last.key);
    const active = document.activeElement;
    // Only focus that fell to the page; never take it from wherever the user moved it.
    const lost = !active || active === document.body;
    if (!closed && !(gone && lost)) return;
    const key = gone ? keys[Math.min(last.index, keys.length - 1)] : last.key;
    const target = (key === undefined ? undefined : buttons.current.get(key)) ?? list.current;
    target?.focus();
  });

  return {
    list,
    /** Props of the Buy or Sell button of the row `key` at `index`. */
    tradeButton: (key: string, index: number): TradeButtonFocus => ({
      ref: (button: HTMLButtonElement | null) => {
        if (button) buttons.current.set(key, button);
        else buttons.current.delete(key);
      },
      onFocus: () => {
        focused.current = { key, index };
      },
    }),
  };
}
