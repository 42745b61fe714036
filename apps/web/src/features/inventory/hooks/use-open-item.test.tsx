import { inventoryMessages } from '@haversack/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { inventoryKeys } from '../api/inventory-api';
import { buildItem } from '../test/inventory-fixtures';
import { useOpenItem } from './use-open-item';

const arrows = buildItem({ id: 'arrows', name: 'Arrow', quantity: 15, container_id: 'bag-1' });

function setUp(answer: () => Response) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  mockFetch(({ url }) =>
    url.includes('/item_instances/arrows') ? answer() : failure(404, 'RESOURCE_NOT_FOUND', 'no fake'),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { client, ...renderHook(() => useOpenItem(), { wrapper }) };
}

const saysGone = () => useUiStore.getState().toasts.some((t) => t.message === inventoryMessages.itemGone);

describe('useOpenItem', () => {
  it('follows the open stack as it shrinks, and closes, saying so, once another device took it all', async () => {
    let answer = () => success({ ...arrows, quantity: 5 });
    const { client, result } = setUp(() => answer());
    act(() => result.current.open(arrows));
    await waitFor(() => expect(result.current.item?.quantity).toBe(5));

    // The rest moved to the stash from another phone: the live event refreshes the container.
    answer = () => failure(404, 'RESOURCE_NOT_FOUND', 'Item not found.');
    await act(() => client.invalidateQueries({ queryKey: inventoryKeys.container('bag-1') }));
    await waitFor(() => expect(result.current.item).toBeNull());
    expect(saysGone()).toBe(true);
  });

  it('closes when the stack now lies in another container', async () => {
    let answer = () => success(arrows);
    const { client, result } = setUp(() => answer());
    act(() => result.current.open(arrows));
    await waitFor(() => expect(result.current.item).not.toBeNull());
    answer = () => success({ ...arrows, container_id: 'stash' });
    await act(() => client.invalidateQueries({ queryKey: inventoryKeys.container('bag-1') }));
    await waitFor(() => expect(result.current.item).toBeNull());
  });
});

describe('useOpenItem: what the item is', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("gives an own stack's template description and page from the stack's own detail", async () => {
    const { result } = setUp(() =>
      success({
        ...arrows,
        item_template: { ...arrows.item_template, description: 'Ammunition for a bow.', viewable: true },
      }),
    );
    expect(result.current.about).toBeNull();
    act(() => result.current.open(arrows));
    await waitFor(() =>
      expect(result.current.about).toEqual({
        description: 'Ammunition for a bow.',
        templateId: arrows.item_template_id,
      }),
    );
  });

  it('gives no page for a template the viewer may not open', async () => {
    const { result } = setUp(() =>
      success({
        ...arrows,
        item_template: { ...arrows.item_template, description: 'Homebrew.', viewable: false },
      }),
    );
    act(() => result.current.open(arrows));
    await waitFor(() => expect(result.current.about).toEqual({ description: 'Homebrew.', templateId: null }));
  });

  it("reads a loot stack's template, and says nothing of one it may not read", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    mockFetch(({ url }) => {
      if (url.endsWith('/item_templates/sword-template'))
        return success(buildLootItemTemplate({ id: 'sword-template', description: 'A versatile blade.' }));
      if (url.endsWith('/item_templates/secret-template'))
        return failure(404, 'RESOURCE_NOT_FOUND', 'Item template not found.');
      return failure(404, 'RESOURCE_NOT_FOUND', 'no fake');
    });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useOpenItem(), { wrapper });
    const loot = { lootId: 'hoard', lootName: 'Hoard', partyId: 'party-1', blocked: null };
    act(() => result.current.openLoot(buildItem({ id: 'sword', item_template_id: 'sword-template' }), loot));
    await waitFor(() =>
      expect(result.current.about).toEqual({
        description: 'A versatile blade.',
        templateId: 'sword-template',
      }),
    );
    act(() =>
      result.current.openLoot(buildItem({ id: 'secret', item_template_id: 'secret-template' }), loot),
    );
    await waitFor(() => expect(result.current.about).toBeNull());
  });
});
