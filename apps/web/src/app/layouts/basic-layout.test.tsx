import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockSubscriptionServer } from '../../features/subscription/subscription-test-server';
import { setAppNavigator } from '../../lib/app-navigation';
import { useAuthStore } from '../../stores/auth-store';
import { buildUser } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { routes } from '../routes';

const mainLayoutServer = { up: false };

// Signed in, the public plans page is drawn in the main layout, which the basic layout loads on demand.
vi.mock('./main-layout', () => ({
  get MainLayout() {
    if (!mainLayoutServer.up) throw new TypeError('Failed to fetch dynamically imported module');
    return function MainLayout() {
      return <p>The main layout</p>;
    };
  },
}));

afterEach(() => {
  setAppNavigator(null);
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('BasicLayout', { timeout: 30_000 }, () => {
  it('imports the main layout again from the error panel\'s "Try again", without reloading the tab', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    mockSubscriptionServer();
    window.history.replaceState(null, '', '/subscription/compare');
    try {
      const { router } = renderRoutes(routes, '/subscription/compare');
      setAppNavigator((to) => void router.navigate(to));
      const panel = await screen.findByRole('alert');
      expect(panel).toHaveTextContent('The Compare plans page could not be loaded');

      mainLayoutServer.up = true;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByText('The main layout')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/subscription/compare');
    } finally {
      consoleError.mockRestore();
    }
  });
});
