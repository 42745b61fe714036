import { MantineProvider, Tabs } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('ScrollingTabsList keeps the tab the keyboard is on in view', () => {
  const labels = ['Overview', 'Members', 'Characters', 'Inventory', 'Shops', 'Activity'];
  let resized: (() => void)[] = [];
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    resized = [];
  });

  /**
   * Six tabs 100 px wide in a row `width` px wide, laid out as a browser would (happy-dom lays out
   * nothing), the row's width observed as a browser would tell it.
   */
  function renderRow(selected: string, width: number) {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: () => void) {}
        observe() {
          resized.push(this.callback);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const layout = { width, scrollLeft: 0 };
    const prototype = window.HTMLElement.prototype;
    const originalRect = prototype.getBoundingClientRect;
    vi.spyOn(prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this.hasAttribute('data-tab-scroll')) return new DOMRect(0, 0, layout.width, 40);
      const index = labels.indexOf(this.textContent ?? '');
      if (this.getAttribute('role') === 'tab' && index >= 0)
        return new DOMRect(index * 100 - layout.scrollLeft, 0, 100, 40);
      return originalRect.call(this);
    });
    render(
      <MantineProvider env="test" theme={theme}>
        <Tabs value={selected}>
          <ScrollingTabsList selected={selected}>
            {labels.map((label) => (
              <Tabs.Tab key={label} value={label}>
                {label}
              </Tabs.Tab>
            ))}
          </ScrollingTabsList>
        </Tabs>
      </MantineProvider>,
    );
    const row = screen.getByRole('tablist').closest<HTMLElement>('[data-tab-scroll]');
    if (!row) throw new Error('no tab row');
    Object.defineProperty(row, 'scrollLeft', {
      configurable: true,
      get: () => layout.scrollLeft,
      set: (value: number) => {
        layout.scrollLeft = Math.max(0, Math.min(value, labels.length * 100 - layout.width));
      },
    });
    Object.defineProperty(row, 'clientWidth', { configurable: true, get: () => layout.width });
    return {
      layout,
      /** The centre of a tab, in the row's box: seen clear of the chevrons when near the middle. */
      centreOf: (label: string) => labels.indexOf(label) * 100 + 50 - layout.scrollLeft,
      resizeTo: (next: number) => {
        layout.width = next;
        for (const callback of resized) callback();
      },
    };
  }

  it('brings the selected tab into view when the row narrows', () => {
    const row = renderRow('Inventory', 1200);
    expect(row.layout.scrollLeft).toBe(0);
    row.resizeTo(300);
    expect(row.centreOf('Inventory')).toBe(150);
  });

  it('brings a tab into view as it takes the focus, and keeps it there when the row narrows', () => {
    const row = renderRow('Overview', 1200);
    row.resizeTo(300);
    expect(row.centreOf('Overview')).toBe(50);
    const shops = screen.getByRole('tab', { name: 'Shops' });
    shops.focus();
    expect(row.centreOf('Shops')).toBe(150);
    row.layout.scrollLeft = 0;
    row.resizeTo(250);
    expect(row.centreOf('Shops')).toBe(125);
  });
});
