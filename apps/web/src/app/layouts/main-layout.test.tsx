import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createBrowserRouter, RouterProvider, useBlocker } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTiers } from '../../features/subscription/subscription-fixtures';
import { createQueryClient } from '../../lib/query-client';
import { useUiStore } from '../../stores/ui-store';
import { jsonResponse, mockFetch } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { stubPhoneWidth } from '../../test/viewport';
import { theme } from '../theme';
import { MainLayout } from './main-layout';

afterEach(() => {
  useUiStore.setState({ sidebarOpen: true, mobileMenuOpen: false });
  vi.unstubAllGlobals();
});

function mockTiers(provider: 'local' | 'stripe' | 'none') {
  mockFetch(({ url }) =>
    new URL(url, 'http://test').pathname.endsWith('/subscription/tiers')
      ? jsonResponse(200, { status: 'success', data: buildTiers(), meta: { billing_provider: provider } })
      : jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'none' } }),
  );
}

describe('MainLayout', () => {
  it('skips to the main content by moving focus there, not by a #main-content navigation', async () => {
    mockTiers('none');
    renderRoutes(
      [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
      '/',
    );
    await screen.findByText('Home');
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    // Kept for a page without JavaScript; a hash change is a navigation to the router (a page's
    // unsaved-changes blocker then warned that it would fail silently).
    expect(skip).toHaveAttribute('href', '#main-content');
    const hashBefore = window.location.hash;
    await user.keyboard('{Enter}');
    expect(window.location.hash).toBe(hashBefore);
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('skips to the main content without a navigation that a page’s unsaved-changes blocker warns of', async () => {
    mockTiers('none');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    function Editing() {
      useBlocker(true);
      return <p>New character</p>;
    }
    const router = createBrowserRouter([
      { path: '/', element: <MainLayout />, children: [{ index: true, element: <Editing /> }] },
    ]);
    render(
      <MantineProvider env="test" theme={theme}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    try {
      await screen.findByText('New character');
      const user = userEvent.setup();
      await user.tab();
      await user.keyboard('{Enter}');
      expect(screen.getByRole('main')).toHaveFocus();
      // "A blocker on a POP navigation … will fail silently in production", as on /characters/new.
      expect(warn.mock.calls.flat().join(' ')).not.toMatch(/blocker/i);
      expect(router.state.location.hash).toBe('');
    } finally {
      warn.mockRestore();
      router.dispose();
    }
  });

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

  it("draws a phone's navigation when its menu first opens, and keeps it drawn", async () => {
    stubPhoneWidth();
    mockTiers('none');
    renderRoutes(
      [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
      '/',
    );
    // The burger is shown below the sm breakpoint only (CSS), which this test window is not.
    const menuButton = await screen.findByTestId('mobile-menu-button');
    expect(menuButton).toHaveAttribute('aria-label', 'Open navigation');
    expect(screen.queryByText('Characters')).not.toBeInTheDocument();

    fireEvent.click(menuButton);
    expect(screen.getByRole('link', { name: 'Characters' })).toHaveAttribute('href', '/characters');
    fireEvent.click(screen.getByTestId('mobile-menu-button'));
    expect(useUiStore.getState().mobileMenuOpen).toBe(false);
    expect(screen.getByText('Characters')).toBeInTheDocument();
  });

  it.each([
    ['the burger', () => screen.getByTestId('mobile-menu-button')],
    ['a link of the navigation', () => screen.getByRole('link', { name: 'Characters' })],
  ])(
    "closes a phone's open navigation on Escape from %s, focus back on the burger",
    async (_from, focused) => {
      stubPhoneWidth();
      mockTiers('none');
      const user = userEvent.setup();
      renderRoutes(
        [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
        '/',
      );
      // The burger is shown below the sm breakpoint only (CSS), which this test window is not.
      await user.click(await screen.findByTestId('mobile-menu-button'));
      expect(useUiStore.getState().mobileMenuOpen).toBe(true);
      focused().focus();
      await user.keyboard('{Escape}');
      expect(useUiStore.getState().mobileMenuOpen).toBe(false);
      const burger = screen.getByTestId('mobile-menu-button');
      expect(burger).toHaveAttribute('aria-label', 'Open navigation');
      expect(burger).toHaveAttribute('aria-expanded', 'false');
      expect(burger).toHaveFocus();
    },
  );

  it("keeps the keyboard in a phone's open navigation, the page under it inert, and Escape from anywhere closes it", async () => {
    stubPhoneWidth();
    mockTiers('none');
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/',
          element: <MainLayout />,
          children: [{ index: true, element: <button type="button">Back to Backpack</button> }],
        },
      ],
      '/',
    );
    const burger = await screen.findByTestId('mobile-menu-button');
    burger.focus();
    await user.keyboard('{Enter}');
    expect(useUiStore.getState().mobileMenuOpen).toBe(true);
    const navigation = screen.getByRole('navigation', { name: 'Main' });
    // The keyboard moves into the navigation, as into a drawer.
    await waitFor(() => expect(navigation).toContainElement(document.activeElement as HTMLElement));
    const links = within(navigation).getAllByRole('link');
    const last = links.at(-1);
    if (!last) throw new Error('the navigation has no link');
    // Tab past the last link reaches the menu's own Close button, then the first link again, never the page
    // hidden under the navigation.
    last.focus();
    await user.tab();
    const closeMenu = within(navigation).getByRole('button', { name: 'Close menu' });
    expect(closeMenu).toHaveFocus();
    await user.tab();
    expect(links[0]).toHaveFocus();
    await user.tab({ shift: true });
    expect(closeMenu).toHaveFocus();
    expect(document.getElementById('main-content')).toHaveAttribute('inert');
    // The Close button is the keyboard's way out besides Escape (the header's X is outside the trap).
    await user.keyboard('{Enter}');
    expect(useUiStore.getState().mobileMenuOpen).toBe(false);
    expect(burger).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(navigation).toContainElement(document.activeElement as HTMLElement));

    // Escape closes it wherever the keyboard is, and focus goes back to the burger.
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Escape}');
    expect(useUiStore.getState().mobileMenuOpen).toBe(false);
    expect(burger).toHaveFocus();
    expect(document.getElementById('main-content')).not.toHaveAttribute('inert');
  });

  it('draws the navigation at once on a wide screen', async () => {
    mockTiers('none');
    renderRoutes(
      [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Home</p> }] }],
      '/',
    );
    expect(await screen.findByRole('link', { name: 'Characters' })).toHaveAttribute('href', '/characters');
  });

  // CC-BY-4.0: the SRD's attribution must be reachable wherever its items are shown.
  it('leads from every page to the credits and the SRD 5.1 attribution', async () => {
    mockTiers('none');
    renderRoutes(
      [{ path: '/', element: <MainLayout />, children: [{ index: true, element: <p>Marketplace</p> }] }],
      '/',
    );
    expect(await screen.findByRole('link', { name: 'About and credits' })).toHaveAttribute('href', '/about');
  });
});
