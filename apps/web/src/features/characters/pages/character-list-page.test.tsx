import type { Character } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { CharacterListPage } from './character-list-page';

/** GET /characters: `mine` without a filter; nothing once any filter is set. */
function serve(mine: Character[]) {
  return mockFetch(({ url }) => {
    const params = new URL(url, 'http://test').searchParams;
    const filtered = ['search', 'race', 'character_class', 'min_level', 'max_level'].some((key) =>
      params.get(key),
    );
    const list = filtered ? [] : mine;
    return jsonResponse(200, { status: 'success', data: list, meta: pageMeta(list.length, 12) });
  });
}

const renderPage = () =>
  renderRoutes([{ path: '/characters', element: <CharacterListPage /> }], '/characters');

describe('CharacterListPage', () => {
  it('opens on "No characters yet" and Create Character, without filters, for someone with no characters', async () => {
    serve([]);
    renderPage();
    const empty = await screen.findByRole('heading', { name: 'No characters yet' });
    expect(empty).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Character' })).toHaveAttribute('href', '/characters/new');
    // Four filters over nothing pushed the way in below a phone's first screen (UI review).
    for (const label of ['Search', 'Race', 'Class', 'Min level', 'Max level']) {
      expect(screen.queryByRole('textbox', { name: label })).not.toBeInTheDocument();
    }
  });

  it('keeps the filters in view, with "No characters found", when a filter matches nothing', async () => {
    serve([buildCharacter({ id: 'aria', name: 'Aria' })]);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByTestId('character-card')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'zzz');
    expect(await screen.findByRole('heading', { name: 'No characters found' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('zzz');
    expect(screen.getByRole('textbox', { name: 'Race' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Character' })).not.toBeInTheDocument();
  });

  it('keeps a Level badge whole beside a very long character name', async () => {
    serve([
      buildCharacter({ name: 'Bartholomew Quillfeather-Underbough the Unreasonably Verbose', level: 12 }),
    ]);
    renderPage();
    const card = await screen.findByTestId('character-card');
    const badge = within(card).getByText('Level 12').closest('.mantine-Badge-root');
    expect(badge).toHaveStyle({ flexShrink: '0' });
  });

  // Review L1: the cards were no list, and filtering said nothing, not even "No characters found".
  it('lists the characters under the Characters heading and, once a filter changes, says politely how many it found', async () => {
    serve([buildCharacter({ id: 'aria', name: 'Aria' }), buildCharacter({ id: 'brom', name: 'Brom' })]);
    const user = userEvent.setup();
    renderPage();
    const list = await screen.findByRole('list', { name: 'Characters' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Aria'), expect.stringContaining('Brom')]);
    // Nothing on arrival: the focused heading and the list say enough.
    const status = screen.getByTestId('character-count');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveTextContent(/^$/);
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.type(search, 'zzz');
    await waitFor(() => expect(status).toHaveTextContent(/^No characters found$/));
    await user.clear(search);
    await waitFor(() => expect(status).toHaveTextContent(/^2 characters$/));
    expect(screen.getByRole('list', { name: 'Characters' })).toBeInTheDocument();
  });
});
