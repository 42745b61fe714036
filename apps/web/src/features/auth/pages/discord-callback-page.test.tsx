import { discordMessages } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import { type RouteObject, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DiscordCallbackPage } from './discord-callback-page';

function Where() {
  const location = useLocation();
  return (
    <p data-testid="where">
      {location.pathname}
      {location.search}
    </p>
  );
}

const routes: RouteObject[] = [
  { path: '/auth/discord/callback', element: <DiscordCallbackPage /> },
  { path: '*', element: <Where /> },
];

function renderCallback(query: string) {
  useAuthStore.setState({ isInitializing: false, isAuthenticated: false, user: null });
  return renderRoutes(routes, `/auth/discord/callback${query}`);
}

describe('DiscordCallbackPage', () => {
  it('says a denied consent changed nothing, with a way back, and calls nobody', async () => {
    const fetchMock = mockFetch(() => success({}));
    renderCallback('?error=access_denied&state=abc');
    expect(await screen.findByRole('alert')).toHaveTextContent(discordMessages.denied);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the link is broken when the code or the state is missing', async () => {
    mockFetch(() => success({}));
    renderCallback('?code=only-a-code');
    expect(await screen.findByRole('alert')).toHaveTextContent(discordMessages.stateInvalid);
  });

  it("shows the server's reason when it refuses, once", async () => {
    const fetchMock = mockFetch(() => failure(409, 'CONFLICT', discordMessages.linkedElsewhere));
    renderCallback('?code=c&state=s');
    expect(await screen.findByRole('alert')).toHaveTextContent(discordMessages.linkedElsewhere);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ code: 'c', state: 's' });
  });

  it('stores the session of a Discord sign-in like a password sign-in and goes to the dashboard', async () => {
    const user = buildUser({ username: 'pip' });
    mockFetch(() =>
      success({
        mode: 'login',
        created: false,
        session: { ...buildTokens({ token: 'discord-token' }), user },
      }),
    );
    renderCallback('?code=c&state=s');
    expect(await screen.findByTestId('where')).toHaveTextContent('/dashboard');
    expect(tokenStorage.getAccessToken()).toBe('discord-token');
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, user });
  });

  it('goes back to the profile after linking', async () => {
    mockFetch(() =>
      success({
        mode: 'link',
        account: { discord_user_id: '1', username: 'Pip', linked_at: '2026-01-01T00:00:00.000Z' },
      }),
    );
    renderCallback('?code=c&state=s');
    expect(await screen.findByTestId('where')).toHaveTextContent('/profile');
  });

  it('goes to the page the sign-in started for, such as a party invite, and never back to the auth pages', async () => {
    const signedIn = (redirect: string) =>
      success({
        mode: 'login',
        created: false,
        session: { ...buildTokens(), user: buildUser() },
        redirect,
      });
    mockFetch(() => signedIn('/parties/join?code=AB12CD34'));
    const { unmount } = renderCallback('?code=c&state=s');
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/parties\/join\?code=AB12CD34$/);
    unmount();

    mockFetch(() => signedIn('/login'));
    renderCallback('?code=c&state=s');
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/dashboard$/);
  });
});
