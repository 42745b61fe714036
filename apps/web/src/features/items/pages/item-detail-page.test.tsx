import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { ItemDetailPage } from './item-detail-page';

afterEach(() => vi.unstubAllGlobals());

const routes = [{ path: '/items/templates/:id', element: <ItemDetailPage /> }];

function serve(template: ReturnType<typeof buildLootItemTemplate>) {
  mockFetch(({ url }) => (url.includes(`/item_templates/${template.id}`) ? success(template) : success([])));
}

describe('ItemDetailPage', () => {
  it('offers Report on someone else’s public item, as its marketplace card does', async () => {
    const template = buildLootItemTemplate({
      name: 'Cursed ring',
      visibility: 'public',
      is_owner: false,
      is_system: false,
    });
    serve(template);
    renderRoutes(routes, `/items/templates/${template.id}`);
    expect(await screen.findByRole('button', { name: 'Report item Cursed ring' })).toBeInTheDocument();
    // What the template says of attunement, in words.
    expect(screen.getByText('Not required')).toBeInTheDocument();
  });

  it('offers no Report on my own item or on the SRD catalogue', async () => {
    for (const overrides of [
      { is_owner: true, is_system: false },
      { is_owner: false, is_system: true },
    ]) {
      const template = buildLootItemTemplate({ name: 'Plain ring', visibility: 'public', ...overrides });
      serve(template);
      const { unmount } = renderRoutes(routes, `/items/templates/${template.id}`);
      expect(await screen.findByRole('heading', { name: 'Plain ring' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument();
      unmount();
    }
  });

  it('leads back to the marketplace search it came from, to the marketplace for others’ items, and to My Items for mine', async () => {
    const theirs = buildLootItemTemplate({ name: 'Cursed ring', is_owner: false, is_system: false });
    serve(theirs);
    const first = renderRoutes(routes, `/items/templates/${theirs.id}`);
    expect(await screen.findByRole('link', { name: 'Back to the Marketplace' })).toHaveAttribute(
      'href',
      '/marketplace',
    );
    await first.router.navigate(`/items/templates/${theirs.id}`, {
      state: { backTo: '/marketplace?search=ring&rarity=rare' },
    });
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Back to the Marketplace' })).toHaveAttribute(
        'href',
        '/marketplace?search=ring&rarity=rare',
      ),
    );
    first.unmount();

    const mine = buildLootItemTemplate({ name: 'Plain ring', is_owner: true, is_system: false });
    serve(mine);
    renderRoutes(routes, `/items/templates/${mine.id}`);
    expect(await screen.findByRole('link', { name: 'Back to My Items' })).toHaveAttribute('href', '/items');
  });
});
