import type { KeyboardEvent } from 'react';

/**
 * A tab's key handler (`onKeyDown` of each `Tabs.Tab`) for a tab list whose arrow keys select the tab they
 * move to (Mantine's activateTabWithKeyboard, on by default): Mantine 9.7's Home and End only move the
 * focus, whatever activateTabWithKeyboard and loop say, so they select the first and the last tab here, as
 * the tabs pattern with automatic activation expects. Mantine moves the focus itself after this runs.
 */
export function selectFirstOrLastTab<Tab extends string>(tabs: readonly Tab[], select: (tab: Tab) => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const tab = event.key === 'Home' ? tabs[0] : event.key === 'End' ? tabs.at(-1) : undefined;
    if (tab !== undefined) select(tab);
  };
}
