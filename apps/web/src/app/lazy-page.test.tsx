import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
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
});
