import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProviders, failure, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { discordKeys } from '../api/discord-api';
import { DiscordLinkSection } from './discord-link-section';

const linked = {
  account: { discord_user_id: '1234', username: 'aria#0001', linked_at: '2026-01-02T00:00:00.000Z' },
  has_password: true,
};

/**
 * The link and the providers answers, or a dropped connection for whichever `down` names. (mockFetch answers
 * these two itself, always; here they are what the test is about.)
 */
function serve(link: unknown) {
  const down = { link: false, providers: false };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input), 'http://test');
    if (pathname === '/api/v1/users/me/discord') {
      if (down.link) throw new TypeError('Failed to fetch');
      return success(link);
    }
    if (pathname === '/api/v1/auth/providers') {
      if (down.providers) throw new TypeError('Failed to fetch');
      return success(buildProviders({ sign_in: true }));
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
  return down;
}

afterEach(() => vi.unstubAllGlobals());

const renderSection = () => renderRoutes([{ path: '/profile', element: <DiscordLinkSection /> }], '/profile');

describe('DiscordLinkSection on a slow or dropped connection', { timeout: 20_000 }, () => {
  it('says so when the link cannot be loaded at all', async () => {
    const down = serve(linked);
    down.link = true;
    renderSection();
    expect(
      await screen.findByText('Could not load your Discord link.', undefined, { timeout: 5_000 }),
    ).toBeVisible();
  });

  it('keeps showing the linked account when a refresh of the link fails, with a note', async () => {
    const down = serve(linked);
    const { queryClient } = renderSection();
    expect(await screen.findByTestId('discord-linked')).toHaveTextContent('aria#0001');
    down.link = true;
    await queryClient.refetchQueries({ queryKey: discordKeys.link });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('discord-linked')).toHaveTextContent('aria#0001');
    expect(screen.queryByText('Could not load your Discord link.')).not.toBeInTheDocument();
  });

  it('keeps Link Discord when a refresh of what the server offers fails, with a note', async () => {
    const down = serve({ account: null, has_password: true });
    const { queryClient } = renderSection();
    expect(await screen.findByTestId('discord-link')).toBeVisible();
    down.providers = true;
    await queryClient.refetchQueries({ queryKey: discordKeys.providers });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getAllByTestId('refresh-failed-note')).toHaveLength(1);
    expect(within(screen.getByTestId('discord-section')).getByTestId('discord-link')).toBeVisible();
    expect(
      screen.queryByText('Could not check whether Discord is set up on this server.'),
    ).not.toBeInTheDocument();
  });
});
