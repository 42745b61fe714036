import { useState } from 'react';

/**
 * A Mantine Select keeps its option list in the page, hidden, so that ArrowDown then Enter can choose an
 * option the moment the list opens (its keyboard handling looks the options up in the page). Kept from the
 * start, every hidden list is positioned as the page mounts (floating-ui reads computed styles and sizes:
 * a style and layout pass in the commit that draws the page; issue 13 §1). This keeps the list out of the
 * page until the Select is first focused or pressed, which always comes before a key or a click reaches
 * it, and kept from then on: `comboboxProps.keepMounted` and the handlers to spread on the Select.
 */
export function useOptionsOnFirstUse() {
  const [used, setUsed] = useState(false);
  const use = () => {
    if (!used) setUsed(true);
  };
  return { keepMounted: used, onFocus: use, onPointerDown: use };
}
