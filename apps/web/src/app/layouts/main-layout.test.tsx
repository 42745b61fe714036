import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../stores/ui-store';
import { renderRoutes } from '../../test/render';
import { MainLayout } from './main-layout';

afterEach(() => useUiStore.setState({ sidebarOpen: true }));

describe('MainLayout', () => {
  it('folds the desktop sidebar away and back with a named toggle', async () => {
    renderRoutes(
      [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
      '/',
    );
    const hide = await screen.findByRole('button', { name: 'Hide sidebar' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(hide);
    expect(useUiStore.getState().sidebarOpen).toBe(false);
    const show = screen.getByRole('button', { name: 'Show sidebar' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(show);
    expect(useUiStore.getState().sidebarOpen).toBe(true);
  });
});
