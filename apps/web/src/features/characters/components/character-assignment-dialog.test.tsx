import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { CharacterAssignmentDialog } from './character-assignment-dialog';

const mine = [
  buildCharacter({ id: 'in-here', name: 'Aria', party_id: 'party-1', party_name: 'Lanterns' }),
  buildCharacter({ id: 'free', name: 'Bram', party_id: null }),
  buildCharacter({ id: 'elsewhere', name: 'Cade', party_id: 'party-2', party_name: 'Night Watch' }),
];

function renderDialog(patch: () => Response = () => success(buildCharacter())) {
  const fetchMock = mockFetch(({ init }) =>
    init.method === 'PATCH'
      ? patch()
      : jsonResponse(200, { status: 'success', data: mine, meta: pageMeta(3, 100) }),
  );
  const onClose = vi.fn();
  renderRoutes(
    [{ path: '/', element: <CharacterAssignmentDialog partyId="party-1" opened onClose={onClose} /> }],
    '/',
  );
  return { fetchMock, onClose };
}

const patches = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PATCH')
    .map(([url, init]) => [String(url), JSON.parse(String(init?.body))]);

describe('CharacterAssignmentDialog', () => {
  it('starts with the characters in this party selected and dims those in another party', async () => {
    renderDialog();
    const aria = await screen.findByRole('checkbox', { name: 'Aria' });
    expect(aria).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bram' })).not.toBeChecked();
    const cade = screen.getByRole('checkbox', { name: /Cade/ });
    expect(cade).toBeDisabled();
    expect(screen.getByText('Already in party: Night Watch')).toBeInTheDocument();
    expect(screen.getByTestId('assign-elsewhere')).toHaveStyle({ opacity: '0.5' });
  });

  it('enables Save only when the selection differs from the original', async () => {
    renderDialog();
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: 'Bram' }));
    expect(save).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Bram' }));
    expect(save).toBeDisabled();
  });

  it('saves added characters with the party id and removed ones with null', async () => {
    const toastSuccess = vi.spyOn(toast, 'success');
    const { fetchMock, onClose } = renderDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Bram' }));
    await user.click(screen.getByRole('checkbox', { name: 'Aria' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches(fetchMock)).toEqual([
      ['/api/v1/characters/free', { character: { party_id: 'party-1' } }],
      ['/api/v1/characters/in-here', { character: { party_id: null } }],
    ]);
    expect(toastSuccess).toHaveBeenCalledWith('Character assignments updated successfully');
  });

  it('toasts "Failed to update character assignments" when a save fails and stays open', async () => {
    const toastError = vi.spyOn(toast, 'error');
    const { onClose } = renderDialog(() => failure(409, 'CONFLICT', 'That character is in another party.'));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Bram' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith('Failed to update character assignments'));
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});
