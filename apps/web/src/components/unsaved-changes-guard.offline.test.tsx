import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUnsavedChanges } from '../lib/unsaved-changes';
import { renderRoutes, withUnsavedChangesGuard } from '../test/render';

const dialogServer = { up: false };

// The dialog's code, as a server down during a deploy answers it: not at all, until it is back.
vi.mock('./confirm-dialog', async (importOriginal) => {
  const { ConfirmDialog } = await importOriginal<typeof import('./confirm-dialog')>();
  return {
    get ConfirmDialog() {
      if (!dialogServer.up) throw new TypeError('Failed to fetch dynamically imported module');
      return ConfirmDialog;
    },
  };
});

function NoteForm() {
  const form = useForm({ initialValues: { note: '' } });
  useUnsavedChanges(form.isDirty);
  return <TextInput label="Note" {...form.getInputProps('note')} />;
}

describe('the unsaved-changes dialog while its code cannot be downloaded', { timeout: 30_000 }, () => {
  it('keeps the form on screen, then asks once the code arrives (no full reload)', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(
      withUnsavedChangesGuard([{ path: '/notes', element: <NoteForm /> }]),
      '/notes',
    );
    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.paste('The innkeeper owes us 30 gp');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    // Not the app's error page: the form and what was typed stay, and the user is not sent away.
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('The innkeeper owes us 30 gp');
    expect(router.state.location.pathname).toBe('/notes');

    dialogServer.up = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('The innkeeper owes us 30 gp');
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
