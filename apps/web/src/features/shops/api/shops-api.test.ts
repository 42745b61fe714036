import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { invalidateShop, shopKeys } from './shops-api';

describe('invalidateShop', () => {
  it('refetches the shop now but never its price quotes (the stack quoted may be gone)', async () => {
    const queryClient = createQueryClient();
    const shopFetch = vi.fn(async () => ({ id: 'shop-1' }));
    const quoteFetch = vi.fn(async () => ({ total_price_cp: 1500 }));
    const watch = (queryKey: readonly unknown[], queryFn: () => Promise<unknown>) => {
      const observer = new QueryObserver(queryClient, { queryKey, queryFn });
      const unsubscribe = observer.subscribe(() => {});
      return unsubscribe;
    };
    const stopShop = watch(shopKeys.instance('shop-1'), shopFetch);
    const quoteKey = shopKeys.quote('shop-1', 'buy', 'stack-1', 1);
    const stopQuote = watch(quoteKey, quoteFetch);
    await vi.waitFor(() => expect(quoteFetch).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(shopFetch).toHaveBeenCalledTimes(1));

    await invalidateShop(queryClient, 'shop-1');
    expect(shopFetch).toHaveBeenCalledTimes(2);
    expect(quoteFetch).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryState(quoteKey)?.isInvalidated).toBe(true);

    // A live event refreshes the shop by its key (realtime/party-events.ts): its quotes are not asked again.
    await queryClient.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(shopFetch).toHaveBeenCalledTimes(3);
    expect(quoteFetch).toHaveBeenCalledTimes(1);
    stopShop();
    stopQuote();
  });
});
