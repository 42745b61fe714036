import type { Container } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pickContainerByTyping } from '../../../test/container-picker';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { DeleteContainerDialog } from './delete-container-dialog';

const pouch = buildContainer({
  id: 'pouch',
  name: 'Belt Pouch',
  is_primary: false,
  current_weight: 5,
  items_count: 2,
  capacity: { used: 5, max: 10, slots_used: 2, slots_max: 5, enforces: { weight: true, slots: true } },
});
/** The primary container, full by weight. */
const backpack = buildContainer({
  current_weight: 48,
  capacity: { used: 48, max: 50, slots_used: 3, slots_max: 20, enforces: { weight: true, slots: true } },
});
/** Room by weight, but not for two more stacks. */
const quiver = buildContainer({
  id: 'quiver',
  name: 'Quiver',
  is_primary: false,
  capacity: { used: 1, max: 50, slots_used: 19, slots_max: 20, enforces: { weight: true, slots: true } },
});
const sack = buildContainer({
  id: 'sack',
  name: 'Sack',
  is_primary: false,
  capacity: { used: 30, max: 35, slots_used: 18, slots_max: 20, enforces: { weight: true, slots: true } },
});

function renderDialog(containers: Container[]) {
  renderWithProviders(
    <DeleteContainerDialog
      opened
      container={pouch}
      containers={containers}
      onClose={() => undefined}
      onDeleted={() => undefined}
    />,
  );
  return screen.getByRole('combobox', { name: 'Move its items to' });
}

describe('DeleteContainerDialog', () => {
  it('offers first a container with room for everything, by weight and by slots', () => {
    expect(renderDialog([backpack, pouch, quiver, sack])).toHaveValue('Sack (Aria) · 86% full · 18/20 slots');
  });

  it('offers none when no container has room, rather than one the server will refuse', () => {
    expect(renderDialog([backpack, pouch, quiver])).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Delete Container' })).toBeDisabled();
  });

  it('finds a destination by typing, grouped under its owner, for the keyboard to pick', async () => {
    renderDialog([backpack, pouch, quiver, sack]);
    const picker = await pickContainerByTyping(userEvent.setup(), {
      label: 'Move its items to',
      groups: ['Aria'],
      typed: 'qui',
      matching: ['Quiver (Aria)'],
    });
    expect(picker).toHaveValue('Quiver (Aria) · 2% full · 19/20 slots');
  });

  it('counts only the limits the party tracks', () => {
    const untracked = {
      ...backpack,
      capacity: { ...backpack.capacity, enforces: { weight: false, slots: true } },
    };
    expect(renderDialog([untracked, pouch, sack])).toHaveValue('Backpack (Aria) · 96% full · 3/20 slots');
  });
});
