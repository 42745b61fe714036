import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { MarketplacePage } from '../pages/marketplace-page';
import { MarketplaceResults } from './marketplace-results';

// Counts how often a card's summary is drawn.
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../items/components/template-summary', () => ({
  TemplateSummary: () => {
    drawn.count += 1;
    return null;
  },
}));

describe('MarketplaceResults', () => {
  it('does not draw the result cards again at each key typed in the search', async () => {
    const templates = Array.from({ length: 50 }, (_, i) =>
      buildLootItemTemplate({ id: `t-${i}`, name: `Sword ${i}` }),
    );
    mockFetch(() => jsonResponse(200, { status: 'success', data: templates, meta: pageMeta(50, 50) }));
    renderRoutes([{ path: '/marketplace', element: <MarketplacePage /> }], '/marketplace');
    expect(await screen.findByText('Sword 49')).toBeVisible();
    const before = drawn.count;
    expect(before).toBeGreaterThanOrEqual(50);
    // Faster than the search's 300 ms pause: the fields change, the results do not.
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Search' }), 'pot');
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('pot');
    expect(drawn.count).toBe(before);
  });
});

describe('MarketplaceResults: the Add to Container button', () => {
  it('is named by its visible words first, then the item (WCAG 2.5.3 Label in Name), with no "my"', async () => {
    const rope = buildLootItemTemplate({ id: 'template-rope', name: 'Rope' });
    renderRoutes(
      [
        {
          path: '/marketplace',
          element: <MarketplaceResults templates={[rope]} backTo="/marketplace" onAdd={() => {}} />,
        },
      ],
      '/marketplace',
    );
    const button = await screen.findByRole('button', { name: 'Add to Container: Rope' });
    const visible = button.textContent ?? '';
    expect(visible).toBe('Add to Container');
    expect(button.getAttribute('aria-label')?.startsWith(visible)).toBe(true);
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('is a finger tall (44 px), the page’s one action and a newcomer’s first', async () => {
      // First-hour review: 30 px tall at 375x740, where the Undo and row buttons beside it are 44.
      useGlobalStyles('Button');
      setViewport(375, 740);
      const rope = buildLootItemTemplate({ id: 'template-rope', name: 'Rope' });
      renderRoutes(
        [
          {
            path: '/marketplace',
            element: <MarketplaceResults templates={[rope]} backTo="/marketplace" onAdd={() => {}} />,
          },
        ],
        '/marketplace',
      );
      const button = await screen.findByRole('button', { name: 'Add to Container: Rope' });
      expect(getComputedStyle(button).minHeight).toBe('44px');
    });
  });
});

describe('MarketplaceResults: the results as a list', () => {
  it('reads the page of results as a list named by the page heading, a card an item, and says it is loading', async () => {
    const templates = ['Rope', 'Lantern', 'Tent'].map((name) =>
      buildLootItemTemplate({ id: `template-${name}`, name }),
    );
    let answer: (response: Response) => void = () => {};
    mockFetch(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    renderRoutes([{ path: '/marketplace', element: <MarketplacePage /> }], '/marketplace');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the marketplace');
    answer(jsonResponse(200, { status: 'success', data: templates, meta: pageMeta(3, 50) }));
    const results = await screen.findByRole('list', { name: 'Marketplace' });
    const cards = within(results).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(
      within(cards[1] as HTMLElement).getByRole('button', { name: 'Add to Container: Lantern' }),
    ).toBeInTheDocument();
  });
});
