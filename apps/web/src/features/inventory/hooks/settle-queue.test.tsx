import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { mockFetch, success } from '../../../test/fixtures';
import { type ItemPage, inventoryKeys, noItemFilters } from '../api/inventory-api';
import { buildItem } from '../test/inventory-fixtures';
import type { QueuedItem } from '../workspace-types';
import { settleQueue } from './settle-queue';
import { useTransferQueue } from './use-transfer-queue';

const torch = buildItem({ id: 'torch', name: 'Torch', quantity: 9, container_id: 'bag-1' });
const rope = buildItem({ id: 'rope', name: 'Rope', quantity: 1, container_id: 'bag-1' });

function page(items: QueuedItem[], total = items.length, pageNumber = 1, pages = 1): ItemPage {
  return {
    items,
    meta: { current_page: pageNumber, total_pages: pages, total_count: total, per_page: 20 },
    end: (pageNumber - 1) * 20 + items.length,
  };
}

function withList(pages: ItemPage[], filters = noItemFilters) {
  const client = new QueryClient();
  client.setQueryData(inventoryKeys.items('bag-1', filters), {
    pages,
    pageParams: pages.map((_, i) => ({ page: i + 1, perPage: 20 })),
  });
  return client;
}

describe('settleQueue', () => {
  it('drops a queued stack its container, loaded to the end, no longer holds', () => {
    expect(settleQueue(withList([page([rope])]), [torch, rope])).toEqual([rope]);
  });

  it('queues what is left of a stack that shrank', () => {
    const settled = settleQueue(withList([page([{ ...torch, quantity: 4 }, rope])]), [torch, rope]);
    expect(settled.map((item) => [item.id, item.quantity])).toEqual([
      ['torch', 4],
      ['rope', 1],
    ]);
  });

  it('keeps a stack whose container is only partly loaded, or filtered so that it would not show', () => {
    const partly = withList([page([rope], 60, 1, 3)]);
    expect(settleQueue(partly, [torch])).toEqual([torch]);
    const filtered = withList([page([rope])], { ...noItemFilters, search: 'rope' });
    expect(settleQueue(filtered, [torch])).toEqual([torch]);
  });

  it('answers the same queue when nothing changed, and leaves loot stacks to the loot', () => {
    const queue = [torch, { ...rope, loot: { lootId: 'l1', partyId: 'p1', blocked: null } } as QueuedItem];
    const client = withList([page([torch])]);
    expect(settleQueue(client, queue)).toBe(queue);
  });
});

describe('useTransferQueue', () => {
  it('keeps one "added to the queue" toast, the latest, rather than a pile of them', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useTransferQueue(), { wrapper });
    act(() => result.current.add(torch));
    act(() => result.current.add(rope));
    // Judged by their words: other files' late toasts may share the store.
    const messages = useUiStore.getState().toasts.map((t) => t.message);
    expect(messages).toContain('Rope added to the queue');
    expect(messages).not.toContain('Torch added to the queue');
  });

  it('settles the queue whenever a list of the container arrives, e.g. after another player took the torches', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useTransferQueue(), { wrapper });
    act(() => result.current.add(torch));
    expect(result.current.items.map((item) => item.id)).toEqual(['torch']);
    act(() => {
      client.setQueryData(inventoryKeys.items('bag-1', noItemFilters), {
        pages: [page([rope])],
        pageParams: [{ page: 1, perPage: 20 }],
      });
    });
    expect(result.current.items).toEqual([]);
  });

  it('keeps what failed to move in the queue, and lets go of what went', async () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The torch goes; the rope's request finds no connection.
    mockFetch(({ init }) => {
      const body = JSON.parse(String(init.body)) as { item_instance_id: string };
      if (body.item_instance_id === 'rope') throw new TypeError('Failed to fetch');
      return success({
        success: true,
        message: 'Item transferred successfully',
        moved: 9,
        source_instance: null,
        target_instances: [],
        transaction_ids: ['t1'],
      });
    });
    const { result } = renderHook(() => useTransferQueue(), { wrapper });
    act(() => {
      result.current.add(torch);
      result.current.add(rope);
      result.current.choose('stash');
    });
    await act(() => result.current.process());
    expect(result.current.items.map((item) => item.id)).toEqual(['rope']);
    expect(result.current.progress).toBeNull();
  });

  it('keeps the queue and its destination across a reload of the same page, and only there', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const before = renderHook(() => useTransferQueue('pip:/characters/1'), { wrapper });
    act(() => {
      before.result.current.add(torch);
      before.result.current.choose('stash');
    });
    before.unmount();
    const reloaded = renderHook(() => useTransferQueue('pip:/characters/1'), { wrapper });
    expect(reloaded.result.current.items.map((item) => item.id)).toEqual(['torch']);
    expect(reloaded.result.current.destination).toBe('stash');
    const elsewhere = renderHook(() => useTransferQueue('brom:/characters/1'), { wrapper });
    expect(elsewhere.result.current.items).toEqual([]);
    expect(elsewhere.result.current.destination).toBeNull();
  });

  it('starts empty when what the tab kept is not a queue', () => {
    window.sessionStorage.setItem('haversack-transfer-queue:pip:/c:items', '{"not":"a queue"}');
    window.sessionStorage.setItem('haversack-transfer-queue:pip:/c:destination', '[1,2]');
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useTransferQueue('pip:/c'), { wrapper });
    expect(result.current.items).toEqual([]);
    expect(result.current.destination).toBeNull();
  });
});
