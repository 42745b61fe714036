import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { MyCharactersCard } from './my-characters-card';

describe('MyCharactersCard with no characters yet', () => {
  restoreViewportAfterEach();
  it('makes Create Character a finger tall (44 px) on a phone, a newcomer’s first tap', async () => {
    // First-hour review: 30 px tall at 375x740.
    useGlobalStyles('Button');
    setViewport(375, 740);
    mockFetch(() => jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) }));
    renderRoutes([{ path: '/', element: <MyCharactersCard /> }], '/');
    const create = await screen.findByRole('link', { name: 'Create Character' });
    expect(getComputedStyle(create).minHeight).toBe('44px');
  });
});
