import type { Notification } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { NotificationsPage } from './notifications-page';

afterEach(() => useUiStore.setState({ toasts: [] }));

function notice(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'n1',
    kind: 'items_received',
    message: 'Mira gave 3 × Healing potion to Pip',
    party_id: 'p1',
    party_name: 'Mistwood',
    link: { kind: 'character', path: '/characters/c1', label: 'Pip' },
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    read_at: null,
    repeat_count: 1,
    ...overrides,
  };
}

function listOf(notices: Notification[], unread = notices.filter((n) => n.read_at === null).length) {
  return jsonResponse(200, {
    status: 'success',
    data: notices,
    meta: {
      current_page: 1,
      total_pages: 1,
      total_count: notices.length,
      per_page: 20,
      unread_count: unread,
    },
  });
}

function serve(notices: () => Response, calls: string[] = []) {
  mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    calls.push(`${method} ${pathname}`);
    if (pathname === '/api/v1/invitations') return success([]);
    if (pathname === '/api/v1/notifications' && method === 'GET') return notices();
    if (pathname === '/api/v1/notifications/read_all') return success({ unread_count: 0 });
    if (pathname === '/api/v1/notifications/n1/read')
      return success(notice({ read_at: new Date().toISOString() }));
    return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
  });
  return calls;
}

const page = () =>
  renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], '/notifications');

describe('NotificationsPage: recent notices', () => {
  it('lists them below the invitations, unread ones marked in words, each with its time and link', async () => {
    serve(() =>
      listOf([
        notice(),
        notice({
          id: 'n2',
          kind: 'member_removed',
          message: 'Mira removed you from Mistwood.',
          link: null,
          read_at: new Date().toISOString(),
        }),
      ]),
    );
    page();
    expect(await screen.findByText('You have no pending party invitations.')).toBeInTheDocument();
    const recent = await screen.findByRole('region', { name: 'Recent' });
    const items = await within(recent).findAllByTestId('notice');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Mira gave 3 × Healing potion to Pip')).toBeInTheDocument();
    expect(within(first).getByText('Unread')).toBeInTheDocument();
    expect(within(first).getByText('5m ago')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Open Pip' })).toHaveAttribute('href', '/characters/c1');
    expect(within(second).queryByText('Unread')).toBeNull();
    expect(within(second).getByText('Mistwood')).toBeInTheDocument();
    expect(within(recent).getByText('1 unread.')).toBeInTheDocument();
  });

  it('tells of loot revealed in a party, leading to its Loot tab', async () => {
    const calls = serve(() =>
      listOf([
        notice({
          kind: 'loot_revealed',
          message: 'Mira revealed Goblin pockets in Mistwood.',
          link: { kind: 'party', path: '/parties/p1?tab=loot', label: 'Party Loot' },
        }),
      ]),
    );
    const { router } = renderRoutes(
      [
        { path: '/notifications', element: <NotificationsPage /> },
        { path: '/parties/:id', element: <p>Party page</p> },
      ],
      '/notifications',
    );
    const recent = await screen.findByRole('region', { name: 'Recent' });
    const [item] = await within(recent).findAllByTestId('notice');
    expect(
      within(item as HTMLElement).getByText('Mira revealed Goblin pockets in Mistwood.'),
    ).toBeInTheDocument();
    const link = within(item as HTMLElement).getByRole('link', { name: 'Open Party Loot' });
    expect(link).toHaveAttribute('href', '/parties/p1?tab=loot');
    await userEvent.click(link);
    expect(await screen.findByText('Party page')).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/parties/p1?tab=loot');
    await waitFor(() => expect(calls).toContain('POST /api/v1/notifications/n1/read'));
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes a notice’s link at least 24 px tall, where it was 17', async () => {
      // Outside sweep: "Open Party Loot" was 96 x 17 px at 375 px, the smallest thing to tap on the page.
      useGlobalStyles('Anchor');
      setViewport(375, 812);
      serve(() => listOf([notice()]));
      page();
      const link = await screen.findByRole('link', { name: 'Open Pip' });
      expect(getComputedStyle(link).minHeight).toBe('24px');
    });
  });

  it('marks one read, and all read', async () => {
    let read = false;
    const calls = serve(() => listOf([notice(read ? { read_at: new Date().toISOString() } : {})]));
    page();
    const recent = await screen.findByRole('region', { name: 'Recent' });
    await userEvent.click(await within(recent).findByRole('button', { name: 'Mark as read' }));
    expect(calls).toContain('POST /api/v1/notifications/n1/read');
    read = true;
    await userEvent.click(within(recent).getByRole('button', { name: 'Mark all as read' }));
    expect(calls).toContain('POST /api/v1/notifications/read_all');
    expect(await within(recent).findByText('All read.')).toBeInTheDocument();
    expect(within(recent).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('keeps focus on what a mark changed: the notice, then the count', async () => {
    let readOne = false;
    let readAll = false;
    serve(() =>
      listOf([
        notice(readOne || readAll ? { read_at: new Date().toISOString() } : {}),
        notice({
          id: 'n2',
          message: 'Mira now sponsors you in Mistwood.',
          ...(readAll ? { read_at: new Date().toISOString() } : {}),
        }),
      ]),
    );
    page();
    const recent = await screen.findByRole('region', { name: 'Recent' });
    const [first] = await within(recent).findAllByTestId('notice');
    readOne = true;
    await userEvent.click(within(first as HTMLElement).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(within(recent).getAllByTestId('notice')[0]).toHaveFocus());
    readAll = true;
    await userEvent.click(within(recent).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(within(recent).getByText('All read.')).toHaveFocus());
  });

  it('says how many more of the same act one notice stands for', async () => {
    serve(() =>
      listOf([
        notice({ message: 'Garrick gave 1 × Gold piece to Pip', repeat_count: 300 }),
        notice({ id: 'n2' }),
      ]),
    );
    page();
    const recent = await screen.findByRole('region', { name: 'Recent' });
    const [folded, single] = (await within(recent).findAllByTestId('notice')) as [HTMLElement, HTMLElement];
    expect(within(folded).getByText('Garrick gave 1 × Gold piece to Pip')).toBeInTheDocument();
    expect(within(folded).getByText('and 299 more like it')).toBeInTheDocument();
    expect(within(single).queryByText(/more like it/)).toBeNull();
  });

  it('says when there are none', async () => {
    serve(() => listOf([]));
    page();
    expect(await screen.findByRole('heading', { name: 'No notices yet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('says when they cannot be loaded, and tries again, the invitations still shown', async () => {
    let fail = true;
    serve(() =>
      fail
        ? jsonResponse(500, { status: 'error', error: { code: 'INTERNAL_SERVER_ERROR', message: 'Boom' } })
        : listOf([notice()]),
    );
    page();
    const panel = await screen.findByTestId('error-panel');
    expect(within(panel).getByText('Failed to load your notices')).toBeInTheDocument();
    expect(screen.getByText('You have no pending party invitations.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(panel).getByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('Mira gave 3 × Healing potion to Pip')).toBeInTheDocument();
  });
});

describe('NotificationsPage: invitations', () => {
  it('names the party in each Accept and Decline, so that two invitations are told apart', async () => {
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/invitations')
        return success(
          ['Mistwood', 'The Copper Lanterns'].map((party_name, index) => ({
            id: `i${index}`,
            party_id: `p${index}`,
            party_name,
            role: 'player',
            message: '',
            status: 'pending',
            invited_user: { id: 'u1', username: 'pip' },
            invited_by: { id: 'u2', username: 'mira' },
            created_at: new Date().toISOString(),
          })),
        );
      if (pathname === '/api/v1/notifications') return listOf([]);
      return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
    });
    page();
    for (const party of ['Mistwood', 'The Copper Lanterns']) {
      const accept = await screen.findByRole('button', { name: `Accept invitation to ${party}` });
      // The words on screen stay the spec's.
      expect(accept).toHaveTextContent(/^Accept$/);
      expect(screen.getByRole('button', { name: `Decline invitation to ${party}` })).toHaveTextContent(
        /^Decline$/,
      );
    }
  });
});
