import type { ItemInstance } from '@haversack/contracts';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { useDestroyItem, useMergeItem, useTransferItem } from './use-inventory-actions';
import { useGiveItem } from './use-item-status';
import { useOpenItem } from './use-open-item';

afterEach(() => vi.unstubAllGlobals());

const rope = buildItem({ id: 'item-1', name: 'Rope', quantity: 3, container_id: 'bag-1' });

function transferResult(sourceLeft: ItemInstance | null) {
  return {
    success: true,
    message: 'Item transferred successfully',
    moved: 3,
    source_instance: sourceLeft,
    target_instances: [],
    transaction_ids: ['t1'],
  };
}

type Change = 'give' | 'transfer' | 'merge' | 'destroy';
let run: () => void = () => undefined;

/** The open item sheet's detail query, and the change made from it. */
function Sheet({ change }: { change: Change }) {
  const detail = useOpenItem();
  if (!detail.item) detail.open(rope);
  const give = useGiveItem(rope);
  const transfer = useTransferItem({ quiet: true });
  const merge = useMergeItem(rope);
  const destroy = useDestroyItem(rope);
  run = {
    give: () => give.mutate({ characterId: 'c2', characterName: 'Brom', containerId: 'bag-2', quantity: 3 }),
    transfer: () =>
      transfer.mutate({
        itemInstanceId: rope.id,
        sourceContainerId: 'bag-1',
        targetContainerId: 'bag-2',
        quantity: 3,
      }),
    merge: () => merge.mutate('item-2'),
    destroy: () => destroy.mutate(),
  }[change];
  return null;
}

async function detailFetchesAfter(change: Change, sourceLeft: ItemInstance | null = null) {
  const fetchMock = mockFetch(({ url, init }) => {
    const method = init.method ?? 'GET';
    if (method === 'DELETE') return new Response(null, { status: 204 });
    if (method === 'POST' && url.includes('/merge')) return success(buildItem({ id: 'item-2', quantity: 6 }));
    if (method === 'POST') return success(transferResult(sourceLeft));
    return success(sourceLeft ?? rope);
  });
  const detailCalls = () =>
    fetchMock.mock.calls.filter(
      ([url, init]) => (init?.method ?? 'GET') === 'GET' && String(url).endsWith('/item_instances/item-1'),
    ).length;
  renderWithProviders(<Sheet change={change} />);
  await waitFor(() => expect(detailCalls()).toBe(1));
  run();
  await waitFor(() =>
    expect(fetchMock.mock.calls.some(([, init]) => init?.method && init.method !== 'GET')).toBe(true),
  );
  // Whatever the change refreshes has been asked for by now.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return detailCalls() - 1;
}

describe('a stack that left its container', () => {
  it.each<Change>(['give', 'transfer', 'merge', 'destroy'])(
    'is not asked for again after a %s of the whole stack (it would 404)',
    async (change) => {
      expect(await detailFetchesAfter(change)).toBe(0);
    },
  );

  it.each<Change>(['give', 'transfer'])(
    'a stack that stays, smaller, after a %s is refetched to show what is left',
    async (change) => {
      expect(await detailFetchesAfter(change, { ...rope, quantity: 1 })).toBe(1);
    },
  );
});
