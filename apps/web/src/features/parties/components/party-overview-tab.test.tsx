import type { PartyMember } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { PartyOverviewTab } from './party-overview-tab';

const noop = () => undefined;
const headings = (column: HTMLElement) =>
  within(column)
    .getAllByRole('region')
    .map((region) => region.getAttribute('aria-labelledby'))
    .map((id) => (id ? document.getElementById(id)?.textContent : null));

describe('PartyOverviewTab layout', () => {
  it("balances a GM's panels in two columns: the ways in with the members, patronage above the GM actions", () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'not faked'));
    const party = buildParty({
      is_gm: true,
      is_member: true,
      user_role: 'gm',
      join_code: 'ABCD2345',
      join_permission: 'full',
    });
    renderWithProviders(<PartyOverviewTab party={party} onShare={noop} onShowCharacters={noop} />);
    expect(headings(screen.getByTestId('overview-column-first'))).toEqual([
      'Quick actions',
      'Invite with the join code',
      'Invite a player',
      'Members',
    ]);
    const second = headings(screen.getByTestId('overview-column-second'));
    expect(second.slice(1)).toEqual(['Party settings', 'Patronage', 'Game Master actions']);
  });
});

describe('PartyOverviewTab for a sponsored member', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));
  afterEach(() => useUiStore.setState({ toasts: [] }));

  const sponsorship = (partyId: string, id = 'pat-9') => ({
    id,
    party_id: partyId,
    party_name: partyId === 'party-1' ? 'The Copper Lanterns' : 'Elsewhere',
    active: true,
    granted_tier: 'tier_2',
    patron_id: 'u-freddy',
    patron_name: 'freddy',
    beneficiary_id: 'u-ivy',
    beneficiary_name: 'ivy',
    created_at: '2026-01-01T00:00:00.000Z',
  });
  /** The received sponsorships, until the one in this party is ended (DELETE). */
  function serve(received: ReturnType<typeof sponsorship>[]) {
    let current = received;
    return mockFetch(({ url, init }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/patronages/received') return success(current);
      if (path === '/api/v1/patronages/pat-9' && init.method === 'DELETE') {
        current = current.filter((patronage) => patronage.id !== 'pat-9');
        return new Response(null, { status: 204 });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
  }
  const player = () => buildParty({ is_member: true, user_role: 'player', is_gm: false });

  it('says who sponsors them here with which plan, and lets them end it once they confirm', async () => {
    const fetches = serve([sponsorship('party-2', 'pat-8'), sponsorship('party-1')]);
    const user = userEvent.setup();
    renderWithProviders(<PartyOverviewTab party={player()} onShare={noop} onShowCharacters={noop} />);
    const panel = await screen.findByTestId('sponsored-here');
    expect(panel).toHaveTextContent('freddy sponsors you here with Hero.');
    expect(panel).toHaveTextContent(
      'Inside this party your limits and features are Hero’s; elsewhere your own plan’s apply.',
    );
    // Beside the party's settings, as the patron's panel is.
    expect(within(screen.getByTestId('overview-column-second')).getByTestId('sponsored-here')).toBe(panel);

    const deletes = () => fetches.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    await user.click(within(panel).getByRole('button', { name: 'End sponsorship' }));
    let dialog = await screen.findByRole('dialog', { name: 'End sponsorship' });
    // The words the subscription page asks with, for the same decline.
    expect(dialog).toHaveTextContent(
      'You lose Hero, which freddy granted you in The Copper Lanterns, at once: your own plan applies there.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes()).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'End sponsorship' }));
    dialog = await screen.findByRole('dialog', { name: 'End sponsorship' });
    await user.click(within(dialog).getByRole('button', { name: 'End sponsorship' }));
    await waitFor(() => expect(screen.queryByTestId('sponsored-here')).not.toBeInTheDocument());
    expect(deletes().map(([url]) => String(url))).toEqual([expect.stringMatching(/\/patronages\/pat-9$/)]);
    expect(useUiStore.getState().toasts.map((t) => [t.kind, t.message])).toContainEqual([
      'success',
      'Sponsorship ended',
    ]);
  });

  it('says nothing when their sponsorships are in other parties, or cannot be read', async () => {
    const fetches = serve([sponsorship('party-2', 'pat-8')]);
    const { unmount } = renderWithProviders(
      <PartyOverviewTab party={player()} onShare={noop} onShowCharacters={noop} />,
    );
    await waitFor(() =>
      expect(fetches.mock.calls.some(([url]) => String(url).endsWith('/patronages/received'))).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('sponsored-here')).not.toBeInTheDocument();
    expect(screen.queryByText(/sponsor/i)).not.toBeInTheDocument();
    unmount();

    // Unreadable: no error for what is, for most members, nothing at all.
    const failing = mockFetch(() => failure(500, 'INTERNAL_ERROR', 'Something went wrong.'));
    renderWithProviders(<PartyOverviewTab party={player()} onShare={noop} onShowCharacters={noop} />);
    await waitFor(() =>
      expect(failing.mock.calls.some(([url]) => String(url).endsWith('/patronages/received'))).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/sponsor/i)).not.toBeInTheDocument();
  });
});

describe('PartyOverviewTab settings card', () => {
  it('keeps each label on its line beside a long value, the value wrapping instead', () => {
    // Review (content): a 200-letter setting squeezed "Setting" to one letter per line ("S / e / tt / i…").
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'not faked'));
    const party = buildParty({ game_system: 'G'.repeat(60), setting: 'X'.repeat(200) });
    renderWithProviders(<PartyOverviewTab party={party} onShare={noop} onShowCharacters={noop} />);
    const card = screen.getByRole('region', { name: 'Party settings' });
    const settings: [string, string][] = [
      ['Game system', 'G'.repeat(60)],
      ['Setting', 'X'.repeat(200)],
    ];
    for (const [label, value] of settings) {
      expect(within(card).getByText(label)).toHaveStyle({ flexShrink: '0' });
      expect(within(card).getByText(value)).toHaveStyle({ minWidth: '0' });
    }
  });
});

describe('PartyOverviewTab members', () => {
  // Review L4: the Overview's members were lines of text, no list to step through member by member.
  it('reads the members as a list named by the Members heading, a member an item, and says it is loading', async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/parties/party-1/members'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const party = buildParty({ id: 'party-1' });
    renderWithProviders(<PartyOverviewTab party={party} onShare={noop} onShowCharacters={noop} />);
    const region = screen.getByRole('region', { name: 'Members' });
    expect(within(region).getByRole('status')).toHaveTextContent('Loading members');
    const member = (userId: string, username: string, role: PartyMember['role']): PartyMember => ({
      id: `member-${userId}`,
      user_id: userId,
      role,
      created_at: '2026-01-01T00:00:00.000Z',
      user: { username, email: null },
      party_collaboration: null,
      character_details: [],
    });
    answer(success([member('user-gm', 'gamemaster', 'gm'), member('user-brom', 'Brom', 'player')]));
    const list = await within(region).findByRole('list', { name: 'Members' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['gamemasterGame Master', 'BromPlayer']);
    expect(within(region).queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('PartyOverviewTab members on a slow or dropped connection', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));
  afterEach(() => useUiStore.setState({ toasts: [] }));

  const member = (userId: string, username: string): PartyMember => ({
    id: `member-${userId}`,
    user_id: userId,
    role: 'player',
    created_at: '2026-01-01T00:00:00.000Z',
    user: { username, email: null },
    party_collaboration: null,
    character_details: [],
  });
  /** The members answer, or a dropped connection while `connected` is false. */
  function serve() {
    const state = { connected: true, members: [member('user-brom', 'Brom')] };
    const fetches = mockFetch(({ url }) => {
      if (new URL(url, 'http://test').pathname !== '/api/v1/parties/party-1/members')
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
      if (!state.connected) throw new TypeError('Failed to fetch');
      return success(state.members);
    });
    const membersAsked = () =>
      fetches.mock.calls.filter(([input]) => String(input).endsWith('/parties/party-1/members')).length;
    return { state, membersAsked };
  }

  it('offers Try Again when the members could not be loaded at all', async () => {
    const { state, membersAsked } = serve();
    state.connected = false;
    const user = userEvent.setup();
    renderWithProviders(
      <PartyOverviewTab party={buildParty({ id: 'party-1' })} onShare={noop} onShowCharacters={noop} />,
    );
    const region = screen.getByRole('region', { name: 'Members' });
    await within(region).findByText('Members could not be loaded.', undefined, { timeout: 5_000 });
    const asked = membersAsked();
    state.connected = true;
    await user.click(within(region).getByRole('button', { name: 'Try Again' }));
    expect(await within(region).findByRole('list', { name: 'Members' })).toHaveTextContent('Brom');
    expect(membersAsked()).toBe(asked + 1);
  });

  it('keeps the loaded members when a refresh fails, says so, and tries again on request', async () => {
    const { state, membersAsked } = serve();
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(
      <PartyOverviewTab party={buildParty({ id: 'party-1' })} onShare={noop} onShowCharacters={noop} />,
    );
    const region = screen.getByRole('region', { name: 'Members' });
    await within(region).findByRole('list', { name: 'Members' });
    // A live update's refresh while the connection is down.
    state.connected = false;
    await queryClient.refetchQueries({ queryKey: ['parties'] }).catch(() => undefined);
    await waitFor(() => expect(within(region).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(region).getByRole('status')).toHaveTextContent(
      'Could not refresh. Showing what was loaded before.',
    );
    expect(within(region).getByRole('list', { name: 'Members' })).toHaveTextContent('Brom');
    expect(within(region).queryByText('Members could not be loaded.')).not.toBeInTheDocument();

    state.connected = true;
    state.members = [member('user-brom', 'Brom'), member('user-ivy', 'Ivy')];
    const asked = membersAsked();
    await user.click(within(region).getByRole('button', { name: 'Try Again' }));
    await waitFor(() =>
      expect(within(region).getByRole('list', { name: 'Members' })).toHaveTextContent('Ivy'),
    );
    expect(membersAsked()).toBe(asked + 1);
    expect(within(region).queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
  });
});
