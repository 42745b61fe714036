import { MantineProvider, Tabs } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { ScrollingTabsList } from './scrolling-tabs-list';

function renderTabs() {
  render(
    <MantineProvider env="test" theme={theme}>
      <Tabs value="buy">
        <ScrollingTabsList selected="buy">
          <Tabs.Tab value="buy">Buy</Tabs.Tab>
          <Tabs.Tab value="sell">Sell</Tabs.Tab>
        </ScrollingTabsList>
      </Tabs>
    </MantineProvider>,
  );
}

/** Gives the tab row a width and a scroll position, as a browser would lay it out, then scrolls it. */
function layOutRow(
  row: HTMLElement,
  { scrollWidth, clientWidth, scrollLeft }: { scrollWidth: number; clientWidth: number; scrollLeft: number },
) {
  Object.defineProperty(row, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(row, 'clientWidth', { configurable: true, value: clientWidth });
  row.scrollLeft = scrollLeft;
  fireEvent.scroll(row);
}

describe('ScrollingTabsList', () => {
  it('hides its scroll buttons from screen readers while they are invisible and do nothing', () => {
    renderTabs();
    // All the tabs fit: both buttons are transparent and out of the tab order, so not said either.
    expect(screen.queryByRole('button', { name: 'Scroll left' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Scroll right' })).not.toBeInTheDocument();
    for (const label of ['Scroll left', 'Scroll right']) {
      expect(document.querySelector(`[aria-label="${label}"]`)).toHaveAttribute('aria-hidden', 'true');
    }
    expect(screen.getAllByRole('tab')).toHaveLength(2);
  });

  it('offers the one that can scroll once the tabs run past an edge', () => {
    renderTabs();
    const row = screen.getByRole('tablist').closest<HTMLElement>('[data-tab-scroll]');
    if (!row) throw new Error('no tab row');
    layOutRow(row, { scrollWidth: 600, clientWidth: 300, scrollLeft: 0 });
    expect(screen.getByRole('button', { name: 'Scroll right' })).not.toHaveAttribute('aria-hidden');
    expect(screen.queryByRole('button', { name: 'Scroll left' })).not.toBeInTheDocument();

    layOutRow(row, { scrollWidth: 600, clientWidth: 300, scrollLeft: 300 });
    expect(screen.getByRole('button', { name: 'Scroll left' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Scroll right' })).not.toBeInTheDocument();
  });
});
