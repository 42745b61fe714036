import type { ItemInstance } from '@haversack/contracts';
import { Button } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { selectDestinationMessage, useTransferQueue } from '../hooks/use-transfer-queue';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { TransferQueueBar } from './transfer-queue-bar';

afterEach(() => vi.unstubAllGlobals());

const backpack = buildContainer();
const quiver = buildContainer({ id: 'container-2', name: 'Quiver', is_primary: false });
const arrows = buildItem();
const sword = buildItem({ id: 'item-2', name: 'Longsword', quantity: 1 });

function Harness({ items }: { items: ItemInstance[] }) {
  const queue = useTransferQueue();
  return (
    <>
      <Button onClick={() => items.forEach(queue.add)}>Queue all</Button>
      <TransferQueueBar queue={queue} containers={[backpack, quiver]} />
    </>
  );
}

function transferResult() {
  return jsonResponse(200, {
    status: 'success',
    data: {
      success: true,
      message: 'Item transferred successfully',
      moved: 1,
      source_instance: null,
      target_instances: [],
      transaction_ids: [],
    },
  });
}

describe('TransferQueueBar', () => {
  it('refuses to process without a destination', async () => {
    const fetchMock = mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Process Queue' }));
    expect(await screen.findByText(selectDestinationMessage)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('moves each queued item in turn, one request after the other, then empties the queue', async () => {
    const pending: { body: string; resolve: () => void }[] = [];
    mockFetch(({ init }) => {
      if (init.method !== 'POST') return jsonResponse(200, { status: 'success', data: [] });
      return new Promise<Response>((resolve) => {
        pending.push({ body: String(init.body), resolve: () => resolve(transferResult()) });
      });
    });
    renderWithProviders(<Harness items={[arrows, sword]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    expect(screen.getByText('Arrow ×20')).toBeInTheDocument();
    expect(screen.getByText('Longsword ×1')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('combobox', { name: 'Destination' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Quiver/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Process Queue' }));

    await waitFor(() => expect(pending).toHaveLength(1));
    expect(JSON.parse(pending[0]?.body ?? '{}')).toMatchObject({
      item_instance_id: 'item-1',
      source_container_id: 'container-1',
      target_container_id: 'container-2',
      quantity: 20,
    });
    expect(screen.getByText('Transferring 1 of 2')).toBeInTheDocument();
    // The second transfer waits for the first to finish.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pending).toHaveLength(1);

    pending[0]?.resolve();
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(JSON.parse(pending[1]?.body ?? '{}')).toMatchObject({ item_instance_id: 'item-2', quantity: 1 });
    pending[1]?.resolve();
    await waitFor(() => expect(screen.queryByText('Longsword ×1')).not.toBeInTheDocument());
    expect(screen.queryByText('Arrow ×20')).not.toBeInTheDocument();
  });

  it('keeps an empty queue compact: only the destination, no Clear or Process Queue', () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[sword]} />);
    expect(screen.getByRole('combobox', { name: 'Destination' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Process Queue' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    expect(screen.getByRole('button', { name: 'Process Queue' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });

  it('removes one item and clears the rest', () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows, sword]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Arrow from queue' }));
    expect(screen.queryByText('Arrow ×20')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByText('Longsword ×1')).not.toBeInTheDocument();
  });
});
