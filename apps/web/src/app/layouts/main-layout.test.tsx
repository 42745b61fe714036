import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTiers } from '../../features/subscription/subscription-fixtures';
import { useUiStore } from '../../stores/ui-store';
import { jsonResponse, mockFetch } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { MainLayout } from './main-layout';

afterEach(() => useUiStore.setState({ sidebarOpen: true }));

function mockTiers(provider: 'local' | 'stripe' | 'none') {
  mockFetch(({ url }) =>
    new URL(url, 'http://test').pathname.endsWith('/subscription/tiers')
      ? jsonResponse(200, { status: 'success', data: buildTiers(), meta: { billing_provider: provider } })
      : jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'none' } }),
  );
}

describe('MainLayout', () => {
  it('folds the desktop sidebar away and back with a named toggle', async () => {
    mockTiers('none');
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

  it.each([
    ['local', 2],
    ['stripe', 0],
    ['none', 0],
  ] as const)(
    'says "Demo billing" across the app only under %s billing when it is the demo',
    async (provider, badges) => {
      mockFetch(({ url }) =>
        new URL(url, 'http://test').pathname.endsWith('/subscription/tiers')
          ? jsonResponse(200, { status: 'success', data: buildTiers(), meta: { billing_provider: provider } })
          : jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'none' } }),
      );
      renderRoutes(
        [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
        '/',
      );
      await screen.findByRole('button', { name: 'Hide sidebar' });
      if (badges > 0) {
        const shown = await screen.findAllByTestId('demo-billing');
        expect(shown).toHaveLength(badges);
        expect(shown[0]).toHaveTextContent('Demo billing');
        expect(shown[0]).toHaveAttribute('href', '/subscription/compare');
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(screen.queryByTestId('demo-billing')).not.toBeInTheDocument();
      }
    },
  );
});
