import { type QueryClient, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { failure, mockFetch } from '../test/fixtures';
import { AppProviders } from './providers';
import { routes } from './routes';

// The lazily loaded client (lib/query-client-loader), played by the test: it arrives when the test says.
const fake = vi.hoisted(() => ({ client: null as QueryClient | null, listeners: new Set<() => void>() }));
vi.mock('../lib/query-client-loader', () => ({
  loadedQueryClient: () => fake.client,
  subscribeToQueryClient: (listener: () => void) => {
    fake.listeners.add(listener);
    return () => fake.listeners.delete(listener);
  },
  loadQueryClient: async () => fake.client,
  withQueryClient: <T,>(load: () => Promise<T>) => load(),
}));

afterEach(() => {
  fake.client = null;
  fake.listeners.clear();
});

function Dashboard() {
  const query = useQuery({ queryKey: ['dashboard'], queryFn: async () => 'Your dashboard' });
  return <p>{query.data ?? 'Loading dashboard'}</p>;
}

/**
 * The client arrives while the first screen is being drawn: after the app's providers have drawn, before
 * the router reads which page it is on. The first render is a transition drawn in slices (main.tsx), so a
 * page whose code and client came in meanwhile is drawn in the same render as providers that drew before.
 */
function ClientArrivesNow() {
  fake.client ??= createQueryClient();
  return null;
}

/** An error (or the cause of one) saying a query hook found no client. */
function missingClient(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  return value.message.includes('No QueryClient set') || missingClient(value.cause);
}

describe('AppProviders', () => {
  it('never draws a page that asks for data without the client, however late the client arrives', async () => {
    mockFetch(() => failure(401, 'UNAUTHORIZED', 'Not signed in'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The app's root route (its layout and error page), with a page that is ready at once.
    const [root] = routes;
    const router = createMemoryRouter(
      [
        {
          element: root?.element,
          errorElement: root?.errorElement,
          children: [{ index: true, element: <Dashboard /> }],
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <AppProviders>
        <ClientArrivesNow />
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByText('Your dashboard')).toBeInTheDocument();
    expect(screen.queryByTestId('router-error')).not.toBeInTheDocument();
    // Not even in a render React threw away and drew again (it says so in the console, as the router's
    // error page does: "Unexpected application error").
    expect(errors.mock.calls.flat().filter(missingClient)).toEqual([]);
    expect(errors).not.toHaveBeenCalledWith('Unexpected application error', expect.anything());
  });
});
