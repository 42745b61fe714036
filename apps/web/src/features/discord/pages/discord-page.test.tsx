import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildProviders, buildUser, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { discordKeys } from '../api/discord-api';
import { DiscordPage } from './discord-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the /discord page', () => {
  it('tells whoever runs the server both ways to register the commands: from the sources and from a build', async () => {
    mockFetch(
      ({ url }) => {
        throw new Error(`Failed to fetch: no test answered URL ${url}`);
      },
      { providers: buildProviders({ sign_in: true, interactions: true }) },
    );
    renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    const box = (await screen.findByRole('heading', { name: 'For whoever runs this server' })).closest(
      'section',
    );
    expect(box).not.toBeNull();
    expect(box).toHaveTextContent('npm run discord:register -w apps/server');
    // A self-hoster who pruned the dev dependencies runs the built CLI, as the README says.
    expect(box).toHaveTextContent('node apps/server/dist/cli/discord-register.js');
  });

  it('lists /give with its optional from', async () => {
    mockFetch(
      ({ url }) => {
        throw new Error(`Failed to fetch: no test answered URL ${url}`);
      },
      { providers: buildProviders({ sign_in: true, interactions: true }) },
    );
    renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    expect(await screen.findByText('/give item quantity character [from]')).toBeInTheDocument();
  });
});

describe('the /discord page on a slow or dropped connection', () => {
  it('keeps what this server supports when its refresh fails, with a note', async () => {
    let connected = true;
    // mockFetch answers the providers itself, always: here they are what the test is about.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      if (!String(input).endsWith('/api/v1/auth/providers')) throw new TypeError('Failed to fetch');
      if (!connected) throw new TypeError('Failed to fetch');
      return success(buildProviders({ sign_in: true, interactions: false }));
    });
    const { queryClient } = renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    const support = await screen.findByTestId('discord-support');
    connected = false;
    await queryClient.refetchQueries({ queryKey: discordKeys.providers });
    await waitFor(() => expect(within(support).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(support).getAllByText('Available')).toHaveLength(1);
    expect(screen.queryByText('Could not check what this server supports.')).not.toBeInTheDocument();
  }, 20_000);
});

describe('the /discord page’s link step on a slow or dropped connection', () => {
  const signedOut = useAuthStore.getState();
  const linked = {
    account: { discord_user_id: '1234', username: 'aria#0001', linked_at: '2026-01-02T00:00:00.000Z' },
    has_password: true,
  };
  /** A signed-in user, with Discord sign-in on; `down.link` drops the connection for their link. */
  function serveSignedIn() {
    const down = { link: false };
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), 'http://test');
      if (pathname === '/api/v1/auth/providers') return success(buildProviders({ sign_in: true }));
      if (pathname === '/api/v1/users/me/discord' && !down.link) return success(linked);
      throw new TypeError('Failed to fetch');
    });
    return down;
  }
  afterEach(() => useAuthStore.setState(signedOut, true));

  it('keeps the linked account when a refresh of the link fails, with a note', async () => {
    const down = serveSignedIn();
    const { queryClient } = renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    expect(await screen.findByTestId('discord-page-linked')).toHaveTextContent('aria#0001');
    down.link = true;
    await queryClient.refetchQueries({ queryKey: discordKeys.link });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('discord-page-linked')).toHaveTextContent('aria#0001');
    expect(screen.queryByTestId('discord-page-link')).not.toBeInTheDocument();
  }, 20_000);

  it('says the link could not be loaded, rather than offer Link Discord to someone maybe linked', async () => {
    const down = serveSignedIn();
    down.link = true;
    renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    expect(
      await screen.findByText('Could not load your Discord link.', undefined, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(screen.queryByTestId('discord-page-link')).not.toBeInTheDocument();
  }, 20_000);
});
