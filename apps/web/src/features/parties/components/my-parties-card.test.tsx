import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildCurrentAtUsage } from '../../subscription/plan-limit-test-server';
import { MyPartiesCard, playedAs } from './my-parties-card';

/** A user in no party yet, on a plan that allows `limit` parties of their own (null: no limit). */
function serveNoParties(limit: number | null, tier: 'tier_free' | 'tier_1') {
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/parties')
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 50) });
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    if (pathname === '/api/v1/subscription/current') {
      const current = buildCurrentAtUsage('parties_created', 0, limit ?? 0, tier);
      return success({ ...current, usage: { ...current.usage, parties_created: { used: 0, limit } } });
    }
    return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
  });
  renderRoutes([{ path: '/', element: <MyPartiesCard /> }], '/');
}

describe('MyPartiesCard', () => {
  it('says which character I play in each party, or that a party I play in has none of mine yet', async () => {
    const strahd = buildParty({ id: 'p-strahd', name: 'Curse of Strahd', user_role: 'player' });
    const tomb = buildParty({ id: 'p-tomb', name: 'Tomb of Annihilation', user_role: 'player' });
    const heist = buildParty({ id: 'p-heist', name: 'Dragon Heist', user_role: 'player' });
    const mine = buildParty({ id: 'p-mine', name: 'My Table', user_role: 'gm' });
    const parties = [strahd, tomb, heist, mine];
    const characters = [
      buildCharacter({ id: 'c-1', name: 'Ireena', party_id: 'p-strahd', party_name: 'Curse of Strahd' }),
      buildCharacter({ id: 'c-2', name: 'Kaelen', party_id: 'p-tomb', party_name: 'Tomb of Annihilation' }),
    ];
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/parties')
        return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 50) });
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: characters, meta: pageMeta(2, 100) });
      return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
    });
    renderRoutes([{ path: '/', element: <MyPartiesCard /> }], '/');
    const row = async (name: string) =>
      (await screen.findByRole('link', { name })).closest('.mantine-Group-root') as HTMLElement;
    expect(within(await row('Curse of Strahd')).getByText('as Ireena')).toBeInTheDocument();
    expect(within(await row('Tomb of Annihilation')).getByText('as Kaelen')).toBeInTheDocument();
    expect(within(await row('Dragon Heist')).getByText('No character yet')).toBeInTheDocument();
    // A GM needs no character of their own.
    expect(within(await row('My Table')).queryByText('No character yet')).toBeNull();
  });

  it('names nothing until my characters are known, and names every character I play there', () => {
    const party = buildParty({ id: 'p1', user_role: 'observer' });
    expect(playedAs(party, undefined)).toBeUndefined();
    expect(playedAs(party, [])).toBeUndefined();
    expect(
      playedAs(party, [
        buildCharacter({ name: 'Ada', party_id: 'p1' }),
        buildCharacter({ name: 'Bo', party_id: 'p1' }),
      ]),
    ).toBe('as Ada, Bo');
  });

  it('offers a user in no party the ways in: Join Party, and Create Party on a plan that allows it', async () => {
    serveNoParties(3, 'tier_1');
    const card = await screen.findByTestId('dashboard-parties');
    expect(await within(card).findByText('You are not in a party yet.')).toBeInTheDocument();
    expect(await within(card).findByRole('link', { name: 'Create Party' })).toHaveAttribute(
      'href',
      '/parties/new',
    );
    expect(within(card).getByRole('link', { name: 'Join Party' })).toHaveAttribute('href', '/parties/join');
    expect(within(card).queryByTestId('plan-limit-hint')).toBeNull();
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes the ways in a finger tall (44 px), a newcomer’s first taps', async () => {
      // First-hour review: Create Party and Join Party were 30 px tall at 375x740.
      useGlobalStyles('Button');
      setViewport(375, 740);
      serveNoParties(3, 'tier_1');
      for (const name of ['Create Party', 'Join Party']) {
        expect(getComputedStyle(await screen.findByRole('link', { name })).minHeight).toBe('44px');
      }
    });
  });

  it('offers a Free user in no party Join Party, and instead of Create Party the plan limit with the upgrade', async () => {
    serveNoParties(0, 'tier_free');
    const card = await screen.findByTestId('dashboard-parties');
    expect(await within(card).findByTestId('plan-limit-hint')).toHaveTextContent(
      'Your plan does not include parties you run.',
    );
    expect(within(card).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=parties_created',
    );
    expect(within(card).getByRole('link', { name: 'Join Party' })).toHaveAttribute('href', '/parties/join');
    expect(within(card).queryByRole('link', { name: 'Create Party' })).toBeNull();
  });

  it('keeps my parties on screen when a refresh fails, with a note', async () => {
    const party = buildParty({ id: 'p-strahd', name: 'Curse of Strahd', user_role: 'player' });
    let connected = true;
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/parties') {
        if (!connected) throw new TypeError('Failed to fetch');
        return jsonResponse(200, { status: 'success', data: [party], meta: pageMeta(1, 50) });
      }
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    });
    const { queryClient } = renderRoutes([{ path: '/', element: <MyPartiesCard /> }], '/');
    const card = await screen.findByTestId('dashboard-parties');
    expect(await within(card).findByRole('link', { name: 'Curse of Strahd' })).toBeVisible();
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['parties'] });
    await waitFor(() => expect(within(card).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(card).getByRole('link', { name: 'Curse of Strahd' })).toBeVisible();
    expect(within(card).queryByText('Your parties could not be loaded.')).not.toBeInTheDocument();
  });
});
