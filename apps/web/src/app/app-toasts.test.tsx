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
  it('announces successes and tips politely, and failures and warnings at once', async () => {
    render(
      <MantineProvider env="test" theme={theme}>
        <AppToasts />
      </MantineProvider>,
    );
    toast.success('Item moved successfully');
    toast.info('Drag an item onto a container to move it.');
    toast.error('Failed to save. Please try again.');
    toast.warning('Your session is about to expire.');
    expect(await screen.findByTestId('toast-success')).toHaveAttribute('role', 'status');
    expect(await screen.findByTestId('toast-info')).toHaveAttribute('role', 'status');
    expect(await screen.findByTestId('toast-error')).toHaveAttribute('role', 'alert');
    expect(await screen.findByTestId('toast-warning')).toHaveAttribute('role', 'alert');
  });

  it('opens toasts at the bottom right of a desktop, away from the page header’s buttons', async () => {
    expect(await cornerAt(1280, 800)).toBe('bottom-right');
  });

  it('opens toasts at the top of a phone, below the header and clear of the transfer queue bar', async () => {
    expect(await cornerAt(375, 812)).toBe('top-right');
  });
});
