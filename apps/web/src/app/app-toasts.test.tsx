import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../lib/toast';
import { restoreViewportAfterEach, setViewport } from '../test/viewport';
import { AppToasts } from './app-toasts';
import { theme } from './theme';

restoreViewportAfterEach();

/** The corner a toast shown at this window size opens in. */
async function cornerAt(width: number, height: number): Promise<string | null | undefined> {
  setViewport(width, height);
  render(
    <MantineProvider env="test" theme={theme}>
      <AppToasts />
    </MantineProvider>,
  );
  toast.success('Item moved successfully');
  const shown = await screen.findByTestId('toast-success');
  return shown.closest('[data-position]')?.getAttribute('data-position');
}

describe('AppToasts', () => {
  it('draws toasts into a live region in the page before the first toast, read politely or at once', async () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <AppToasts />
      </MantineProvider>,
    );
    // Before any toast: the region, empty, and no toast area yet.
    const region = screen.getByTestId('live-toasts');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();

    toast.success('Item moved successfully');
    // Another player's notice is a toast too (party-channels.ts), read politely.
    toast.info('Bryn gave you 1 × Torch');
    toast.error('Failed to save. Please try again.');
    toast.warning('Your session is about to expire.');
    const success = await screen.findByTestId('toast-success');
    expect(region).toContainElement(success);
    expect(success).toHaveAttribute('role', 'status');
    expect(await screen.findByTestId('toast-info')).toHaveAttribute('role', 'status');
    expect(await screen.findByTestId('toast-error')).toHaveAttribute('role', 'alert');
    expect(await screen.findByTestId('toast-warning')).toHaveAttribute('role', 'alert');
    expect(region).toContainElement(screen.getByTestId('toast-warning'));
  });

  it('opens toasts at the bottom right of a desktop, away from the page header’s buttons', async () => {
    expect(await cornerAt(1280, 800)).toBe('bottom-right');
  });

  it('opens toasts at the top of a phone, below the header and clear of the transfer queue bar', async () => {
    expect(await cornerAt(375, 812)).toBe('top-right');
  });
});
