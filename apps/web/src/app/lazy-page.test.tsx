import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { setAppNavigator } from '../lib/app-navigation';
import { renderRoutes } from '../test/render';
import { lazyPage } from './lazy-page';

describe('lazyPage', () => {
  it('shows the error panel naming the page when its code cannot be downloaded (offline, server down)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderRoutes(
        [
          {
            HydrateFallback: () => <p>Initializing application...</p>,
            element: (
              <nav>
                <Link to="/my-content">My Content</Link>
                <Outlet />
              </nav>
            ),
            children: [
              { path: '/marketplace', element: <h1>Marketplace</h1> },
              lazyPage(
                'my-content',
                'My Content',
                async () => {
                  throw new TypeError('Failed to fetch dynamically imported module');
                },
                { queries: false },
              ),
            ],
          },
        ],
        '/marketplace',
      );
      await userEvent.click(screen.getByRole('link', { name: 'My Content' }));
      const panel = await screen.findByRole('alert');
      expect(panel).toHaveTextContent('The My Content page could not be loaded');
      expect(panel).toHaveTextContent('Please refresh the page to try again');
      expect(panel).toHaveTextContent('contact support');
      // The layout around it stays, so the user can go elsewhere or retry.
      expect(screen.getByRole('link', { name: 'My Content' })).toBeInTheDocument();
    } finally {
      consoleError.mockRestore();
    }
  });

  it('imports the page again at the next navigation to it once the server answers (no full reload)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    let serverUp = false;
    const load = vi.fn(async () => {
      attempts += 1;
      if (!serverUp) throw new TypeError('Failed to fetch dynamically imported module');
      return () => <h1>My Content page</h1>;
    });
    try {
      renderRoutes(
        [
          {
            HydrateFallback: () => <p>Initializing application...</p>,
            element: (
              <nav>
                <Link to="/my-content">My Content</Link>
                <Link to="/marketplace">Marketplace</Link>
                <Outlet />
              </nav>
            ),
            children: [
              { path: '/marketplace', element: <h1>Marketplace</h1> },
              lazyPage('my-content', 'My Content', load, { queries: false }),
            ],
          },
        ],
        '/marketplace',
      );
      await userEvent.click(screen.getByRole('link', { name: 'My Content' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('The My Content page could not be loaded');
      const failedAttempts = attempts;
      // The server is back: going elsewhere and back imports the page again and shows it.
      serverUp = true;
      await userEvent.click(screen.getByRole('link', { name: 'Marketplace' }));
      expect(await screen.findByRole('heading', { name: 'Marketplace' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('link', { name: 'My Content' }));
      expect(await screen.findByRole('heading', { name: 'My Content page' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(attempts).toBe(failedAttempts + 1);
      // Loaded once, it is not imported again at later visits.
      await userEvent.click(screen.getByRole('link', { name: 'Marketplace' }));
      await userEvent.click(screen.getByRole('link', { name: 'My Content' }));
      expect(await screen.findByRole('heading', { name: 'My Content page' })).toBeInTheDocument();
      expect(attempts).toBe(failedAttempts + 1);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('imports the page again from the error panel\'s "Try again", without reloading the tab', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let serverUp = false;
    const load = vi.fn(async () => {
      if (!serverUp) throw new TypeError('Failed to fetch dynamically imported module');
      return () => <h1>My Content page</h1>;
    });
    // As in the app: the browser's address is the router's, and the router is the app's navigator.
    const addressBefore = window.location.href;
    window.history.replaceState(null, '', '/my-content?sort=name');
    try {
      const { router } = renderRoutes(
        [
          {
            HydrateFallback: () => <p>Initializing application...</p>,
            element: <Outlet />,
            children: [lazyPage('my-content', 'My Content', load, { queries: false })],
          },
        ],
        '/my-content?sort=name',
      );
      setAppNavigator((to) => void router.navigate(to));
      const panel = await screen.findByRole('alert');
      expect(panel).toHaveTextContent('The My Content page could not be loaded');
      serverUp = true;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('heading', { name: 'My Content page' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // The same address, its query string kept.
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/my-content?sort=name',
      );
    } finally {
      setAppNavigator(null);
      window.history.replaceState(null, '', addressBefore);
      consoleError.mockRestore();
    }
  });
});
