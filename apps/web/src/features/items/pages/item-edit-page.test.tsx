import { itemTemplateMessages } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { ItemEditPage } from './item-edit-page';

afterEach(() => vi.unstubAllGlobals());

// jsdom has no FontFaceSet; Mantine's autosizing description box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

/** An author's potion, made through the API: a rarity but no word on attunement, and a finer weight. */
const potion = buildLootItemTemplate({
  id: 'potion-1',
  name: 'Silken potion',
  weight: 0.005,
  metadata: { rarity: 'uncommon', currency: 'gp' },
  tags: ['potion'],
  category: null,
  is_system: false,
  is_owner: true,
});

function serve() {
  return mockFetch(({ init }) =>
    init.method === 'PUT' ? success({ ...potion, tags: ['potion', 'healing'] }) : success(potion),
  );
}

const routes = [
  { path: '/items/:id/edit', element: <ItemEditPage /> },
  { path: '/items/templates/:id', element: <p>Template page</p> },
];
const puts = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');

describe('ItemEditPage', { timeout: 30_000 }, () => {
  it('sends only what was changed: a tags-only edit sends the tags, not the form’s guesses', async () => {
    const fetchMock = serve();
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/items/potion-1/edit');
    const tags = await screen.findByRole('textbox', { name: 'Tags' });
    await user.clear(tags);
    await user.type(tags, 'potion, healing');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Template page')).toBeInTheDocument();
    // Neither the attunement the form reads into an uncommon item nor the stored 0.005 lbs went back.
    expect(puts(fetchMock).map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { item_template: { tags: 'potion, healing' } },
    ]);
  });

  it('sends nothing when nothing changed', async () => {
    const fetchMock = serve();
    const user = userEvent.setup({ delay: null });
    renderRoutes(routes, '/items/potion-1/edit');
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Template page')).toBeInTheDocument();
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(0));
  });

  // Author review, L6: every field looked editable and only Save said, in a toast, that others hold it.
  it('says before an edit that other players hold the template, and locks what the server keeps', async () => {
    mockFetch(() => success({ ...potion, visibility: 'public', instance_count: 2, held_by_others: true }));
    renderRoutes(routes, '/items/potion-1/edit');
    const notice = await screen.findByRole('region', { name: 'Other players hold this template' });
    expect(notice).toHaveTextContent(itemTemplateMessages.heldByOthers);
    for (const name of ['Name', 'Description', 'Weight (lbs)', 'Base value', 'Category']) {
      expect(screen.getByRole('textbox', { name })).toBeDisabled();
    }
    for (const name of ['Currency', 'Rarity']) expect(screen.getByRole('combobox', { name })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Stack size' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /Requires attunement/ })).toBeDisabled();
    // What may still change stays open: its tags, and public or unlisted, but not private.
    expect(screen.getByRole('textbox', { name: 'Tags' })).toBeEnabled();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('combobox', { name: 'Visibility' }));
    expect(await screen.findByRole('option', { name: 'Private' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Unlisted' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('leaves every field open when nobody else holds the template', async () => {
    mockFetch(() => success({ ...potion, instance_count: 1, held_by_others: false }));
    renderRoutes(routes, '/items/potion-1/edit');
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeEnabled();
    expect(screen.queryByRole('region', { name: 'Other players hold this template' })).toBeNull();
  });
});

describe('ItemEditPage on a slow or dropped connection', { timeout: 30_000 }, () => {
  it('keeps the form and what was typed when a refresh of the template fails, with a note', async () => {
    let connected = true;
    mockFetch(() => {
      if (!connected) throw new TypeError('Failed to fetch');
      return success(potion);
    });
    const user = userEvent.setup({ delay: null });
    const { queryClient } = renderRoutes(routes, '/items/potion-1/edit');
    const tags = await screen.findByRole('textbox', { name: 'Tags' });
    await user.clear(tags);
    await user.type(tags, 'potion, healing');
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['item-templates', 'detail', 'potion-1'] });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('textbox', { name: 'Tags' })).toHaveValue('potion, healing');
    expect(screen.queryByText('Failed to load item')).not.toBeInTheDocument();
  });

  it('ends the page as Item Not Found when a refresh finds the template deleted meanwhile', async () => {
    let deleted = false;
    mockFetch(() =>
      deleted ? failure(404, 'RESOURCE_NOT_FOUND', 'Item template not found') : success(potion),
    );
    const { queryClient } = renderRoutes(routes, '/items/potion-1/edit');
    await screen.findByRole('textbox', { name: 'Tags' });
    deleted = true;
    await queryClient.refetchQueries({ queryKey: ['item-templates', 'detail', 'potion-1'] });
    expect(
      await screen.findByRole('heading', { name: 'Item Not Found' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Items' })).toHaveAttribute('href', '/items');
    expect(screen.queryByRole('textbox', { name: 'Tags' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
  });
});
