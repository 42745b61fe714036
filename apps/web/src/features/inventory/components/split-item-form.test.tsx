import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { defaultSplitAmount, isValidSplit, SplitItemForm } from './split-item-form';

afterEach(() => vi.unstubAllGlobals());

describe('split rules (spec/02 §4: 1 <= amount < quantity, default half)', () => {
  it.each([
    [20, 10],
    [7, 3],
    [2, 1],
  ])('a stack of %i splits %i by default', (quantity, half) => {
    expect(defaultSplitAmount(quantity)).toBe(half);
  });

  it.each([
    [0, false],
    [1, true],
    [19, true],
    [20, false],
    [2.5, false],
  ])('%d of 20 is valid: %s', (amount, valid) => {
    expect(isValidSplit(amount, 20)).toBe(valid);
  });
});

describe('SplitItemForm', () => {
  it('starts at half, refuses the whole stack and sends the chosen amount', async () => {
    const fetchMock = mockFetch(() =>
      success([buildItem({ quantity: 12 }), buildItem({ id: 'item-2', quantity: 8 })]),
    );
    renderWithProviders(<SplitItemForm item={buildItem({ quantity: 20 })} onDone={() => undefined} />);
    const amount = screen.getByRole('textbox', { name: 'Split amount' });
    expect(amount).toHaveValue('10');
    const submit = screen.getByRole('button', { name: 'Split Stack' });

    fireEvent.change(amount, { target: { value: '20' } });
    expect(submit).toBeDisabled();
    fireEvent.change(amount, { target: { value: '0' } });
    expect(submit).toBeDisabled();

    fireEvent.change(amount, { target: { value: '8' } });
    expect(submit).toBeEnabled();
    fireEvent.click(submit);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/item_instances/item-1/split');
    expect(init?.body).toBe('{"quantity":8}');
  });

  it('sends one split for a double click, before the button is drawn disabled', async () => {
    const fetchMock = mockFetch(() =>
      success([buildItem({ quantity: 7 }), buildItem({ id: 'item-2', quantity: 4 })]),
    );
    renderWithProviders(<SplitItemForm item={buildItem({ quantity: 11 })} onDone={() => undefined} />);
    const form = screen.getByRole('button', { name: 'Split Stack' }).closest('form') as HTMLFormElement;
    // Two submits in one turn of the event loop: React has not redrawn in between.
    fireEvent.submit(form);
    fireEvent.submit(form);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('keeps a 0 typed as typed on leaving the field, and splits nothing', async () => {
    const fetchMock = mockFetch(() => success([]));
    renderWithProviders(<SplitItemForm item={buildItem({ quantity: 20 })} onDone={() => undefined} />);
    const user = userEvent.setup();
    const amount = screen.getByRole('textbox', { name: 'Split amount' });
    await user.clear(amount);
    await user.type(amount, '0');
    await user.tab();
    // Brought up to 1 as it was left, the split went ahead with 1 the player never chose.
    expect(amount).toHaveValue('0');
    expect(screen.getByText('Choose between 1 and 19')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Split Stack' })).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
