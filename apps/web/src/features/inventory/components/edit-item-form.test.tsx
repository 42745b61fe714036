import type { ItemInstance } from '@haversack/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { EditItemForm } from './edit-item-form';

afterEach(() => vi.unstubAllGlobals());

const potion = buildItem({ id: 'item-1', name: 'Potion of Healing', quantity: 1 });

/** The form as the item dialog holds it: its item is replaced when a live update refreshes the container. */
let liveUpdate: (item: ItemInstance) => void = () => undefined;
function OpenForm() {
  const [item, setItem] = useState(potion);
  liveUpdate = setItem;
  return <EditItemForm item={item} onDone={() => undefined} />;
}

const patchBodies = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PATCH')
    .map(([, init]) => JSON.parse(String(init?.body)) as { item_instance: Record<string, unknown> });

describe('EditItemForm while the stack changes live', () => {
  it('sends a rename alone, and its untouched quantity follows a potion that arrived meanwhile', async () => {
    const fetchMock = mockFetch(() => success(buildItem({ ...potion, quantity: 2 })));
    renderWithProviders(<OpenForm />);
    const name = screen.getByRole('textbox', { name: /^Name/ });
    fireEvent.change(name, { target: { value: 'Potion of Healing (from Brom)' } });
    act(() => liveUpdate({ ...potion, quantity: 2 }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Quantity' })).toHaveValue('2'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patchBodies(fetchMock)).toHaveLength(1));
    // No quantity: the rename cannot set the stack back to the 1 it held when the form opened.
    expect(patchBodies(fetchMock)[0]).toEqual({ item_instance: { name: 'Potion of Healing (from Brom)' } });
  });

  it('sends a typed quantity with the number it was typed over, and shows the refusal on the field', async () => {
    const refusal =
      'Potion of Healing changed meanwhile: the stack now holds 2. Check the quantity and save again.';
    // The server holds 2 by then: a number typed over 1 is refused, one typed over 2 is taken.
    const fetchMock = mockFetch(({ init }) =>
      JSON.parse(String(init.body)).item_instance.expected_quantity === 1
        ? failure(409, 'CONFLICT', refusal, [{ field: 'item_instance.quantity', message: refusal }])
        : success(buildItem({ ...potion, quantity: 5 })),
    );
    renderWithProviders(<OpenForm />);
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    fireEvent.change(quantity, { target: { value: '3' } });
    // A potion arrives after the player typed: the typed number stays, as typed.
    act(() => liveUpdate({ ...potion, quantity: 2 }));
    expect(quantity).toHaveValue('3');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(patchBodies(fetchMock)[0]).toEqual({ item_instance: { quantity: 3, expected_quantity: 1 } });

    // Saved again after reading it: typed over the 2 the stack holds now.
    fireEvent.change(quantity, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patchBodies(fetchMock)).toHaveLength(2));
    expect(patchBodies(fetchMock)[1]).toEqual({ item_instance: { quantity: 5, expected_quantity: 2 } });
  });
});

describe('EditItemForm quantity', () => {
  it('refuses a quantity of 0 with the rule, as typed, and saves nothing', async () => {
    const fetchMock = mockFetch(() => success(buildItem({ ...potion, quantity: 1 })));
    renderWithProviders(
      <EditItemForm item={buildItem({ ...potion, name: 'Torch', quantity: 10 })} onDone={() => undefined} />,
    );
    const user = userEvent.setup();
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '0');
    // Leaving the field brought a 0 up to 1, and Save then set 10 torches to 1 without a word.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(quantity).toHaveValue('0');
    expect(await screen.findByText('Quantity must be at least 1')).toBeInTheDocument();
    expect(patchBodies(fetchMock)).toHaveLength(0);
  });
});

describe('EditItemForm sent twice fast', () => {
  it('makes one change of a double Enter, not a second one refused as a conflict', async () => {
    let finish: (response: Response) => void = () => undefined;
    const fetchMock = mockFetch(
      () =>
        new Promise<Response>((resolve) => {
          finish = resolve;
        }),
    );
    renderWithProviders(<OpenForm />);
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    fireEvent.change(quantity, { target: { value: '3' } });
    // Two submits in one task, before React draws the button busy (Enter pressed twice, a double tap).
    const form = quantity.closest('form') as HTMLFormElement;
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(patchBodies(fetchMock)).toHaveLength(1));
    finish(success(buildItem({ ...potion, quantity: 3 })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(patchBodies(fetchMock)).toHaveLength(1);
  });
});
