import type { CurrentSubscription, Party } from '@haversack/contracts';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { watchToasts } from '../../subscription/plan-limit-test-server';
import { buildCurrentSubscription, buildTiers } from '../../subscription/subscription-fixtures';
import { CharacterCreatePage } from './character-create-page';

interface FakeServer {
  current?: CurrentSubscription;
  parties?: Party[];
}

/** The calls /characters/new makes: the plan, the plans' catalogue, the player's parties, and the create. */
function mockServer({ current = buildCurrentSubscription(), parties = [] }: FakeServer = {}) {
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    const method = init.method ?? 'GET';
    if (path === '/subscription/current') return success(current);
    if (path === '/subscription/tiers') return success(buildTiers());
    if (path === '/parties' && method === 'GET') {
      return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
    }
    if (path === '/characters' && method === 'POST')
      return success(buildCharacter({ id: 'character-9' }), 201);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${path}`);
  });
}

function renderPage(entry = '/characters/new') {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/characters/new', element: <CharacterCreatePage /> },
      { path: '/characters', element: <p>Character list</p> },
      { path: '/characters/:id', element: <p>Character page</p> },
    ]),
    entry,
  );
}

const atLimit = () => buildCurrentSubscription({ tier: 'tier_free', used: { characters: 1 } });

describe('CharacterCreatePage at the plan’s character limit', () => {
  it('says the limit once, with the way to upgrade, and disables Create Character with that reason', async () => {
    const fetchMock = mockServer({ current: atLimit() });
    // Only this page's toasts from here on: test files share a worker, and with it their toasts.
    const toasts = watchToasts(/character/i);
    const user = userEvent.setup();
    renderPage();

    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent('1 of 1 character used: your plan has no room for another.');
    expect(screen.getAllByRole('link', { name: 'See upgrade options' })).toHaveLength(1);
    const submit = screen.getByRole('button', { name: 'Create Character' });
    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(submit).toHaveAccessibleDescription(
      '1 of 1 character used: your plan has no room for another. See upgrade options',
    );

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aria{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });

  it('after a refusal on a stale count, says the limit in one toast and then disables the submit', async () => {
    let refused = false;
    mockFetch(({ url, init }) => {
      const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
      if (path === '/subscription/current') {
        return success(
          buildCurrentSubscription({ tier: 'tier_free', used: { characters: refused ? 1 : 0 } }),
        );
      }
      if (path === '/parties')
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
      if (path === '/characters' && init.method === 'POST') {
        refused = true;
        const message = 'Your Free plan allows 1 character. Upgrade to create more.';
        return failure(403, 'LIMIT_EXCEEDED', message, [
          { field: 'characters', message, resource: 'characters' },
        ]);
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
    const toasts = watchToasts(/character/i);
    const user = userEvent.setup();
    renderPage();

    const submit = await screen.findByRole('button', { name: 'Create Character' });
    await screen.findByTestId('plan-limit-hint');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Aria');
    await user.click(submit);

    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(screen.getByTestId('plan-limit-hint')).toHaveAttribute('data-full', 'true');
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual(['Your Free plan allows 1 character. Upgrade to create more.']);
  });

  it('keeps Create Character enabled while there is room', async () => {
    mockServer({ current: buildCurrentSubscription({ tier: 'tier_free', used: { characters: 0 } }) });
    renderPage();

    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent('0 of 1 character used');
    expect(screen.getByRole('button', { name: 'Create Character' })).toBeEnabled();
  });

  it('creates one character for two presses of Create Character in the same task (Enter and a tap)', async () => {
    const fetchMock = mockServer();
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'Brena');
    const submit = screen.getByRole('button', { name: 'Create Character' });
    act(() => {
      submit.click();
      submit.click();
    });
    const creates = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    await vi.waitFor(() => expect(creates()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(creates()).toHaveLength(1);
  });

  it('lets a sponsored player create one in the party where the sponsor’s plan has room', async () => {
    const sponsored = buildCurrentSubscription({
      tier: 'tier_free',
      used: { characters: 1 },
      patronages: {
        granted: [],
        received: [
          {
            id: 'patronage-1',
            party_id: 'party-2',
            party_name: 'Moonfall',
            active: true,
            granted_tier: 'tier_2',
            patron_id: 'user-9',
            patron_name: 'ranger',
            beneficiary_id: 'user-1',
            beneficiary_name: 'bard',
            created_at: '2026-03-02T00:00:00.000Z',
          },
        ],
      },
    });
    mockServer({
      current: sponsored,
      parties: [
        buildParty({ id: 'party-1', name: 'Greyhawk' }),
        buildParty({ id: 'party-2', name: 'Moonfall' }),
      ],
    });
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByTestId('character-limit-sponsored')).toHaveTextContent(
      'You can still create one in Moonfall, where you are sponsored: choose it as the Party.',
    );
    const submit = screen.getByRole('button', { name: 'Create Character' });
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Party' }));
    await user.click(await screen.findByRole('option', { name: 'Moonfall', hidden: true }));
    expect(submit).toBeEnabled();
  });
});

describe('CharacterCreatePage party', () => {
  it('preselects the party of a player who belongs to exactly one, without counting it as an edit', async () => {
    mockServer({ parties: [buildParty({ id: 'party-1', name: 'Greyhawk' })] });
    const user = userEvent.setup();
    renderPage();

    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Party' })).toHaveValue('Greyhawk'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Character list')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Leave this page?' })).not.toBeInTheDocument();
  });

  it('leaves the party empty for a player in several parties, or none', async () => {
    mockServer({
      parties: [
        buildParty({ id: 'party-1', name: 'Greyhawk' }),
        buildParty({ id: 'party-2', name: 'Moonfall' }),
      ],
    });
    const { unmount } = renderPage();
    await screen.findByTestId('plan-limit-hint');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('combobox', { name: 'Party' })).toHaveValue('');
    unmount();

    mockServer({ parties: [] });
    renderPage();
    await screen.findByTestId('plan-limit-hint');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('combobox', { name: 'Party' })).toHaveValue('');
  });

  it('keeps the party the link named (?party_id) over the only one', async () => {
    mockServer({ parties: [buildParty({ id: 'party-1', name: 'Greyhawk' })] });
    renderPage('/characters/new?party_id=party-7');
    await screen.findByTestId('plan-limit-hint');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('combobox', { name: 'Party' })).toHaveValue('Selected party');
  });
});
