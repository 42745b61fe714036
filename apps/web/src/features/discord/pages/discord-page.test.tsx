import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProviders, mockFetch, success } from '../../../test/fixtures';
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
