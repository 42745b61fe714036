import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { buildUser } from '../test/fixtures';
import { renderRoutes } from '../test/render';
import { routes } from './routes';

describe('auth routes', () => {
  it('shows a reset link to a browser still signed in, rather than sending it to /dashboard', async () => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const { router } = renderRoutes(routes, '/reset-password/token-123');
    expect(await screen.findByLabelText(/^New Password/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reset-password/token-123');
    router.dispose();
  });
});
