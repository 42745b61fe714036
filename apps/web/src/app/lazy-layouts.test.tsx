import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAppNavigator } from '../lib/app-navigation';
import { useAuthStore } from '../stores/auth-store';
import { buildUser, mockFetch, success } from '../test/fixtures';
import { renderRoutes } from '../test/render';
import { routes } from './routes';

/**
 * The layouts load on demand, as the pages do. A layout whose code could not be downloaded (the server
 * down during a deploy) shows the page's error panel, and its "Try again" imports the layout again
 * without reloading the tab, as it does for a page (lazy-page.tsx).
 */
const serverUp = { adminLayout: false, basicLayout: false };

function downloaded<T>(layout: keyof typeof serverUp, module: T): T {
  if (!serverUp[layout]) throw new TypeError('Failed to fetch dynamically imported module');
  return module;
}

vi.mock('./layouts/admin-layout', () => ({
  get AdminLayout() {
    return downloaded('adminLayout', function AdminLayout() {
      return (
        <div data-testid="admin-layout">
          <Outlet />
        </div>
      );
    });
  },
}));

vi.mock('./layouts/basic-layout', () => ({
  get BasicLayout() {
    return downloaded('basicLayout', function BasicLayout() {
      return (
        <div data-testid="basic-layout">
          <Outlet />
        </div>
      );
    });
  },
}));

afterEach(() => {
  setAppNavigator(null);
  vi.unstubAllGlobals();
});

/** Opens `path` with the browser's address and the app's navigator the router's, as in the app. */
async function openWhileTheServerIsDown(path: string) {
  window.history.replaceState(null, '', path);
  const view = renderRoutes(routes, path);
  setAppNavigator((to) => void view.router.navigate(to));
  return view;
}

describe('lazy layouts', { timeout: 30_000 }, () => {
  it('imports the admin layout again from the error panel\'s "Try again", without reloading the tab', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser({ admin: true }) });
    mockFetch(() => success({}));
    try {
      const { router } = await openWhileTheServerIsDown('/admin/no-such-page');
      const panel = await screen.findByRole('alert');
      // The panel names the page asked for, as that page's own would.
      expect(panel).toHaveTextContent('The Admin Page not found page could not be loaded');
      expect(screen.queryByTestId('admin-layout')).not.toBeInTheDocument();

      serverUp.adminLayout = true;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByTestId('admin-layout')).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/admin/no-such-page');
    } finally {
      window.history.replaceState(null, '', '/');
      consoleError.mockRestore();
    }
  });

  it('imports the basic layout again from the error panel\'s "Try again", without reloading the tab', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
    mockFetch(() => success({}));
    try {
      const { router } = await openWhileTheServerIsDown('/about');
      const panel = await screen.findByRole('alert');
      expect(panel).toHaveTextContent('The About page could not be loaded');
      expect(screen.queryByTestId('basic-layout')).not.toBeInTheDocument();

      serverUp.basicLayout = true;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByTestId('basic-layout')).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'About Haversack' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/about');
    } finally {
      window.history.replaceState(null, '', '/');
      consoleError.mockRestore();
    }
  });
});
