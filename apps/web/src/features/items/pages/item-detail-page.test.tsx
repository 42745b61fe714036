import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer } from '../../inventory/test/inventory-fixtures';
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

describe('ItemDetailPage: its count of stacks and its deletion', () => {
  it('counts the stack just added to a container, without a reload', async () => {
    const template = buildLootItemTemplate({ name: 'Rope', is_owner: true, is_system: false });
    let stacks = 0;
    const bag = buildContainer({ id: 'bag-1', name: 'Backpack', character_id: 'character-1' });
    mockFetch(({ url, init }) => {
      if (url.includes('/item_instances') && init.method === 'POST') {
        stacks += 1;
        return success([]);
      }
      if (url.includes(`/item_templates/${template.id}`))
        return success({ ...template, instance_count: stacks });
      if (url.includes('/characters?')) return success([buildCharacter({ id: 'character-1' })]);
      if (url.includes('/characters/character-1/containers')) return success([bag]);
      return success([]);
    });
    const user = userEvent.setup();
    renderRoutes(routes, `/items/templates/${template.id}`);
    expect(await screen.findByText('0 stacks made from this template.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to a container' }));
    await screen.findByRole('combobox', { name: 'Container' });
    const submit = await screen.findByRole('button', { name: 'Add to Container' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText('1 stack made from this template.')).toBeInTheDocument();
  });

  it('asks for a deleted template no more: no 404 for the page being left', async () => {
    const template = buildLootItemTemplate({ name: 'Rope', is_owner: true, is_system: false });
    let deleted = false;
    // Reads of the template once deleted: each was a 404 in the console.
    const reads: string[] = [];
    mockFetch(({ url, init }) => {
      if (url.includes(`/item_templates/${template.id}`)) {
        if (init.method === 'DELETE') {
          deleted = true;
          return success({});
        }
        if (deleted) reads.push(url);
        return deleted ? failure(404, 'RECORD_NOT_FOUND', 'Not found') : success(template);
      }
      return success([]);
    });
    const user = userEvent.setup();
    renderRoutes(
      [...routes, { path: '/items', element: <p>My Items</p> }],
      `/items/templates/${template.id}`,
    );
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('My Items')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toEqual([]);
  });

  // Author review, L4: a 200-character name filled a phone's first screen, the actions below it.
  it('clamps a long name to a few smaller lines, with Show full name, and keeps it whole for the reader', async () => {
    const tall = vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(400);
    const box = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(90);
    try {
      const name = `The Sunforged Greatsword of the Ashen Vanguard, Blessed by Pelor ${'x'.repeat(135)}`;
      const template = buildLootItemTemplate({ name, is_owner: true, is_system: false });
      serve(template);
      renderRoutes(routes, `/items/templates/${template.id}`);
      const heading = await screen.findByRole('heading', { level: 1, name });
      expect(heading).toHaveAttribute('data-long-name', 'true');
      expect(heading).toHaveAttribute('title', name);
      const more = screen.getByRole('button', { name: 'Show full name' });
      expect(more).toHaveAttribute('aria-controls', heading.id);
      await userEvent.click(more);
      expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
      expect(heading).toHaveAttribute('data-clamped', 'false');
    } finally {
      tall.mockRestore();
      box.mockRestore();
    }
  });
});
