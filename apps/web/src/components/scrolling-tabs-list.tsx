import { Scroller, Tabs, type TabsListProps } from '@mantine/core';
import { type RefObject, useEffect, useRef, useState } from 'react';

interface ScrollingTabsListProps extends TabsListProps {
  /** The selected tab's value: each change brings that tab into view. */
  selected: string;
}

/**
 * A tab list that stays on one row without widening the page. On a phone the row scrolls sideways inside
 * Mantine's Scroller, whose fading chevrons show that more tabs wait past the edge; the selected tab is
 * brought into view whenever it changes, so a link such as ?tab=loot never lands on a tab off-screen, and so
 * is a tab as it takes the focus, and the focused (else the selected) tab when the row changes width: a
 * window narrowed to a phone's width (zoomed, a tablet turned) left it under the chevron.
 */
export function ScrollingTabsList({
  selected,
  children,
  style,
  onFocus,
  ...listProps
}: ScrollingTabsListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const canScroll = useRowScrollEnds(listRef);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of the selected tab by design
  useEffect(() => {
    bringIntoView(listRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'));
  }, [selected]);

  useEffect(() => {
    const list = listRef.current;
    const row = list?.closest<HTMLElement>('[data-tab-scroll]');
    if (!list || !row || typeof ResizeObserver !== 'function') return;
    let width = row.clientWidth;
    const resize = new ResizeObserver(() => {
      if (row.clientWidth === width) return;
      width = row.clientWidth;
      const focused = document.activeElement;
      bringIntoView(
        focused instanceof HTMLElement && list.contains(focused) && focused.matches('[role="tab"]')
          ? focused
          : list.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'),
      );
    });
    resize.observe(row);
    return () => resize.disconnect();
  }, []);

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
      <Tabs.List
        ref={listRef}
        style={[{ flexGrow: 1, flexWrap: 'nowrap' }, style]}
        onFocus={(event) => {
          if (event.target instanceof HTMLElement && event.target.matches('[role="tab"]'))
            bringIntoView(event.target);
          onFocus?.(event);
        }}
        {...listProps}
      >
        {children}
      </Tabs.List>
    </Scroller>
  );
}

/**
 * Centres a tab in its row rather than merely showing it: the Scroller's chevrons cover the edges of the
 * row. The row's own scrollLeft, not scrollIntoView, so the page itself never scrolls to the tabs.
 */
function bringIntoView(tab: HTMLElement | null | undefined) {
  const row = tab?.closest<HTMLElement>('[data-tab-scroll]');
  if (!tab || !row) return;
  const rowBox = row.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  row.scrollLeft += tabBox.left + tabBox.width / 2 - (rowBox.left + rowBox.width / 2);
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
