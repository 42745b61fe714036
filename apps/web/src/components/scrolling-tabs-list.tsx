import { Scroller, Tabs, type TabsListProps } from '@mantine/core';
import { type RefObject, useEffect, useRef, useState } from 'react';

interface ScrollingTabsListProps extends TabsListProps {
  /** The selected tab's value: each change brings that tab into view. */
  selected: string;
}

/**
 * A tab list that stays on one row without widening the page. On a phone the row scrolls sideways inside
 * Mantine's Scroller, whose fading chevrons show that more tabs wait past the edge; the selected tab is
 * brought into view whenever it changes, so a link such as ?tab=loot never lands on a tab off-screen.
 */
export function ScrollingTabsList({ selected, children, style, ...listProps }: ScrollingTabsListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const canScroll = useRowScrollEnds(listRef);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of the selected tab by design
  useEffect(() => {
    const list = listRef.current;
    const row = list?.closest<HTMLElement>('[data-tab-scroll]');
    const tab = list?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!row || !tab) return;
    // Centred rather than merely visible: the Scroller's chevrons cover the edges of the row. The row's own
    // scrollLeft, not scrollIntoView, so the page itself never scrolls to the tabs.
    const rowBox = row.getBoundingClientRect();
    const tabBox = tab.getBoundingClientRect();
    row.scrollLeft += tabBox.left + tabBox.width / 2 - (rowBox.left + rowBox.width / 2);
  }, [selected]);

  return (
    <Scroller
      className="haversack-tab-scroll"
      attributes={{ container: { 'data-tab-scroll': '' } }}
      // The list fills the row, so its bottom line runs the full width on a desktop too.
      styles={{ content: { minWidth: '100%' } }}
      // Mantine only fades a button that cannot scroll (opacity 0, out of the tab order): a screen reader
      // would still offer it. Hidden from it too until the row runs past that edge.
      startControlProps={{ 'aria-hidden': !canScroll.start || undefined }}
      endControlProps={{ 'aria-hidden': !canScroll.end || undefined }}
    >
      <Tabs.List ref={listRef} style={[{ flexGrow: 1, flexWrap: 'nowrap' }, style]} {...listProps}>
        {children}
      </Tabs.List>
    </Scroller>
  );
}

/** Whether the tab row (the Scroller's container) can scroll towards its start and its end, kept current. */
function useRowScrollEnds(listRef: RefObject<HTMLDivElement | null>): { start: boolean; end: boolean } {
  const [ends, setEnds] = useState({ start: false, end: false });
  useEffect(() => {
    const row = listRef.current?.closest<HTMLElement>('[data-tab-scroll]');
    if (!row) return;
    const measure = () => {
      // One pixel of slack, as Mantine's own: a fractional width must not leave a button for nothing.
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setEnds((old) => (old.start === start && old.end === end ? old : { start, end }));
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    resize?.observe(row);
    return () => {
      row.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [listRef]);
  return ends;
}
