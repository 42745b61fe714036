import { TOAST_TIP_MS } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../lib/toast';
import { useUiStore } from '../stores/ui-store';
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

describe('a toast with an action (spec/01 §9: 6 s, long enough to reach its action)', () => {
  afterEach(() => {
    act(() => notifications.clean());
    useUiStore.setState({ toasts: [] });
    vi.useRealTimers();
  });

  /** A page with the item that was moved and its main region, the app's toasts, and a move's Undo toast. */
  async function showUndoToast(onUndo = vi.fn()) {
    render(
      <MantineProvider env="test" theme={theme}>
        <main tabIndex={-1}>
          <button type="button">Longsword</button>
        </main>
        <AppToasts />
      </MantineProvider>,
    );
    const item = screen.getByRole('button', { name: 'Longsword' });
    item.focus();
    // Fake timers that still move with the clock, so the toasts' component can load.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => void toast.confirm('success', 'Moved Longsword.', { label: 'Undo', onClick: onUndo }));
    const undo = await screen.findByRole('button', { name: 'Undo' });
    return { item, undo, shown: screen.getByTestId('toast-success'), onUndo };
  }

  const wait = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

  it('closes after its 6 s when nobody is in it', async () => {
    const { shown } = await showUndoToast();
    await wait(TOAST_TIP_MS - 500);
    expect(shown).toBeInTheDocument();
    await wait(1_000);
    await waitFor(() => expect(shown).not.toBeInTheDocument());
  });

  it('holds still while its Undo has the focus, then takes the time it had left once the focus goes', async () => {
    const { item, undo, shown } = await showUndoToast();
    await wait(2_000);
    act(() => undo.focus());
    await wait(60_000);
    expect(shown).toBeInTheDocument();
    expect(undo).toHaveFocus();

    act(() => item.focus());
    await wait(TOAST_TIP_MS - 2_000 - 500);
    expect(shown).toBeInTheDocument();
    await wait(1_000);
    await waitFor(() => expect(shown).not.toBeInTheDocument());
  });

  it('holds still while the pointer is over it', async () => {
    const { shown } = await showUndoToast();
    fireEvent.mouseEnter(shown);
    await wait(60_000);
    expect(shown).toBeInTheDocument();
    fireEvent.mouseLeave(shown);
    await wait(TOAST_TIP_MS + 500);
    await waitFor(() => expect(shown).not.toBeInTheDocument());
  });

  it('gives the focus back to where it was when its Undo runs, not to the page’s <body>', async () => {
    const { item, undo, shown, onUndo } = await showUndoToast();
    act(() => undo.focus());
    fireEvent.click(undo);
    expect(onUndo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(shown).not.toBeInTheDocument());
    expect(item).toHaveFocus();
  });

  it('closes on Escape, and gives the focus to the main region when the element it came from is gone', async () => {
    const { item, undo, shown } = await showUndoToast();
    act(() => undo.focus());
    item.remove();
    fireEvent.keyDown(undo, { key: 'Escape' });
    await waitFor(() => expect(shown).not.toBeInTheDocument());
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
