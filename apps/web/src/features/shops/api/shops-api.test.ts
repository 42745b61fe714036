import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http-client';
import { createQueryClient } from '../../../lib/query-client';
import { invalidateShop, purchaseFailed, saleFailed, shopKeys, tradeErrorMessage } from './shops-api';

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

describe('tradeErrorMessage', () => {
  const conflict = (details: { field: string; message: string }[]) =>
    new ApiError({
      code: 'CONFLICT',
      status: 409,
      message: 'This conflicts with the current state. Refresh and try again.',
      serverMessage: 'The price has changed: it is now 5 sp each. Check the new price and buy again.',
      details,
    });

  it('names the new price of a line the GM repriced', () => {
    const message = 'The price has changed: it is now 5 sp each. Check the new price and buy again.';
    expect(tradeErrorMessage(conflict([{ field: 'expected_unit_price_cp', message }]), 'buy')).toBe(message);
  });

  it('says any other refusal in the server’s words, and only a failure of the server or network generically', () => {
    const refusal = (status: number, serverMessage: string) =>
      new ApiError({ code: 'CONFLICT', status, message: 'Something went wrong', serverMessage });
    expect(tradeErrorMessage(refusal(409, 'The shop changed. Refresh and try again.'), 'sell')).toBe(
      'The shop changed. Refresh and try again.',
    );
    expect(tradeErrorMessage(refusal(500, 'boom'), 'sell')).toBe(saleFailed);
    expect(tradeErrorMessage(new TypeError('Failed to fetch'), 'buy')).toBe(purchaseFailed);
  });
});
