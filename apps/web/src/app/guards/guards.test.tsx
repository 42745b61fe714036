import { screen } from '@testing-library/react';
import { Outlet, type RouteObject, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../stores/auth-store';
import { buildUser, mockFetch, success } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { AdminRoute } from './admin-route';
import { GuestRoute } from './guest-route';
import { ProtectedRoute } from './protected-route';
import { RootRedirect } from './root-redirect';

function Where({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="where">
      {name} {location.pathname}
      {location.search}
    </p>
  );
}

const routes: RouteObject[] = [
  {
    element: <Outlet />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        element: <GuestRoute />,
        children: [
          { path: '/login', element: <Where name="login" /> },
          { path: '/register', element: <Where name="register" /> },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/dashboard', element: <Where name="dashboard" /> },
          { path: '/characters', element: <Where name="characters" /> },
          { path: '/parties/:id', element: <Where name="party" /> },
        ],
      },
      {
        path: '/admin',
        element: <AdminRoute />,
        children: [{ index: true, element: <Where name="admin" /> }],
      },
    ],
  },
];

function signedIn(overrides: Parameters<typeof buildUser>[0] = {}) {
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser(overrides) });
}

function signedOut() {
  useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
}

describe('protected-route guard', () => {
  it('shows "Checking authentication..." while the session initialises', () => {
    renderRoutes(routes, '/dashboard');
    expect(screen.getByText('Checking authentication...')).toBeInTheDocument();
    expect(screen.queryByTestId('where')).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor to /login with the path and query string in ?redirect=, replacing history', () => {
    signedOut();
    const { router } = renderRoutes(routes, '/characters?filter=mine&page=2');
    expect(screen.getByTestId('where')).toHaveTextContent(
      'login /login?redirect=%2Fcharacters%3Ffilter%3Dmine%26page%3D2',
    );
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/characters?filter=mine&page=2',
    );
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('shows the page to a signed-in user', () => {
    signedIn();
    renderRoutes(routes, '/parties/42');
    expect(screen.getByTestId('where')).toHaveTextContent('party /parties/42');
  });
});

describe('guest-only guard', () => {
  it('shows the page to a visitor', () => {
    signedOut();
    renderRoutes(routes, '/register');
    expect(screen.getByTestId('where')).toHaveTextContent('register /register');
  });

  it('sends a signed-in user to /dashboard', () => {
    signedIn();
    renderRoutes(routes, '/login');
    expect(screen.getByTestId('where')).toHaveTextContent('dashboard /dashboard');
  });

  it('sends a signed-in user to a same-site ?redirect= target, and ignores other sites', () => {
    signedIn();
    renderRoutes(routes, '/login?redirect=%2Fcharacters%3Fpage%3D2');
    expect(screen.getByTestId('where')).toHaveTextContent('characters /characters?page=2');
  });

  it('ignores a ?redirect= pointing at another site', () => {
    signedIn();
    renderRoutes(routes, '/login?redirect=%2F%2Fevil.example%2Fphish');
    expect(screen.getByTestId('where')).toHaveTextContent('dashboard /dashboard');
  });
});

describe('admin guard', () => {
  it('sends a signed-out visitor to /login', () => {
    signedOut();
    renderRoutes(routes, '/admin');
    expect(screen.getByTestId('where')).toHaveTextContent('login /login?redirect=%2Fadmin');
  });

  it('sends a signed-in user without the admin flag to /dashboard and records the attempt', async () => {
    signedIn({ admin: false });
    const fetchMock = mockFetch(() => success({}));
    renderRoutes(routes, '/admin');
    expect(screen.getByTestId('where')).toHaveTextContent('dashboard /dashboard');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/admin/audit_logs');
    expect(JSON.parse(String(init?.body))).toEqual({
      action: 'unauthorized_admin_access_attempt',
      path: '/admin',
    });
  });

  it('lets an admin in', () => {
    signedIn({ admin: true });
    renderRoutes(routes, '/admin');
    expect(screen.getByTestId('where')).toHaveTextContent('admin /admin');
  });
});

describe('root redirect', () => {
  it('shows "Initializing application..." while the session initialises', () => {
    renderRoutes(routes, '/');
    expect(screen.getByText('Initializing application...')).toBeInTheDocument();
  });

  it('goes to /dashboard when signed in and /login otherwise', () => {
    signedIn();
    const first = renderRoutes(routes, '/');
    expect(screen.getByTestId('where')).toHaveTextContent('dashboard /dashboard');
    first.unmount();
    signedOut();
    renderRoutes(routes, '/');
    expect(screen.getByTestId('where')).toHaveTextContent('login /login');
  });
});
