import { Button, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useUnsavedChanges } from '../lib/unsaved-changes';
import { renderRoutes, withUnsavedChangesGuard } from '../test/render';

/** A form wired as the app's are: its changes registered, its save and its Cancel leaving freely. */
function NoteForm({ onSave }: { onSave: (note: string) => Promise<void> }) {
  const form = useForm({ initialValues: { note: '' } });
  const leaveWithoutAsking = useUnsavedChanges(form.isDirty);
  const navigate = useNavigate();
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        leaveWithoutAsking(async () => {
          await onSave(values.note);
          navigate('/saved');
        }).catch(() => undefined),
      )}
    >
      <TextInput label="Note" {...form.getInputProps('note')} />
      <Button type="submit">Save</Button>
      <Button variant="default" onClick={() => void leaveWithoutAsking(() => navigate('/elsewhere'))}>
        Cancel
      </Button>
    </form>
  );
}

function renderNoteForm(onSave = vi.fn().mockResolvedValue(undefined)) {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/notes', element: <NoteForm onSave={onSave} /> },
      { path: '/saved', element: <p>Saved</p> },
    ]),
    '/notes',
  );
}

async function typeNote(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('textbox', { name: 'Note' }));
  await user.paste('The innkeeper owes us 30 gp');
}

describe('leaving a form with unsaved changes (spec/01 §8)', { timeout: 30_000 }, () => {
  it('leaves an untouched form without asking', async () => {
    const user = userEvent.setup();
    renderNoteForm();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Somewhere else')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks "You have unsaved changes." first: Stay keeps the form as it was, Leave anyway goes', async () => {
    const user = userEvent.setup();
    const { router } = renderNoteForm();
    await typeNote(user);

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(dialog).toHaveTextContent('You have unsaved changes.');
    await user.click(within(dialog).getByRole('button', { name: 'Stay on page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/notes');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('The innkeeper owes us 30 gp');

    // Escape answers "stay" too: the keyboard alone can make the choice.
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await screen.findByRole('dialog', { name: 'Leave this page?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/notes');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const again = await screen.findByRole('dialog', { name: 'Leave this page?' });
    await user.click(within(again).getByRole('button', { name: 'Leave anyway' }));
    expect(await screen.findByText('Somewhere else')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('gives the focus back to the link that asked, after Escape as after Stay, the first time too', async () => {
    const user = userEvent.setup();
    renderNoteForm();
    await typeNote(user);
    const link = screen.getByRole('link', { name: 'Elsewhere' });
    for (const answer of ['{Escape}', '{Enter}', '{Escape}']) {
      link.focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
      // It opens on its safe choice.
      await waitFor(() =>
        expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay on page' })),
      );
      await user.keyboard(answer);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(document.activeElement).toBe(link));
    }
  });

  it('does not ask when the page stays (its query string changes)', async () => {
    const user = userEvent.setup();
    const { router } = renderNoteForm();
    await typeNote(user);
    await router.navigate('/notes?tab=details');
    expect(router.state.location.search).toBe('?tab=details');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('does not ask when a save or Cancel leaves the page', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    renderNoteForm(onSave);
    await typeNote(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(onSave).toHaveBeenCalledWith('The innkeeper owes us 30 gp');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Cancel discards the changes without asking', async () => {
    const user = userEvent.setup();
    renderNoteForm();
    await typeNote(user);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Somewhere else')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a failed save keeps guarding the changes', async () => {
    const user = userEvent.setup();
    renderNoteForm(vi.fn().mockRejectedValue(new Error('offline')));
    await typeNote(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toBeInTheDocument();
  });

  it('asks the browser to confirm closing or reloading the tab only while there are changes', async () => {
    const user = userEvent.setup();
    renderNoteForm();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await typeNote(user);
    expect(unload()).toBe(true);
  });

  it('asks before closing or reloading the tab while a change is sent and not yet answered', async () => {
    let answer: (() => void) | undefined;
    const { queryClient } = renderNoteForm();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    const change = queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: () => new Promise<void>((resolve) => (answer = resolve)) })
      .execute(undefined);
    await waitFor(() => expect(answer).toBeDefined(), { timeout: 5_000 });
    expect(unload()).toBe(true);
    answer?.();
    await change;
    expect(unload()).toBe(false);
  });
});
