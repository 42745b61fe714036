import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { CharacterDetailPage } from './character-detail-page';

function renderCharacter(
  isOwner: boolean,
  imageUrl = '',
  overrides: Partial<Parameters<typeof buildCharacter>[0]> = {},
) {
  const character = buildCharacter({
    id: 'ch-thorin',
    name: 'Thorin',
    is_owner: isOwner,
    image_url: imageUrl,
    ...overrides,
  });
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters/ch-thorin') return success(character);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
  renderRoutes([{ path: '/characters/:id', element: <CharacterDetailPage /> }], '/characters/ch-thorin');
}

describe('CharacterDetailPage', () => {
  it('offers its player to share, edit and delete the character', async () => {
    renderCharacter(true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Thorin' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('groups the thousands of its max slots as of its max weight', async () => {
    renderCharacter(true, '', { max_weight: 100_000, max_slots: 100_000 });
    expect(await screen.findByText('100,000 lbs')).toBeInTheDocument();
    expect(screen.getByText('100,000')).toBeInTheDocument();
    expect(screen.queryByText('100000')).not.toBeInTheDocument();
  });

  it("shows another member's character without Share, Edit or Delete: only its player may publish it", async () => {
    renderCharacter(false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Thorin' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Inventory' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('shows the portrait from its address, without sending this page’s address along, and says when it fails', async () => {
    renderCharacter(false, 'https://images.example.com/thorin.png');
    const portrait = await screen.findByRole('img', { name: 'Portrait of Thorin' });
    expect(portrait).toHaveAttribute('src', 'https://images.example.com/thorin.png');
    expect(portrait).toHaveAttribute('referrerpolicy', 'no-referrer');
    fireEvent.error(portrait);
    expect(await screen.findByTestId('portrait-failed')).toHaveTextContent(
      'The portrait could not be loaded from images.example.com.',
    );
  });
});

describe('CharacterDetailPage with an address that names no character', () => {
  it('asks once when the id is refused as not an id (422): a retry cannot change it', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters/not-a-uuid')
        return failure(422, 'VALIDATION_ERROR', 'Validation failed', [
          { field: 'id', message: 'Character not found.' },
        ]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderRoutes([{ path: '/characters/:id', element: <CharacterDetailPage /> }], '/characters/not-a-uuid');
    expect(await screen.findByRole('heading', { name: 'Character Not Found' })).toBeInTheDocument();
    const asked = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/characters/not-a-uuid'));
    expect(asked).toHaveLength(1);
  });
});
