import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockSubscriptionServer } from '../features/subscription/subscription-test-server';
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

  // Review: the plans are public (GET /subscription/tiers), but "Compare plans" sent a visitor to /login.
  it('shows a visitor the plans in the public layout, and a signed-in user in the main one', async () => {
    useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
    mockSubscriptionServer();
    const visitor = renderRoutes(routes, '/subscription/compare');
    expect(await screen.findByRole('link', { name: 'Create an account' })).toBeInTheDocument();
    expect(visitor.router.state.location.pathname).toBe('/subscription/compare');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    visitor.unmount();
    visitor.router.dispose();

    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const member = renderRoutes(routes, '/subscription/compare');
    expect(await screen.findByTestId('plan-tier_1', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
    member.router.dispose();
  });
});
