import { errorCatalogue, type PartyMember, partyMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildTiers } from '../../subscription/subscription-fixtures';
import { PartyMembersTab } from './party-members-tab';

function buildMember(
  userId: string,
  username: string,
  role: PartyMember['role'],
  partyCollaboration: boolean | null = null,
): PartyMember {
  return {
    id: `member-${userId}`,
    user_id: userId,
    role,
    created_at: '2026-01-01T00:00:00.000Z',
    user: { username, email: null },
    party_collaboration: partyCollaboration,
    character_details: [],
  };
}

const members = [
  buildMember('user-gm', 'gamemaster', 'gm'),
  buildMember('user-brom', 'Brom', 'player'),
  buildMember('user-pip', 'Pip', 'player'),
];

describe('PartyMembersTab', () => {
  it('names the member each Remove button removes', async () => {
    const user = userEvent.setup();
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/parties/party-1/members'
        ? success(members)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const party = buildParty({ is_gm: true, user_role: 'gm', member_count: 3 });
    renderRoutes([{ path: '/', element: <PartyMembersTab party={party} /> }], '/');
    const removeBrom = await screen.findByRole('button', { name: 'Remove Brom' });
    // The spec's label stays on screen.
    expect(removeBrom).toHaveTextContent(/^Remove$/);
    expect(screen.getByRole('button', { name: 'Remove Pip' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Pip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(within(dialog).getByText(/^Remove Pip from The Copper Lanterns\?/)).toBeInTheDocument();
  });
});

describe('PartyMembersTab hand-over', () => {
  const withCoGm = [...members, buildMember('user-cogm', 'Cora', 'gm')];
  const signIn = (id: string, username: string) =>
    useAuthStore.setState({
      isAuthenticated: true,
      isInitializing: false,
      user: buildUser({ id, username }),
    });
  const toasts = () => useUiStore.getState().toasts.map(({ kind, message }) => ({ kind, message }));

  /**
   * The members list; PATCH parties/party-1 answers with `patch`, after a moment, as a network does (the
   * dialog sees the request busy before it settles).
   */
  function serve(patch: () => Response) {
    return mockFetch(async ({ url, init }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1/members') return success(withCoGm);
      if (path === '/api/v1/parties/party-1' && init.method === 'PATCH') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return patch();
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
  }
  const ownerParty = () => buildParty({ is_gm: true, user_role: 'gm', member_count: 4 });

  it('offers Make Game Master to the owner only, for every other member', async () => {
    serve(() => success(ownerParty()));
    signIn('user-gm', 'gamemaster');
    const asOwner = renderRoutes([{ path: '/', element: <PartyMembersTab party={ownerParty()} /> }], '/');
    for (const name of ['Brom', 'Pip', 'Cora'])
      expect(await screen.findByRole('button', { name: `Make Game Master: ${name}` })).toHaveTextContent(
        /^Make Game Master$/,
      );
    expect(screen.queryByRole('button', { name: 'Make Game Master: gamemaster' })).not.toBeInTheDocument();
    // The owner cannot leave; the page says how to.
    expect(screen.queryByRole('button', { name: 'Leave Party' })).not.toBeInTheDocument();
    expect(screen.getByText(/make another member its Game Master first/)).toBeInTheDocument();
    asOwner.unmount();

    // An archived party refuses edits: nothing to offer.
    const archived = renderRoutes(
      [
        {
          path: '/',
          element: <PartyMembersTab party={buildParty({ ...ownerParty(), is_archived: true })} />,
        },
      ],
      '/',
    );
    expect(await screen.findByText('Cora')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Make Game Master/ })).not.toBeInTheDocument();
    archived.unmount();

    // Another GM manages members but hands nothing over, and may leave.
    signIn('user-cogm', 'Cora');
    const asCoGm = renderRoutes([{ path: '/', element: <PartyMembersTab party={ownerParty()} /> }], '/');
    expect(await screen.findByRole('button', { name: 'Remove Brom' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Make Game Master/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave Party' })).toBeInTheDocument();
    asCoGm.unmount();

    signIn('user-brom', 'Brom');
    renderRoutes([{ path: '/', element: <PartyMembersTab party={buildParty({ member_count: 4 })} /> }], '/');
    expect(await screen.findByRole('button', { name: 'Leave Party' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Make Game Master/ })).not.toBeInTheDocument();
  });

  it('hands the party over once confirmed, from the keyboard, then toasts and refreshes', async () => {
    const user = userEvent.setup();
    const fetchMock = serve(() => success(buildParty({ game_master_id: 'user-brom', gm_name: 'Brom' })));
    signIn('user-gm', 'gamemaster');
    renderRoutes([{ path: '/', element: <PartyMembersTab party={ownerParty()} /> }], '/');
    await screen.findByRole('button', { name: 'Make Game Master: Brom' });
    // Enter on the button as it is on the page now. A run under load has lost the focus between focusing and
    // pressing (something else on the shared page took it), so it tries again until the dialog is there,
    // never pressing while a dialog is open (Enter would then act inside it).
    const openByKeyboard = () =>
      waitFor(async () => {
        if (!screen.queryByRole('dialog', { hidden: true })) {
          const button = screen.getByRole('button', { name: 'Make Game Master: Brom' });
          button.focus();
          expect(button).toHaveFocus();
          await user.keyboard('{Enter}');
        }
        return screen.getByRole('dialog', { name: 'Hand over the party' });
      });

    const dialog = await openByKeyboard();
    expect(
      within(dialog).getByText(
        'Hand The Copper Lanterns over to Brom? They become its Game Master and can manage everything; you stay a GM and can then leave the party.',
      ),
    ).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);

    const again = await openByKeyboard();
    await user.click(within(again).getByRole('button', { name: 'Make Game Master' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patches = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(JSON.parse(String(patches[0]?.[1]?.body))).toEqual({ party: { game_master_id: 'user-brom' } });
    expect(toasts()).toContainEqual({
      kind: 'success',
      message: 'Brom is now the Game Master of The Copper Lanterns',
    });
    // The members list is fetched again.
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/members')).length,
      ).toBeGreaterThanOrEqual(2),
    );
  });

  it('shows why a hand-over was refused in the dialog, and keeps it open', async () => {
    const user = userEvent.setup();
    let answer = () =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'party.game_master_id', message: partyMessages.handOverTarget },
      ]);
    const fetchMock = serve(() => answer());
    signIn('user-gm', 'gamemaster');
    renderRoutes([{ path: '/', element: <PartyMembersTab party={ownerParty()} /> }], '/');
    await user.click(await screen.findByRole('button', { name: 'Make Game Master: Pip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand over the party' });
    await user.click(within(dialog).getByRole('button', { name: 'Make Game Master' }));
    // Counted by their words: a slow run may show other toasts meanwhile (the lists refetching).
    const saying = (message: string) => toasts().filter((t) => t.message === message);
    // Said in the dialog, which stays open to choose again; not also in a toast over it.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(partyMessages.handOverTarget);
    expect(saying(partyMessages.handOverTarget)).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Hand over the party' })).toBeInTheDocument();

    // A refusal the client toasts itself is toasted once.
    answer = () => failure(403, 'FORBIDDEN', partyMessages.handOverOwnerOnly);
    await user.click(within(dialog).getByRole('button', { name: 'Make Game Master' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([, i]) => i?.method === 'PATCH')).toHaveLength(2),
    );
    // The client's own words for a 403 (the error catalogue's), once.
    const forbidden = errorCatalogue.FORBIDDEN.message;
    await waitFor(() => expect(saying(forbidden)).toEqual([{ kind: 'error', message: forbidden }]));
    expect(saying(partyMessages.handOverTarget)).toHaveLength(0);
    // The earlier reason went when the GM tried again.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    // Nothing was handed over. (Other files' late toasts can reach the shared store: judged by words.)
    expect(toasts().filter((t) => t.message.includes('is now the Game Master'))).toEqual([]);
  });
});

describe('PartyMembersTab: who can use the party stash', () => {
  afterEach(() => useAuthStore.setState({ user: null }));
  // As the server lists them to the GM: whether the plan that applies to each in the party (their own or a
  // sponsor's) has Party collaboration. Pip is a Free player sponsored here; the GM's own plan has none.
  const everyone = [
    buildMember('user-gm', 'gamemaster', 'gm', false),
    buildMember('user-brom', 'Brom', 'player', false),
    buildMember('user-pip', 'Pip', 'player', true),
    buildMember('user-cora', 'Cora', 'manager', true),
    buildMember('user-olly', 'Olly', 'observer', false),
  ];

  function serve() {
    return mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1/members') return success(everyone);
      // The patronage list is for those whose plan can sponsor: the server refuses it to this GM.
      if (path === '/api/v1/patronages/eligible/party-1')
        return failure(403, 'FEATURE_NOT_AVAILABLE', 'Sponsoring other players (patronage) is not included');
      if (path === '/api/v1/subscription/tiers') return success(buildTiers());
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
  }
  const cardOf = async (name: string) => {
    const cards = await screen.findAllByTestId('member-card');
    const card = cards.find((candidate) => within(candidate).queryByText(name, { exact: true }));
    if (!card) throw new Error(`no card for ${name}`);
    return card;
  };

  it('shows the GM the players whose plan lacks Party collaboration and whom nobody sponsors', async () => {
    const fetchMock = serve();
    useAuthStore.setState({ user: buildUser({ id: 'user-gm', username: 'gamemaster' }) });
    renderRoutes(
      [
        {
          path: '/',
          element: <PartyMembersTab party={buildParty({ is_gm: true, user_role: 'gm', member_count: 5 })} />,
        },
      ],
      '/',
    );
    const brom = await cardOf('Brom');
    expect(await within(brom).findByTestId('member-stash-access')).toHaveTextContent(
      'Can’t use the party stash: their plan has no Party collaboration and nobody sponsors them here.',
    );
    // Sponsored, on a plan with it, or only watching: nothing to say.
    for (const name of ['Pip', 'Cora', 'Olly', 'gamemaster']) {
      expect(within(await cardOf(name)).queryByTestId('member-stash-access')).not.toBeInTheDocument();
    }
    expect(screen.getByTestId('stash-access-summary')).toHaveTextContent(
      '1 member can only look at the party stash: using it needs Party collaboration on their own plan, or a sponsor in this party (see Patronage on the Overview tab).',
    );
    // A standing note about the party, not news: it must not cut into what a screen reader is saying.
    expect(screen.getByTestId('stash-access-summary')).toHaveAttribute('role', 'note');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Nor is any plan asked for: the member list says it, and the patronage list is not the GM's to read.
    expect(
      fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('eligible')),
    ).toEqual([]);
  });

  it('asks nothing about plans for a player, and says nothing', async () => {
    const fetchMock = serve();
    renderRoutes([{ path: '/', element: <PartyMembersTab party={buildParty({ member_count: 5 })} /> }], '/');
    expect(await cardOf('Brom')).toBeInTheDocument();
    expect(screen.queryByTestId('member-stash-access')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stash-access-summary')).not.toBeInTheDocument();
    expect(
      fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('eligible')),
    ).toEqual([]);
  });
});

describe('PartyMembersTab: the keyboard keeps its place (decisions: focus is never left on nothing)', () => {
  const afterEachToasts = () => useUiStore.setState({ toasts: [] });

  /** The members list as it stands, a role change answered after a moment, and a removal. */
  function serve() {
    let current = [...members];
    let answerPatch: () => void = () => undefined;
    const fetch = mockFetch(async ({ url, init }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path === '/api/v1/parties/party-1/members') return success(current);
      const removed = /^\/api\/v1\/parties\/party-1\/members\/(.+)$/.exec(path)?.[1];
      if (removed && init.method === 'DELETE') {
        current = current.filter((member) => member.user_id !== removed);
        return new Response(null, { status: 204 });
      }
      if (removed && init.method === 'PATCH') {
        await new Promise<void>((resolve) => {
          answerPatch = resolve;
        });
        return new Response(null, { status: 204 });
      }
      if (path === '/api/v1/parties/party-1') return success(buildParty({ is_gm: true, user_role: 'gm' }));
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
    return { fetch, answerPatch: () => answerPatch() };
  }

  function renderTab() {
    afterEachToasts();
    const party = buildParty({ is_gm: true, user_role: 'gm', member_count: 3 });
    renderRoutes([{ path: '/', element: <PartyMembersTab party={party} /> }], '/');
  }

  afterEach(afterEachToasts);

  it('keeps the focus on a role select while the change is saved, and after', async () => {
    const user = userEvent.setup();
    const server = serve();
    renderTab();
    const select = await screen.findByRole('combobox', { name: 'Role of Brom' });
    select.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() =>
      expect(server.fetch.mock.calls.some(([, init]) => (init as RequestInit)?.method === 'PATCH')).toBe(
        true,
      ),
    );
    // While the request runs the select stays a control that holds the focus (a disabled one drops it to
    // <body> in a browser), marked busy and not to be changed again.
    expect(select).not.toBeDisabled();
    expect(select).toHaveAttribute('aria-busy', 'true');
    expect(document.activeElement).toBe(select);
    // Not to be changed again meanwhile: the list does not open.
    await user.keyboard('{ArrowDown}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    server.answerPatch();
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Role changed to Manager'),
    );
    await waitFor(() => expect(select).not.toHaveAttribute('aria-busy'));
    expect(document.activeElement).toBe(select);
  });

  it('after a removal, moves the focus to the next member’s Remove, else the one before, else the heading', async () => {
    const user = userEvent.setup();
    serve();
    renderTab();
    const removeBrom = await screen.findByRole('button', { name: 'Remove Brom' });
    removeBrom.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })),
    );
    await user.keyboard('{Tab}{Enter}');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove Brom' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Pip' })),
    );

    // Pip was the last one who can be removed: the heading takes it.
    await user.keyboard('{Enter}');
    const again = await screen.findByRole('dialog', { name: 'Remove member' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(again).getByRole('button', { name: 'Cancel' })),
    );
    await user.keyboard('{Tab}{Enter}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Pip' })).not.toBeInTheDocument());
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Members (1)' })),
    );
  });
});

describe('PartyMembersTab: the members as a list', () => {
  it('reads the members as a list named by the Members heading, a card a member, and says it is loading', async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/parties/party-1/members'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const party = buildParty({ is_gm: true, user_role: 'gm', member_count: 3 });
    renderRoutes([{ path: '/', element: <PartyMembersTab party={party} /> }], '/');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading members');
    answer(success(members));
    const list = await screen.findByRole('list', { name: 'Members (3)' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual([
      expect.stringContaining('gamemaster'),
      expect.stringContaining('Brom'),
      expect.stringContaining('Pip'),
    ]);
    expect(within(cards[1] as HTMLElement).getByRole('button', { name: 'Remove Brom' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
