import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../stores/ui-store';
import { jsonResponse, mockFetch, success } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { stubPhoneWidth } from '../../test/viewport';
import { MainLayout } from './main-layout';

afterEach(() => {
  useUiStore.setState({ sidebarOpen: true, mobileMenuOpen: false });
  vi.unstubAllGlobals();
});

function serve(unreadNotices: number) {
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/invitations') return success([]);
    if (pathname === '/api/v1/notifications')
      return jsonResponse(200, {
        status: 'success',
        data: [],
        meta: { current_page: 1, total_pages: 1, total_count: 0, per_page: 20, unread_count: unreadNotices },
      });
    return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'none' } });
  });
  renderRoutes(
    [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
    '/',
  );
}

describe('MainLayout: unread notifications on a closed navigation', () => {
  it("puts a dot on a phone's closed menu button, described by the count, and none once it is open", async () => {
    stubPhoneWidth();
    serve(4);
    const burger = await screen.findByTestId('mobile-menu-button');
    await waitFor(() => expect(burger).toHaveAccessibleDescription('4 unread notifications'));
    expect(burger).toHaveAttribute('aria-label', 'Open navigation');
    expect(burger.querySelector('[data-testid="notifications-menu-cue"]')).not.toBeNull();

    // Opened as a phone would (the burger toggles the menu only below the sm breakpoint, not this window).
    act(() => useUiStore.setState({ mobileMenuOpen: true }));
    expect(burger).toHaveAttribute('aria-label', 'Close navigation');
    expect(burger.querySelector('[data-testid="notifications-menu-cue"]')).toBeNull();
    expect(burger).not.toHaveAccessibleDescription('4 unread notifications');
  });

  it('puts the dot on the folded sidebar toggle only while the sidebar is folded', async () => {
    serve(1);
    const hide = await screen.findByRole('button', { name: 'Hide sidebar' });
    expect(hide.querySelector('[data-testid="notifications-menu-cue"]')).toBeNull();
    await userEvent.click(hide);
    const show = screen.getByRole('button', { name: 'Show sidebar' });
    await waitFor(() => expect(show).toHaveAccessibleDescription('1 unread notification'));
    expect(show.querySelector('[data-testid="notifications-menu-cue"]')).not.toBeNull();
  });

  it('shows no dot when nothing is unread', async () => {
    serve(0);
    await screen.findByText('Home');
    // Give the deferred cue and its queries time to arrive; nothing should be drawn.
    await screen.findByRole('link', { name: 'Notifications' });
    expect(screen.queryByTestId('notifications-menu-cue')).toBeNull();
  });
});
