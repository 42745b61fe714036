import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../stores/auth-store';
import { mockFetch, success } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { routes } from '../routes';

describe('AuthLayout', () => {
  it('starts the Tab order with a skip link to the sign-in card, as the app layout does', async () => {
    mockFetch(() => success({ maintenance_mode: false, registration_open: true }));
    useAuthStore.setState({ isInitializing: false });
    renderRoutes(routes, '/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await userEvent.setup().tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    // Enter moves the focus to the card, with no hash change (a navigation to the router).
    const hashBefore = window.location.hash;
    await userEvent.setup().keyboard('{Enter}');
    expect(window.location.hash).toBe(hashBefore);
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
