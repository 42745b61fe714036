import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { ItemListPage } from './item-list-page';

describe('ItemListPage', () => {
  it('keeps the visibility badge whole beside a very long template name', async () => {
    const template = buildLootItemTemplate({
      id: 'mine-1',
      name: 'Bag of Unreasonably Many Pockets, Each Holding Another Slightly Smaller Bag',
      visibility: 'private',
      is_system: false,
      is_owner: true,
    });
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [template],
        meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 12 },
      }),
    );
    renderRoutes([{ path: '/items', element: <ItemListPage /> }], '/items');
    const cards = await screen.findByTestId('my-templates');
    const name = within(cards).getByRole('link', { name: template.name });
    // The name wraps in its own column; the badge never shrinks to "P…" or "PRIVA…" beside it.
    expect(name).toHaveStyle({ minWidth: '0' });
    const badge = within(cards).getByText('private').closest('.mantine-Badge-root');
    expect(badge).toHaveStyle({ flexShrink: '0' });
  });
});
