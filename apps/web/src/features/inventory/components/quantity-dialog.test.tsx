import { inventoryMessages } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { inventoryKeys } from '../api/inventory-api';
import { buildItem } from '../test/inventory-fixtures';
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
