import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Link, Outlet, type RouteObject, RouterProvider } from 'react-router';
import { theme } from '../app/theme';
import { UnsavedChangesGuard } from '../components/unsaved-changes-guard';
import { createQueryClient } from '../lib/query-client';

/**
 * Render routes in a memory router inside the app's providers (the app's theme; Mantine in test mode: no
 * transitions).
 */
export function renderRoutes(routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const queryClient = createQueryClient();
  const view = render(
    <MantineProvider env="test" theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, router, queryClient };
}

/**
 * `routes` under a root like the app's, with the unsaved-changes guard, plus a link away from them
 * ("Elsewhere", to a page saying "Somewhere else").
 */
export function withUnsavedChangesGuard(routes: RouteObject[]): RouteObject[] {
  return [
    {
      element: (
        <>
          <Link to="/elsewhere">Elsewhere</Link>
          <Outlet />
          <UnsavedChangesGuard />
        </>
      ),
      children: [...routes, { path: '/elsewhere', element: <p>Somewhere else</p> }],
    },
  ];
}
