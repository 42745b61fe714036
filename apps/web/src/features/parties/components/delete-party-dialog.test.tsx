import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { DeletePartyDialog } from './delete-party-dialog';

describe('DeletePartyDialog', () => {
  // Players' deposits go with the stash, and they cannot read the party's history afterwards.
  it('says what is destroyed with the party before the GM confirms', async () => {
    const party = buildParty({ name: 'Curse of Strahd' });
    renderRoutes([{ path: '/', element: <DeletePartyDialog party={party} onClose={vi.fn()} /> }], '/');
    const dialog = await screen.findByRole('dialog', { name: 'Delete party' });
    expect(dialog).toHaveTextContent(
      'Everything in its party stash, its shops and its loot is destroyed with it, and its members lose access to its history.',
    );
    expect(dialog).toHaveTextContent('Characters leave the party with what they carry.');
  });
});
