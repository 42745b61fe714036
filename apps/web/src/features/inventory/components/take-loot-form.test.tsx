import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { pickContainerByTyping } from '../../../test/container-picker';
import { failure, mockFetch } from '../../../test/fixtures';
import { buildContainer, buildItem, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { TakeLootForm } from './take-loot-form';

afterEach(() => {
  vi.restoreAllMocks();
  useUiStore.setState({ toasts: [] });
});

const loot = { lootId: 'loot-1', lootName: 'Goblin hoard', partyId: 'party-1', blocked: null };

describe('TakeLootForm', () => {
  it('takes once for two presses of Take in the same task (Enter and a tap)', async () => {
    const fetchMock = mockFetch(({ url }) => failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`));
    const backpack = buildContainer({ id: 'backpack-1', name: 'Backpack', is_primary: true });
    renderWithProviders(
      <TakeLootForm
        item={buildItem({ id: 'coins-1', name: 'Gold piece', quantity: 40 })}
        loot={loot}
        destinations={[backpack]}
        onDone={() => undefined}
      />,
    );
    const submit = screen.getByRole('button', { name: /^Take/ });
    act(() => {
      submit.click();
      submit.click();
    });
    const takes = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/loot_instances/loot-1/take'));
    await waitFor(() => expect(takes()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(takes()).toHaveLength(1);
  });

  it('offers one of a stack at first, not the whole stack (review newgm L5)', async () => {
    mockFetch(({ url }) => failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`));
    renderWithProviders(
      <TakeLootForm
        item={buildItem({ id: 'coins-1', name: 'Gold piece', quantity: 40 })}
        loot={loot}
        destinations={[buildContainer({ id: 'backpack-1', name: 'Backpack', is_primary: true })]}
        onDone={() => undefined}
      />,
    );
    expect(screen.getByRole('textbox', { name: 'Quantity' })).toHaveValue('1');
  });

  it('finds the container to take into by typing, grouped by owner, for the keyboard to pick', async () => {
    const fetchMock = mockFetch(({ url }) => failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`));
    const user = userEvent.setup();
    const backpack = buildContainer({ id: 'backpack-1', name: 'Backpack', is_primary: true });
    const stash = buildPartyStash({ id: 'party-1', name: 'Night Watch' });
    const saddlebag = buildContainer({
      id: 'saddlebag',
      name: 'Saddlebag',
      is_primary: false,
      character_id: 'character-brom',
      owner: { type: 'character', id: 'character-brom', name: 'Brom' },
    });
    renderWithProviders(
      <TakeLootForm
        item={buildItem({ id: 'coins-1', name: 'Gold piece', quantity: 40 })}
        loot={loot}
        destinations={[backpack, stash, saddlebag]}
        onDone={() => undefined}
      />,
    );
    const picker = await pickContainerByTyping(user, {
      label: 'Take into',
      groups: ['Aria', 'Night Watch', 'Brom'],
      typed: 'brom',
      matching: ['Saddlebag (Brom)'],
    });
    expect((picker as HTMLInputElement).value).toMatch(/^Saddlebag \(Brom\)/);
    await user.click(screen.getByRole('button', { name: /^Take/ }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) =>
            String(url).endsWith('/loot_instances/loot-1/take') &&
            String(init?.body).includes('"target_container_id":"saddlebag"'),
        ),
      ).toBe(true),
    );
  });
});
