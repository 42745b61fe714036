import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../features/inventory/test/inventory-fixtures';
import { ConfirmDialog } from './confirm-dialog';

function dialog(loading: boolean, onConfirm: () => void) {
  return (
    <ConfirmDialog
      opened
      title="Delete party"
      message="This cannot be undone."
      confirmLabel="Delete Party"
      onConfirm={onConfirm}
      onClose={() => undefined}
      loading={loading}
    />
  );
}

describe('ConfirmDialog', () => {
  it('confirms once on a double click, before the busy button is drawn', () => {
    const onConfirm = vi.fn();
    renderWithProviders(dialog(false, onConfirm));
    const confirm = screen.getByRole('button', { name: 'Delete Party' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('may be confirmed again once the action has settled with the dialog still open', async () => {
    const onConfirm = vi.fn();
    /** The action runs while `loading`; "settle" ends it with the dialog still open (it failed, say). */
    function Harness() {
      const [loading, setLoading] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setLoading(false)}>
            settle
          </button>
          {dialog(loading, () => {
            onConfirm();
            setLoading(true);
          })}
        </>
      );
    }
    renderWithProviders(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Party' }));
    fireEvent.click(screen.getByRole('button', { name: 'settle', hidden: true }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Delete Party' })).not.toHaveAttribute('data-loading'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete Party' }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('keeps the focus in the dialog while its busy button is disabled, and gives it back if it stays open', async () => {
    /** The action runs while `loading`; "settle" ends it with the dialog still open (it failed, say). */
    function Harness() {
      const [loading, setLoading] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setLoading(false)}>
            settle
          </button>
          {dialog(loading, () => setLoading(true))}
        </>
      );
    }
    renderWithProviders(<Harness />);
    const confirm = screen.getByRole('button', { name: 'Delete Party' });
    confirm.focus();
    fireEvent.click(confirm);
    // A disabled button loses the focus to the page in a browser (jsdom keeps it): the dialog holds it.
    expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Delete party' }));
    fireEvent.click(screen.getByRole('button', { name: 'settle', hidden: true }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Party' })).toHaveFocus());
  });
});
