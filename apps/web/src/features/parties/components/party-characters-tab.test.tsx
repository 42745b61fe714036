import type { PartyMember } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { theme } from '../../../app/theme';
import { createQueryClient } from '../../../lib/query-client';
import { busyButtonsLikeTheBrowser } from '../../../test/busy-buttons';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyCharactersTab } from './party-characters-tab';

const gm: PartyMember = {
  id: 'member-gm',
  user_id: 'user-gm',
  role: 'gm',
  created_at: '2026-01-01T00:00:00.000Z',
  user: { username: 'gamemaster', email: null },
  party_collaboration: null,
  character_details: [],
};

function serve(partyCharacters: ReturnType<typeof buildCharacter>[], mine = partyCharacters) {
  return mockFetch(({ url, init }) => {
    const address = new URL(url, 'http://test');
    if (init.method === 'PATCH') return success(buildCharacter());
    if (address.pathname === '/api/v1/parties/party-1/members') return success([gm]);
    if (address.pathname === '/api/v1/characters') {
      const list = address.searchParams.has('party_id') ? partyCharacters : mine;
      return jsonResponse(200, { status: 'success', data: list, meta: pageMeta(list.length, 100) });
    }
    if (address.pathname === '/api/v1/parties/party-1') return success(buildParty());
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
  });
}

/** The tab with Mantine's transitions on (renderRoutes turns them off): a closing dialog stays a moment. */
function renderWithTransitions() {
  return render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <PartyCharactersTab party={buildParty()} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('PartyCharactersTab', () => {
  let restore: () => void = () => undefined;
  beforeEach(() => {
    restore = busyButtonsLikeTheBrowser();
  });
  afterEach(() => restore());

  it('gives focus back to Manage My Characters once the dialog has saved and closed', async () => {
    serve([], [buildCharacter({ id: 'bram', name: 'Bram', user_id: 'user-gm' })]);
    const user = userEvent.setup();
    renderWithTransitions();
    // The button as it is on the page now (the list behind may draw it anew as its data arrives), pressed
    // with Enter until the dialog is there, never while a dialog is open.
    const manage = () => screen.getByRole('button', { name: 'Manage My Characters' });
    const openByKeyboard = () =>
      waitFor(async () => {
        if (!screen.queryByRole('dialog', { hidden: true })) {
          manage().focus();
          await user.keyboard('{Enter}');
        }
        return screen.getByRole('dialog', { name: 'Manage My Characters' });
      });
    await screen.findByRole('button', { name: 'Manage My Characters' });
    const dialog = await openByKeyboard();
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Bram' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(manage()).toHaveFocus());
    // Closed busy on purpose (see the dialog): opening it again starts idle.
    const again = await openByKeyboard();
    expect(within(again).getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('shows every character of a party past one page of 100, over the two pages the server serves them in', async () => {
    // 101 is the fewest that needs a second page (a GM of 141 saw 100: review "bigdata" §4); every card drawn
    // is render time, so no more than that.
    const all = Array.from({ length: 101 }, (_, i) =>
      buildCharacter({ id: `ch-${i}`, name: `NPC ${i}`, user_id: 'user-gm', party_id: 'party-1' }),
    );
    mockFetch(({ url }) => {
      const address = new URL(url, 'http://test');
      if (address.pathname === '/api/v1/parties/party-1/members') return success([gm]);
      if (address.pathname === '/api/v1/characters') {
        const page = Number(address.searchParams.get('page') ?? '1');
        const perPage = Math.min(100, Number(address.searchParams.get('per_page') ?? '10'));
        const data = all.slice((page - 1) * perPage, page * perPage);
        return jsonResponse(200, { status: 'success', data, meta: pageMeta(all.length, perPage, page) });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
    renderRoutes([{ path: '/', element: <PartyCharactersTab party={buildParty()} /> }], '/');
    expect(await screen.findByRole('heading', { name: 'Party Characters (101)' })).toBeInTheDocument();
    expect(await screen.findByText('NPC 100', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getAllByTestId('party-character-card')).toHaveLength(101);
  }, 30_000);

  it('keeps a Game Master badge whole beside a very long character name', async () => {
    const longName = 'Bartholomew Quillfeather-Underbough the Unreasonably Verbose of Lower Waterdeep';
    serve([buildCharacter({ name: longName, user_id: 'user-gm', party_id: 'party-1' })]);
    renderRoutes([{ path: '/', element: <PartyCharactersTab party={buildParty()} /> }], '/');
    const card = await screen.findByTestId('party-character-card');
    const badge = await within(card).findByText('Game Master');
    // Mantine's Badge label truncates with an ellipsis when squeezed: the badge must never shrink.
    const root = badge.closest('.mantine-Badge-root');
    expect(root).not.toBeNull();
    expect(root).toHaveStyle({ flexShrink: '0' });
  });
});
