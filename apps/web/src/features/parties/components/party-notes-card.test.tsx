import { type PartyNotes, partyNotesMessages } from '@haversack/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { partyKeys } from '../api/parties-api';
import {
  notesEmptyMessage,
  notesLoadFailedMessage,
  notesReadOnlyMessage,
  PartyNotesCard,
} from './party-notes-card';

const notesPath = '/api/v1/parties/party-1/notes';

function buildNotes(overrides: Partial<PartyNotes> = {}): PartyNotes {
  return {
    notes: 'The innkeeper owes us 30 gp.',
    version: 3,
    updated_at: '2026-03-14T15:02:00Z',
    updated_by: { id: 'user-pip', username: 'pip' },
    can_edit: true,
    ...overrides,
  };
}

/** The fake server: GET answers `current()`, PATCH answers `onSave(body)`. */
function fakeNotes(current: () => Response, onSave?: (body: unknown) => Response) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname !== notesPath) return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    if (init.method === 'PATCH' && onSave) return onSave(JSON.parse(String(init.body)));
    return current();
  });
}

const card = () => screen.getByRole('region', { name: 'Party notes' });
const editor = () => within(card()).getByRole('textbox', { name: 'Notes for the whole party' });

describe('PartyNotesCard (issue 14)', () => {
  it('shows a skeleton, then the notes with their last editor, and saves an edit with the version it started from', async () => {
    let saved: unknown;
    const fetchMock = fakeNotes(
      () => success(buildNotes()),
      (body) => {
        saved = body;
        return success(
          buildNotes({ notes: 'Paid.', version: 4, updated_by: { id: 'user-me', username: 'me' } }),
        );
      },
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    expect(within(card()).getByTestId('text-skeleton')).toBeInTheDocument();

    expect(await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.')).toBeInTheDocument();
    expect(within(card()).getByTestId('party-notes-editor')).toHaveTextContent(/^Last edited by pip, /);
    const save = within(card()).getByRole('button', { name: 'Save notes' });
    expect(save).toHaveAttribute('aria-disabled', 'true');

    const user = userEvent.setup();
    await user.clear(editor());
    await user.type(editor(), 'Paid.');
    expect(within(card()).getByText('5 / 10,000 characters')).toBeInTheDocument();
    await user.click(save);
    await waitFor(() => expect(saved).toEqual({ party_notes: { notes: 'Paid.', version: 3 } }));
    await waitFor(() =>
      expect(within(card()).getByTestId('party-notes-editor')).toHaveTextContent(/^Last edited by me, /),
    );
    expect(within(card()).getByRole('button', { name: 'Save notes' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(1);
  });

  it('keeps Save notes focusable once saved, says so, and ties the quiet counter to the field', async () => {
    useUiStore.setState({ toasts: [] });
    fakeNotes(
      () => success(buildNotes()),
      () => success(buildNotes({ notes: 'Paid.', version: 4 })),
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.');
    // The counter is part of the field's description, not a live region read out at every keystroke.
    const counter = within(card()).getByText('28 / 10,000 characters');
    expect(counter.closest('[aria-live]')).toBeNull();
    expect(editor()).toHaveAccessibleDescription('28 / 10,000 characters');

    const user = userEvent.setup();
    await user.clear(editor());
    await user.type(editor(), 'Paid.');
    expect(editor()).toHaveAccessibleDescription('5 / 10,000 characters');
    await user.click(within(card()).getByRole('button', { name: 'Save notes' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: partyNotesMessages.saved }),
    );
    // Nothing left to save, but the button stays in the tab order (a disabled one drops the focus).
    const save = within(card()).getByRole('button', { name: 'Save notes' });
    await waitFor(() => expect(save).toHaveAttribute('aria-disabled', 'true'));
    expect(save).not.toBeDisabled();
    expect(save).toHaveFocus();
    await user.click(save);
    expect(useUiStore.getState().toasts).toHaveLength(1);
  });

  it('says so when nothing is written yet, and shows observers the notes read-only', async () => {
    fakeNotes(() => success(buildNotes({ notes: '', version: 0, updated_at: null, updated_by: null })));
    const first = renderWithProviders(<PartyNotesCard partyId="party-1" />);
    expect(await within(card()).findByText(notesEmptyMessage)).toBeInTheDocument();
    expect(within(card()).getByTestId('party-notes-editor')).toHaveTextContent('Not edited yet');
    first.unmount();

    fakeNotes(() => success(buildNotes({ can_edit: false })));
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    expect(await within(card()).findByText('The innkeeper owes us 30 gp.')).toBeInTheDocument();
    expect(within(card()).getByText(notesReadOnlyMessage)).toBeInTheDocument();
    expect(within(card()).queryByRole('textbox')).toBeNull();
    expect(within(card()).queryByRole('button', { name: 'Save notes' })).toBeNull();
  });

  it('shows a load failure with Try Again', async () => {
    let fail = true;
    fakeNotes(() =>
      fail ? failure(403, 'FORBIDDEN', partyNotesMessages.membersOnly) : success(buildNotes()),
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    expect(await within(card()).findByRole('alert')).toHaveTextContent(notesLoadFailedMessage);
    fail = false;
    await userEvent.setup().click(within(card()).getByRole('button', { name: 'Try Again' }));
    expect(await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.')).toBeInTheDocument();
  });

  it('takes another member’s save live when not editing, and asks before overwriting it when editing', async () => {
    let current = buildNotes();
    fakeNotes(() => success(current));
    const { queryClient } = renderWithProviders(<PartyNotesCard partyId="party-1" />);
    await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.');

    // notes_updated refetches the query (realtime/party-events.ts): shown at once.
    current = buildNotes({
      notes: 'Bram paid him.',
      version: 4,
      updated_by: { id: 'user-bram', username: 'bram' },
    });
    await act(() => queryClient.invalidateQueries({ queryKey: partyKeys.notes('party-1') }));
    expect(await within(card()).findByDisplayValue('Bram paid him.')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(editor(), ' Or did he?');
    current = buildNotes({
      notes: 'Cora: he did.',
      version: 5,
      updated_by: { id: 'user-cora', username: 'cora' },
    });
    await act(() => queryClient.invalidateQueries({ queryKey: partyKeys.notes('party-1') }));
    const warning = await within(card()).findByRole('alert');
    expect(warning).toHaveTextContent('cora saved new notes while you were editing.');
    // The edit is kept, and cannot be saved over theirs without a choice.
    expect(editor()).toHaveValue('Bram paid him. Or did he?');
    expect(within(card()).getByRole('button', { name: 'Save notes' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );

    await user.click(within(warning).getByRole('button', { name: 'Use their version' }));
    expect(editor()).toHaveValue('Cora: he did.');
    expect(within(card()).queryByRole('alert')).toBeNull();
  });

  it('keeps the text and explains a conflict answered by the server, then saves over it only when asked', async () => {
    const versions: number[] = [];
    let current = buildNotes();
    fakeNotes(
      () => success(current),
      (body) => {
        const { version, notes } = (body as { party_notes: { version: number; notes: string } }).party_notes;
        versions.push(version);
        if (version !== current.version)
          return failure(409, 'CONFLICT', partyNotesMessages.conflict(current.updated_by?.username ?? ''));
        current = buildNotes({ notes, version: version + 1, updated_by: { id: 'user-me', username: 'me' } });
        return success(current);
      },
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.');
    const user = userEvent.setup();
    await user.type(editor(), ' Ask about the map.');
    // Someone saved on the server, and this page has not heard yet.
    current = buildNotes({ notes: 'Gone.', version: 4, updated_by: { id: 'user-bram', username: 'bram' } });
    await user.click(within(card()).getByRole('button', { name: 'Save notes' }));

    const conflict = await within(card()).findByRole('alert');
    expect(conflict).toHaveTextContent(partyNotesMessages.conflict('bram'));
    expect(editor()).toHaveValue('The innkeeper owes us 30 gp. Ask about the map.');
    await waitFor(() => expect(within(conflict).getByRole('button', { name: 'Keep mine' })).toBeEnabled());
    await user.click(within(conflict).getByRole('button', { name: 'Keep mine' }));
    await user.click(within(card()).getByRole('button', { name: 'Save notes' }));
    await waitFor(() => expect(versions).toEqual([3, 4]));
    await waitFor(() =>
      expect(within(card()).getByTestId('party-notes-editor')).toHaveTextContent(/^Last edited by me, /),
    );
    expect(current.notes).toBe('The innkeeper owes us 30 gp. Ask about the map.');
  });

  it('shows a refused save under the field in the server’s words, with the text kept', async () => {
    fakeNotes(
      () => success(buildNotes()),
      () =>
        failure(422, 'VALIDATION_ERROR', 'Validation failed', [
          { field: 'party_notes.notes', message: partyNotesMessages.tooLong },
        ]),
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.');
    const user = userEvent.setup();
    await user.type(editor(), '!');
    await user.click(within(card()).getByRole('button', { name: 'Save notes' }));
    expect(await within(card()).findByText(partyNotesMessages.tooLong)).toBeInTheDocument();
    expect(editor()).toHaveValue('The innkeeper owes us 30 gp.!');
  });
});

describe('PartyNotesCard on a connection that drops', () => {
  it('takes a save whose answer was lost, found made, as my own save: no “their version” to choose', async () => {
    useUiStore.setState({ toasts: [] });
    useAuthStore.setState({ user: buildUser({ id: 'user-me', username: 'me' }) });
    tokenStorage.setTokens(buildTokens());
    let current = buildNotes();
    fakeNotes(
      () => success(current),
      (body) => {
        // The server saves it, but the answer (and that of the automatic resend) never arrives.
        const sent = (body as { party_notes: { notes: string; version: number } }).party_notes;
        current = buildNotes({
          notes: sent.notes,
          version: sent.version + 1,
          updated_by: { id: 'user-me', username: 'me' },
        });
        throw new TypeError('Failed to fetch');
      },
    );
    renderWithProviders(<PartyNotesCard partyId="party-1" />);
    await within(card()).findByDisplayValue('The innkeeper owes us 30 gp.');
    const user = userEvent.setup();
    await user.type(editor(), ' Owe Marta 5 gp.');
    await user.click(within(card()).getByRole('button', { name: 'Save notes' }));
    await waitFor(
      () =>
        expect(within(card()).getByTestId('party-notes-editor')).toHaveTextContent(/^Last edited by me, /),
      { timeout: 5_000 },
    );
    expect(within(card()).queryByText(/saved new notes while you were editing/)).toBeNull();
    expect(within(card()).queryByText(/Network connection error/)).toBeNull();
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(partyNotesMessages.saved);
    // Writing on starts from the saved version: the next save is not refused as overtaken.
    await user.type(editor(), ' Then the map.');
    expect(within(card()).getByRole('button', { name: 'Save notes' })).not.toHaveAttribute('aria-disabled');
  }, 15_000);
});
