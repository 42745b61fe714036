import { inventoryMessages } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http-client';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { inventoryKeys } from '../api/inventory-api';
import { capacityRefusalText, weightRoomFor } from '../lib/weight-room';
import { buildContainer, buildItem } from '../test/inventory-fixtures';
import { QuantityDialog, type QuantityRequest } from './quantity-dialog';

const request = (onConfirm = vi.fn()): QuantityRequest => ({
  title: 'Move Gold piece',
  message: (left) => `How many of ${left} go to Backpack?`,
  confirmLabel: 'Transfer',
  max: 17,
  initial: 17,
  onConfirm,
  stack: { containerId: 'stash', itemId: 'gold' },
});

describe('QuantityDialog', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));

  it('follows a stack a teammate takes part of while the dialog is open', async () => {
    let left = 17;
    mockFetch(({ url }) =>
      url.endsWith('/item_instances/gold')
        ? success(buildItem({ id: 'gold', container_id: 'stash', quantity: left }))
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const onConfirm = vi.fn();
    const { queryClient } = renderRoutes(
      [{ path: '/', element: <QuantityDialog request={request(onConfirm)} onClose={() => undefined} /> }],
      '/',
    );
    expect(await screen.findByText('How many of 17 go to Backpack?')).toBeInTheDocument();
    // Dex moves 10 of them: the live update refreshes the stash.
    left = 7;
    await queryClient.invalidateQueries({ queryKey: inventoryKeys.container('stash') });
    expect(await screen.findByText('How many of 7 go to Backpack?')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Quantity' })).toHaveValue('7');
    await userEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(onConfirm).toHaveBeenCalledWith(7);
  });

  it('closes and says so when the stack is gone', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'The requested item could not be found.'));
    const onClose = vi.fn();
    renderRoutes([{ path: '/', element: <QuantityDialog request={request()} onClose={onClose} /> }], '/');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(inventoryMessages.itemGone);
  });

  it('keeps a number typed out of range as typed, says why, and confirms nothing', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/item_instances/gold')
        ? success(buildItem({ id: 'gold', container_id: 'stash', quantity: 17 }))
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const onConfirm = vi.fn();
    renderRoutes(
      [{ path: '/', element: <QuantityDialog request={request(onConfirm)} onClose={() => undefined} /> }],
      '/',
    );
    expect(await screen.findByText('How many of 17 go to Backpack?')).toBeInTheDocument();
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: 'Quantity' });
    await user.clear(field);
    await user.type(field, '0');
    await user.tab();
    expect(field).toHaveValue('0');
    expect(screen.getByText('Quantity must be at least 1')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '20');
    await user.tab();
    expect(field).toHaveValue('20');
    expect(screen.getByText('There are only 17 in this stack.')).toBeInTheDocument();
    await user.type(field, '{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

describe('QuantityDialog after a capacity refusal (marketplace)', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));

  const refused = (message: string) =>
    new ApiError({ code: 'CAPACITY_EXCEEDED', status: 422, message, serverMessage: message });
  const full = buildContainer({
    id: 'pouch',
    capacity: { used: 5, max: 5, slots_used: 1, slots_max: null, enforces: { weight: true, slots: true } },
  });
  const addRope = (onConfirm: QuantityRequest['onConfirm']): QuantityRequest => ({
    title: 'Add Rope',
    message: 'How many go to Belt Pouch?',
    confirmLabel: 'Add',
    max: null,
    initial: 1,
    onConfirm,
    destination: { containerId: 'pouch', weightEach: 10 },
  });

  it('says how much weight is left when one item is heavier than that, not that no room is left', async () => {
    const roomy = buildContainer({
      id: 'pouch',
      capacity: {
        used: 13.9,
        max: 50,
        slots_used: 1,
        slots_max: null,
        enforces: { weight: true, slots: true },
      },
    });
    mockFetch(({ url }) =>
      url.endsWith('/containers/pouch') ? success(roomy) : failure(404, 'RESOURCE_NOT_FOUND', 'No fake'),
    );
    const request = { ...addRope(() => Promise.reject(refused(inventoryMessages.weightExceeded))) };
    request.destination = { containerId: 'pouch', weightEach: 65 };
    renderRoutes([{ path: '/', element: <QuantityDialog request={request} onClose={() => {}} /> }], '/');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Add' }));
    expect(
      await screen.findByText(`${inventoryMessages.weightExceeded} (65 lbs each, only 36.1 lbs left)`),
    ).toBeInTheDocument();
  });

  it('stays open and says there is no room left; another refusal closes it, as toasted by the action', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/containers/pouch') ? success(full) : failure(404, 'RESOURCE_NOT_FOUND', 'No fake'),
    );
    const onClose = vi.fn();
    const onConfirm = vi.fn((_quantity: number) => Promise.reject(refused(inventoryMessages.weightExceeded)));
    renderRoutes(
      [{ path: '/', element: <QuantityDialog request={addRope(onConfirm)} onClose={onClose} /> }],
      '/',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add' }));
    expect(await screen.findByText(`${inventoryMessages.weightExceeded} (no room left)`)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    onConfirm.mockImplementationOnce(() =>
      Promise.reject(new ApiError({ code: 'FORBIDDEN', status: 403, message: 'No.' })),
    );
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});

describe('weightRoomFor and capacityRefusalText', () => {
  const capacity = {
    used: 47.5,
    max: 50,
    slots_used: 0,
    slots_max: null,
    enforces: { weight: true, slots: true },
  };

  it("counts the items of that weight that still fit, with the server's slack for rounding", () => {
    expect(weightRoomFor(capacity, 0.5)).toBe(5);
    expect(weightRoomFor({ ...capacity, used: 0.7, max: 1 }, 0.1)).toBe(3);
    expect(weightRoomFor({ ...capacity, used: 51 }, 1)).toBe(0);
  });

  it('knows nothing where weight sets no limit, or the item weighs nothing', () => {
    expect(weightRoomFor({ ...capacity, max: null }, 1)).toBeNull();
    expect(weightRoomFor({ ...capacity, enforces: { weight: false, slots: true } }, 1)).toBeNull();
    expect(weightRoomFor(capacity, 0)).toBeNull();
  });

  it("puts the spec's sentence first", () => {
    expect(capacityRefusalText(inventoryMessages.weightExceeded, 2)).toBe(
      'Item(s) would exceed weight limit (room for 2)',
    );
    // Review newgm L1: a 65 lb armour refused with 36.1 lbs free is not "no room left".
    expect(
      capacityRefusalText(inventoryMessages.weightExceeded, 0, {
        each: 65,
        capacity: { ...capacity, used: 13.9, max: 50 },
      }),
    ).toBe('Item(s) would exceed weight limit (65 lbs each, only 36.1 lbs left)');
    expect(
      capacityRefusalText(inventoryMessages.weightExceeded, 0, {
        each: 10,
        capacity: { ...capacity, used: 50 },
      }),
    ).toBe('Item(s) would exceed weight limit (no room left)');
    expect(capacityRefusalText(inventoryMessages.slotsExceeded, null)).toBe(
      'Item(s) would exceed volume limit',
    );
  });
});
