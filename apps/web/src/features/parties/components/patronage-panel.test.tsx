import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { PatronagePanel } from './patronage-panel';

const members = [
  {
    user_id: 'u-bard',
    username: 'bard',
    role: 'player',
    grantable_tiers: ['tier_1', 'tier_2'],
    sponsored: false,
    sponsored_by_you: false,
    patronage_id: null,
    granted_tier: null,
  },
  {
    user_id: 'u-rogue',
    username: 'rogue',
    role: 'player',
    grantable_tiers: ['tier_1', 'tier_2'],
    sponsored: true,
    sponsored_by_you: true,
    patronage_id: 'pat-1',
    granted_tier: 'tier_2',
  },
  {
    user_id: 'u-cleric',
    username: 'cleric',
    role: 'player',
    grantable_tiers: ['tier_1', 'tier_2'],
    sponsored: true,
    sponsored_by_you: false,
    patronage_id: 'pat-2',
    granted_tier: 'tier_2',
  },
];

function serve(allowed = true, eligible: unknown[] = members) {
  return mockFetch(({ url, init }) => {
    if (url.endsWith('/subscription/check_feature')) return success({ allowed, feature: 'patronage_system' });
    if (url.includes('/patronages/eligible/')) return success(eligible);
    if (url.endsWith('/patronages/pat-1') && init.method === 'DELETE')
      return new Response(null, { status: 204 });
    return success(null);
  });
}

describe('PatronagePanel', () => {
  afterEach(() => {
    useAuthStore.setState({ user: null });
    useUiStore.setState({ toasts: [] });
  });

  it('asks before starting a sponsorship, saying what the member gets, and names what they have after', async () => {
    useAuthStore.setState({ user: buildUser({ tier: 'tier_2' }) });
    const fetches = serve();
    const user = userEvent.setup();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    // A running sponsorship of yours says what the member has, not their own plan beside "Sponsored".
    expect(await screen.findByText('Hero (sponsored)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sponsor bard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start sponsorship' });
    expect(dialog).toHaveTextContent('bard gets Hero in Mistwood while your plan lasts.');
    const posts = () =>
      fetches.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/patronages') && init?.method === 'POST',
      );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts()).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sponsor bard' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Start sponsorship' })).getByRole('button', {
        name: 'Sponsor',
      }),
    );
    await waitFor(() => expect(posts()).toHaveLength(1));
  });

  it('lets the sponsor choose a plan above the member’s own and up to their own, the highest first, and sends it', async () => {
    useAuthStore.setState({ user: buildUser({ tier: 'tier_3' }) });
    // The plans the server says this sponsor may grant each member (above theirs, up to the sponsor's).
    const member = (username: string, grantable_tiers: string[]) => ({
      user_id: `u-${username}`,
      username,
      role: 'player',
      grantable_tiers,
      sponsored: false,
      sponsored_by_you: false,
      patronage_id: null,
      granted_tier: null,
    });
    const fetches = serve(true, [
      member('bard', ['tier_1', 'tier_2', 'tier_3']),
      member('druid', ['tier_3']),
    ]);
    const user = userEvent.setup();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    await user.click(await screen.findByRole('button', { name: 'Sponsor bard' }));
    let dialog = await screen.findByRole('dialog', { name: 'Start sponsorship' });
    const picker = within(dialog).getByRole('radiogroup', { name: 'Plan to grant' });
    // Free is never granted; Legend is the sponsor's own plan, the highest they may grant.
    expect(
      within(picker)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['tier_1', 'tier_2', 'tier_3']);
    expect(within(picker).getByRole('radio', { name: 'Legend' })).toBeChecked();
    expect(dialog).toHaveTextContent('bard gets Legend in Mistwood while your plan lasts.');
    await user.click(within(picker).getByRole('radio', { name: 'Adventurer' }));
    expect(dialog).toHaveTextContent('bard gets Adventurer in Mistwood while your plan lasts.');
    await user.click(within(dialog).getByRole('button', { name: 'Sponsor' }));
    const posts = () =>
      fetches.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/patronages') && init?.method === 'POST',
      );
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]?.[1]?.body))).toEqual({
      beneficiary_id: 'u-bard',
      party_id: 'party-1',
      granted_tier: 'tier_1',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // Above a Hero member, a Legend sponsor has one plan to give: said, not offered as a choice.
    await user.click(screen.getByRole('button', { name: 'Sponsor druid' }));
    dialog = await screen.findByRole('dialog', { name: 'Start sponsorship' });
    expect(within(dialog).queryByRole('radiogroup')).toBeNull();
    expect(within(dialog).getByTestId('sponsor-plan')).toHaveTextContent('Plan: Legend');
    expect(dialog).toHaveTextContent('druid gets Legend in Mistwood while your plan lasts.');
    await user.click(within(dialog).getByRole('button', { name: 'Sponsor' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(JSON.parse(String(posts()[1]?.[1]?.body))).toMatchObject({ granted_tier: 'tier_3' });
  });

  it('names the member and the plan granted once the sponsorship started, as the server answers it', async () => {
    useAuthStore.setState({ user: buildUser({ tier: 'tier_3' }) });
    const bard = { ...members[0], user_id: 'u-bard', username: 'bard' };
    mockFetch(({ url, init }) => {
      if (url.endsWith('/subscription/check_feature'))
        return success({ allowed: true, feature: 'patronage_system' });
      if (url.includes('/patronages/eligible/')) return success([bard]);
      if (url.endsWith('/patronages') && init.method === 'POST')
        return success(
          {
            id: 'pat-3',
            party_id: 'party-1',
            party_name: 'Mistwood',
            active: true,
            granted_tier: 'tier_1',
            patron_id: 'u-patron',
            patron_name: 'patron',
            beneficiary_id: 'u-bard',
            beneficiary_name: 'bard',
            created_at: '2024-01-01T00:00:00.000Z',
          },
          201,
        );
      return success(null);
    });
    const user = userEvent.setup();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    await user.click(await screen.findByRole('button', { name: 'Sponsor bard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start sponsorship' });
    await user.click(within(dialog).getByRole('radio', { name: 'Adventurer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Sponsor' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'success',
        message: 'Sponsorship started: bard has Adventurer in this party.',
      }),
    );
  });

  it('names the plan a sponsorship of yours grants, which may be below your own', async () => {
    useAuthStore.setState({ user: buildUser({ tier: 'tier_3' }) });
    serve(true, [{ ...members[1], granted_tier: 'tier_1' }]);
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    expect(await screen.findByText('Adventurer (sponsored)')).toBeInTheDocument();
  });

  it('offers no sponsorship to a member whose own plan is already as high as the sponsor’s', async () => {
    useAuthStore.setState({ user: buildUser({ tier: 'tier_2' }) });
    // The plans the server says this sponsor may grant each member (above theirs, up to the sponsor's).
    const member = (username: string, grantable_tiers: string[]) => ({
      user_id: `u-${username}`,
      username,
      role: 'player',
      grantable_tiers,
      sponsored: false,
      sponsored_by_you: false,
      patronage_id: null,
      granted_tier: null,
    });
    serve(true, [member('bard', ['tier_1', 'tier_2']), member('paladin', []), member('druid', ['tier_2'])]);
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    expect(await screen.findByRole('button', { name: 'Sponsor bard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sponsor druid' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sponsor paladin' })).not.toBeInTheDocument();
    expect(screen.getByText('Has your plan or better')).toBeInTheDocument();
  });

  it('names each member on their button, and asks before ending a sponsorship', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );

    expect(await screen.findByRole('button', { name: 'Sponsor bard' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'End sponsorship of rogue' }));
    const dialog = await screen.findByRole('dialog', { name: 'End sponsorship' });
    // The plan the member loses is named, as their badge names it (a grant may be below the sponsor's).
    expect(dialog).toHaveTextContent('rogue loses Hero in this party at once.');
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'End sponsorship' }));
    await expect
      .poll(() => deletes().map(([url]) => String(url)))
      .toEqual([expect.stringMatching(/\/patronages\/pat-1$/)]);
  });

  it('offers no button for a sponsorship another member gives: only its patron may end it', async () => {
    serve();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    await screen.findByRole('button', { name: 'Sponsor bard' });
    expect(screen.queryByRole('button', { name: 'End sponsorship of cleric' })).toBeNull();
    expect(screen.getByText('Sponsored by another member')).toBeInTheDocument();
  });

  it('starts no sponsorship in an archived party, but still lets one running there end', async () => {
    serve();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm archived /> }],
      '/',
    );
    expect(await screen.findByRole('button', { name: 'End sponsorship of rogue' })).toBeInTheDocument();
    expect(screen.getByText('bard')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Sponsor / })).toBeNull();
  });

  it('puts the focus on the member’s row once the button that opened the dialog is gone', async () => {
    // In an archived party an ended sponsorship leaves its row no button: the focus goes to the name.
    let ended = false;
    mockFetch(({ url, init }) => {
      if (url.endsWith('/subscription/check_feature'))
        return success({ allowed: true, feature: 'patronage_system' });
      if (url.includes('/patronages/eligible/'))
        return success(
          ended
            ? [
                {
                  ...members[1],
                  sponsored: false,
                  sponsored_by_you: false,
                  patronage_id: null,
                  granted_tier: null,
                },
              ]
            : [members[1]],
        );
      if (url.endsWith('/patronages/pat-1') && init.method === 'DELETE') {
        ended = true;
        return new Response(null, { status: 204 });
      }
      return success(null);
    });
    const user = userEvent.setup();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm archived /> }],
      '/',
    );
    await user.click(await screen.findByRole('button', { name: 'End sponsorship of rogue' }));
    const dialog = await screen.findByRole('dialog', { name: 'End sponsorship' });
    await user.click(within(dialog).getByRole('button', { name: 'End sponsorship' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByText('rogue')).toHaveFocus());
  });

  it('lets a member who is not the GM sponsor when their plan has patronage', async () => {
    serve();
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm={false} /> }],
      '/',
    );
    expect(await screen.findByRole('button', { name: 'Sponsor bard' })).toBeInTheDocument();
  });

  it('shows a member without patronage nothing, and the GM the upgrade that unlocks it', async () => {
    const fetchMock = serve(false);
    const { unmount } = renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm={false} /> }],
      '/',
    );
    await expect.poll(() => fetchMock.mock.calls.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('patronage-panel')).toBeNull();
    unmount();
    // Their plan cannot sponsor: the members' list (which the server refuses them) is never asked for.
    const eligibleCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).includes('/patronages/eligible/'));
    expect(eligibleCalls()).toEqual([]);
    renderRoutes(
      [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
      '/',
    );
    expect(await screen.findByRole('link', { name: 'Upgrade to unlock patronage' })).toBeInTheDocument();
    expect(eligibleCalls()).toEqual([]);
  });

  describe('when a load fails', () => {
    /** The panel's two reads, each of which may meet a dropped connection. */
    function serveFlaky() {
      const state = { featureDown: false, eligibleDown: false, eligible: members.slice(0, 1) };
      const fetches = mockFetch(({ url }) => {
        if (url.endsWith('/subscription/check_feature')) {
          if (state.featureDown) throw new TypeError('Failed to fetch');
          return success({ allowed: true, feature: 'patronage_system' });
        }
        if (url.includes('/patronages/eligible/')) {
          if (state.eligibleDown) throw new TypeError('Failed to fetch');
          return success(state.eligible);
        }
        return success(null);
      });
      const asked = (part: string) => fetches.mock.calls.filter(([url]) => String(url).includes(part)).length;
      return { state, asked };
    }
    const renderPanel = () =>
      renderRoutes(
        [{ path: '/', element: <PatronagePanel partyId="party-1" partyName="Mistwood" isGm /> }],
        '/',
      );

    it('offers Try Again when patronage could not be checked at all', async () => {
      const { state, asked } = serveFlaky();
      state.featureDown = true;
      const user = userEvent.setup();
      renderPanel();
      const panel = await screen.findByTestId('patronage-panel');
      await within(panel).findByText(/Patronage could not be checked\./, undefined, { timeout: 5_000 });
      const before = asked('/subscription/check_feature');
      state.featureDown = false;
      await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
      expect(
        await within(panel).findByRole('button', { name: 'Sponsor bard' }, { timeout: 5_000 }),
      ).toBeInTheDocument();
      expect(asked('/subscription/check_feature')).toBe(before + 1);
    });

    it('offers Try Again when the members could not be loaded at all', async () => {
      const { state, asked } = serveFlaky();
      state.eligibleDown = true;
      const user = userEvent.setup();
      renderPanel();
      const panel = await screen.findByTestId('patronage-panel');
      await within(panel).findByText(/Members could not be loaded\./, undefined, { timeout: 5_000 });
      const before = asked('/patronages/eligible/');
      state.eligibleDown = false;
      await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
      expect(
        await within(panel).findByRole('button', { name: 'Sponsor bard' }, { timeout: 5_000 }),
      ).toBeInTheDocument();
      expect(asked('/patronages/eligible/')).toBe(before + 1);
    });

    it('keeps the members on screen when a refresh fails, says so, and tries again on request', async () => {
      const { state, asked } = serveFlaky();
      const user = userEvent.setup();
      const { queryClient } = renderPanel();
      const panel = await screen.findByTestId('patronage-panel');
      await within(panel).findByRole('button', { name: 'Sponsor bard' }, { timeout: 5_000 });
      // A refresh of the members (after a sponsorship changed, or a live update) while the connection is down.
      state.eligibleDown = true;
      await queryClient.refetchQueries({ queryKey: ['parties'] }).catch(() => undefined);
      await waitFor(() => expect(within(panel).getByTestId('refresh-failed-note')).toBeVisible(), {
        timeout: 5_000,
      });
      expect(within(panel).getByRole('status')).toHaveTextContent(
        'Could not refresh. Showing what was loaded before.',
      );
      expect(within(panel).getByRole('button', { name: 'Sponsor bard' })).toBeInTheDocument();
      expect(within(panel).queryByText(/Members could not be loaded\./)).not.toBeInTheDocument();

      state.eligibleDown = false;
      state.eligible = members;
      const before = asked('/patronages/eligible/');
      await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
      expect(
        await within(panel).findByRole('button', { name: 'End sponsorship of rogue' }, { timeout: 5_000 }),
      ).toBeInTheDocument();
      expect(asked('/patronages/eligible/')).toBe(before + 1);
      await waitFor(() => expect(within(panel).queryByTestId('refresh-failed-note')).toBeNull());
    });
  });
});
