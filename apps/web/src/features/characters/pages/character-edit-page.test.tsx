import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { CharacterEditPage } from './character-edit-page';

// jsdom has no FontFaceSet; Mantine's autosizing notes box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

const character = buildCharacter({ id: 'c-1', name: 'Ireena', is_owner: true });

describe('CharacterEditPage on a slow or dropped connection', { timeout: 30_000 }, () => {
  it('ends the form as a first load that failed does when a refresh finds the character deleted meanwhile', async () => {
    let deleted = false;
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters/c-1')
        return deleted ? failure(404, 'RESOURCE_NOT_FOUND', 'Character not found') : success(character);
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 50) });
    });
    const { queryClient } = renderRoutes(
      [{ path: '/characters/:id/edit', element: <CharacterEditPage /> }],
      '/characters/c-1/edit',
    );
    await screen.findByRole('button', { name: 'Save Changes' }, { timeout: 10_000 });
    deleted = true;
    await queryClient.refetchQueries({ queryKey: ['characters', 'detail', 'c-1'] });
    expect(await screen.findByText('Failed to load character', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
  });
});
