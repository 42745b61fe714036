import { announcementEmailsMessages } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { UnsubscribePage } from './unsubscribe-page';

const routes = [{ path: '/unsubscribe', element: <UnsubscribePage /> }];

const signedOut = () => useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });

const calls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url, init]) => ({
    url: String(url),
    method: init?.method,
    body: JSON.parse(String(init?.body ?? 'null')) as unknown,
    authorization: new Headers(init?.headers).get('authorization'),
  }));

describe('UnsubscribePage', { timeout: 30_000 }, () => {
  it('unsubscribes signed out with the link’s token, says so, and offers the undo', async () => {
    signedOut();
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/announcement_emails/resubscribe')
        ? success({ announcement_emails: true })
        : success({ announcement_emails: false }),
    );
    renderRoutes(routes, '/unsubscribe?token=user-1.mac');
    expect(await screen.findByRole('heading', { name: 'Unsubscribed' })).toBeInTheDocument();
    expect(
      screen.getByText('You will no longer receive announcements by email from Haversack.'),
    ).toBeInTheDocument();
    expect(calls(fetchMock)).toEqual([
      {
        url: '/api/v1/announcement_emails/unsubscribe',
        method: 'POST',
        body: { token: 'user-1.mac' },
        authorization: null,
      },
    ]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('heading', { name: 'Subscribed again' })).toBeInTheDocument();
    expect(screen.getByText(announcementEmailsMessages.resubscribed)).toBeInTheDocument();
    expect(calls(fetchMock)[1]).toMatchObject({
      url: '/api/v1/announcement_emails/resubscribe',
      body: { token: 'user-1.mac' },
    });
    // Changed their mind again.
    await user.click(screen.getByRole('button', { name: 'Unsubscribe again' }));
    expect(await screen.findByRole('heading', { name: 'Unsubscribed' })).toBeInTheDocument();
    expect(calls(fetchMock)[2]).toMatchObject({ url: '/api/v1/announcement_emails/unsubscribe' });
  });

  it('shows the server’s refusal of a bad link, and no undo', async () => {
    signedOut();
    mockFetch(() =>
      failure(400, 'BAD_REQUEST', announcementEmailsMessages.invalid, [
        { field: 'token', message: announcementEmailsMessages.invalid },
      ]),
    );
    renderRoutes(routes, '/unsubscribe?token=tampered');
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeInTheDocument();
    expect(screen.getByText(announcementEmailsMessages.invalid)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open your preferences' })).toHaveAttribute(
      'href',
      '/profile/preferences',
    );
  });

  it('asks nothing of the server for a link without its token', async () => {
    signedOut();
    const fetchMock = mockFetch(() => success({ announcement_emails: false }));
    renderRoutes(routes, '/unsubscribe');
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says when the undo fails, and keeps the undo on offer', async () => {
    signedOut();
    mockFetch(({ url }) =>
      url.endsWith('/resubscribe')
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'Server error. Please try again later.')
        : success({ announcement_emails: false }),
    );
    renderRoutes(routes, '/unsubscribe?token=user-2.mac');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Server error. Please try again later.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Unsubscribed' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
  });
});
