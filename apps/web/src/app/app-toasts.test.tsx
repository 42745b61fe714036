import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
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
  it('announces toasts through live regions that are in the page before the first toast', async () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <AppToasts />
      </MantineProvider>,
    );
    // Before any toast: both regions, empty, and no toast area yet.
    const polite = screen.getByTestId('toast-announcer-polite');
    const assertive = screen.getByTestId('toast-announcer-assertive');
    expect(polite).toHaveAttribute('aria-live', 'polite');
    expect(assertive).toHaveAttribute('aria-live', 'assertive');
    expect(polite).toBeEmptyDOMElement();
    expect(assertive).toBeEmptyDOMElement();
    expect(screen.queryByTestId('toast-success')).not.toBeInTheDocument();

    toast.success('Item moved successfully');
    expect(await screen.findByTestId('toast-success')).toBeInTheDocument();
    await waitFor(() => expect(polite).toHaveTextContent('Item moved successfully'));
    expect(assertive).toBeEmptyDOMElement();

    toast.error('Failed to save. Please try again.');
    await waitFor(() => expect(assertive).toHaveTextContent('Failed to save. Please try again.'));
    expect(polite).toHaveTextContent('Item moved successfully');

    // Another player's notice is a toast too (party-channels.ts), read politely.
    toast.info('Bryn gave you 1 × Torch');
    await waitFor(() => expect(polite).toHaveTextContent('Bryn gave you 1 × Torch'));
    toast.warning('Your session is about to expire.');
    await waitFor(() => expect(assertive).toHaveTextContent('Your session is about to expire.'));

    // The toasts on screen are no live regions themselves, so nothing is read twice.
    for (const kind of ['success', 'error', 'info', 'warning']) {
      expect(screen.getByTestId(`toast-${kind}`)).toHaveAttribute('role', 'group');
    }
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens toasts at the bottom right of a desktop, away from the page header’s buttons', async () => {
    expect(await cornerAt(1280, 800)).toBe('bottom-right');
  });

  it('opens toasts at the top of a phone, below the header and clear of the transfer queue bar', async () => {
    expect(await cornerAt(375, 812)).toBe('top-right');
  });
});
