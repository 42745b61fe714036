import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, type RouteObject, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../stores/auth-store';
import { buildUser } from '../../test/fixtures';
import { RouteFocus } from '../route-focus';
import { theme } from '../theme';
import { UserMenu } from './user-menu';

/** The header's account menu beside the pages it leads to, with the app's focus on a page change. */
const routes: RouteObject[] = [
  {
    element: (
      <>
        <header>
          <UserMenu />
        </header>
        <Outlet />
        <RouteFocus />
      </>
    ),
    children: [
      {
        path: '/dashboard',
        element: (
          <main>
            <h1>Dashboard</h1>
          </main>
        ),
      },
      {
        path: '/profile',
        element: (
          <main>
            <h1>Profile</h1>
          </main>
        ),
      },
      {
        path: '/profile/preferences',
        element: (
          <main>
            <h1>Preferences</h1>
          </main>
        ),
      },
    ],
  },
];

/**
 * With Mantine's transitions on (the test renderer turns them off): the menu stays a moment as it closes,
 * holding the focused entry, as in a browser.
 */
function renderRoutes(entries: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(entries, { initialEntries: [initialEntry] });
  render(
    <MantineProvider theme={theme}>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { router };
}

describe('the account menu and the keyboard', { timeout: 20_000 }, () => {
  beforeEach(() => {
    useAuthStore.setState({
      isAuthenticated: true,
      isInitializing: false,
      user: buildUser({ username: 'mira' }),
    });
    // With transitions on, Mantine's focus trap looks for the first entry on a timer that happy-dom runs
    // before the animation frame that shows the dropdown, and warns with the whole DOM node (thousands of
    // log lines). Chromium shows the dropdown first and never warns; the focus tests below still check
    // where the focus lands. Every other warning still prints.
    const warn = console.warn;
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if (String(args[0]).startsWith('[@mantine/hooks/use-focus-trap]')) return;
      warn(...args);
    });
  });

  it('opens with ArrowDown, as a menu button does, on its first entry', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/dashboard');
    screen.getByRole('button', { name: 'Account menu' }).focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Profile'));
    expect(document.activeElement).toHaveAttribute('role', 'menuitem');
  });

  it("gives the new page's heading the focus after a page is chosen in it, not the menu button", async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/dashboard');
    screen.getByRole('button', { name: 'Account menu' }).focus();
    await user.keyboard('{Enter}');
    // The arrow keys move the focus through the entries (Mantine's, as the browser shows it).
    const preferences = (await screen.findByText('Preferences')).closest<HTMLElement>('[role="menuitem"]');
    preferences?.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/preferences'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Preferences' });
    await waitFor(() => expect(document.activeElement).toBe(heading), { timeout: 3_000 });
    // And it stays there, once the menu has closed.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(document.activeElement).toBe(heading);
  });

  it('gives the focus back to its button on Escape, and when the chosen page is the one shown', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    const button = screen.getByRole('button', { name: 'Account menu' });
    button.focus();
    await user.keyboard('{Enter}');
    (await screen.findAllByText('Profile'))
      .map((text) => text.closest<HTMLElement>('[role="menuitem"]'))
      .find((item) => item)
      ?.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(button));

    await user.keyboard('{Enter}');
    (await screen.findAllByText('Profile'))
      .map((text) => text.closest<HTMLElement>('[role="menuitem"]'))
      .find((item) => item)
      ?.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(button));
  });
});
