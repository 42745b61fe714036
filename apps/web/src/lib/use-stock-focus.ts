import { useLayoutEffect, useRef } from 'react';

/** What a row's button (Buy, Sell, Take, Claim) takes to keep focus in the list. */
export interface TradeButtonFocus {
  ref: (button: HTMLButtonElement | null) => void;
  onFocus: () => void;
}

/**
 * Keeps keyboard focus in a list of stacks (WCAG 2.4.3): the shop's stock with its Buy buttons, my items
 * with their Sell buttons, a loot's contents with their Take and Claim buttons. When the row's dialog
 * closes, focus goes back to the button that opened it: Mantine's own return finds nothing to focus once
 * that button was disabled mid-trade, or was removed with its row. When that row is gone (the last Sack was
 * bought, a whole stack was sold or claimed), then or later, focus goes to the same button of the row now
 * in its place, else of the one before, else to the list itself, instead of falling to the page. `list`
 * is whatever takes the focus once no row is left: the list's box, or a button next to it (Create token).
 */
export function useStockFocus<List extends HTMLElement = HTMLDivElement>(
  keys: readonly string[],
  tradeOpen: boolean,
) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const list = useRef<List>(null);
  const focused = useRef<{ key: string; index: number; slot: string } | null>(null);
  const wasOpen = useRef(tradeOpen);
  const props = useRef(new Map<string, TradeButtonFocus>());

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
    const target =
      (key === undefined ? undefined : buttons.current.get(buttonId(key, last.slot))) ?? list.current;
    target?.focus();
  });

  return {
    list,
    /**
     * Props of the button of the row `key` at `index`. A row with several buttons names each by a `slot`
     * ('take', 'claim'): focus then comes back to the same one, in this row or the one that took its place.
     */
    tradeButton: (key: string, index: number, slot = ''): TradeButtonFocus => {
      // The same props for the same button on every render: a memoised row (a shop's or a loot's 100
      // lines) is then not drawn again when a dialog opens, and React does not detach and attach each
      // button's ref on every render.
      const id = `${buttonId(key, slot)}\n${index}`;
      const kept = props.current.get(id);
      if (kept) return kept;
      const made: TradeButtonFocus = {
        ref: (button: HTMLButtonElement | null) => {
          if (button) buttons.current.set(buttonId(key, slot), button);
          else buttons.current.delete(buttonId(key, slot));
        },
        onFocus: () => {
          focused.current = { key, index, slot };
        },
      };
      props.current.set(id, made);
      return made;
    },
  };
}

/** One row's button among its others (a newline is in no row's key). */
const buttonId = (key: string, slot: string) => `${key}\n${slot}`;
