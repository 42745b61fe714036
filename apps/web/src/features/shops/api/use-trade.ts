import {
  type Currency,
  currencies,
  formatCopper,
  formatEnUs,
  type Purse,
  purseValueCp,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { invalidateContainers } from '../../inventory/api/inventory-api';
import { invalidateShop, type PurchaseRequest, purchase, type SellRequest, sell } from './shops-api';

const largestFirst: Currency[] = [...currencies].reverse();

/** "2 gp 5 sp" for a handful of coins; "nothing" when empty. */
export function formatPurse(purse: Partial<Purse>): string {
  const parts = purseCoins(purse);
  return parts.length > 0 ? parts.join(' ') : 'no coins';
}

/** The coins of a purse by kind, largest first: ["62 gp", "110 sp", "26 cp"]. */
export function purseCoins(purse: Partial<Purse>): string[] {
  return largestFirst.filter((c) => (purse[c] ?? 0) > 0).map((c) => `${formatEnUs(purse[c] ?? 0)} ${c}`);
}

/**
 * A purse as what it is worth, with the coins themselves when they read otherwise: "8 gp 2 sp" as it is,
 * but "73 gp 2 sp 6 cp (62 gp, 110 sp, 26 cp)" rather than a list that hides the sum.
 */
export function purseWorth(purse: Purse): string {
  const coins = purseCoins(purse);
  if (coins.length === 0) return 'no coins';
  const worth = formatCopper(purseValueCp(purse));
  return worth === coins.join(' ') ? worth : `${worth} (${coins.join(', ')})`;
}

/** The toast after a trade: what changed hands, and the change a buyer got back. */
export function tradeSummary(result: TradeResult, name: string, payerName?: string): string {
  const what = `${formatEnUs(result.quantity)} × ${name}`;
  if (result.kind === 'purchase') {
    // Paid by the party fund: said, so that nobody looks for the coins in their own purse.
    const paid = `Paid ${formatPurse(result.paid)}${payerName ? ` from ${payerName}` : ''}`;
    const change = Object.values(result.change).some((n) => n > 0)
      ? ` ${paid}, change ${formatPurse(result.change)}.`
      : ` ${paid}.`;
    return `${shopMessages.purchased}: ${what} for ${formatCopper(result.total_price_cp)}.${change}`;
  }
  return `${shopMessages.sold}: ${what} for ${formatCopper(result.total_price_cp)}.`;
}

export type TradeRequest = (PurchaseRequest | SellRequest) & {
  side: 'buy' | 'sell';
  name: string;
  /** The party stash that pays (payment source "party"), named in the toast. */
  payerName?: string;
};

/**
 * POST purchase or sell with the spec/02 §8 success messages; refreshes the shop and the trader's container
 * either way (a refusal may mean the stock moved under us). A refusal is not toasted: the trade dialog
 * shows it (docs/decisions.md: an error shows once).
 */
export function useTrade(options: { onSuccess?: (result: TradeResult) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TradeRequest) => (request.side === 'buy' ? purchase(request) : sell(request)),
    onSuccess: (result, request) => {
      // Above the shop's approval limit: nothing was paid yet, the goods wait for the GM (HTTP 202).
      if (result.request)
        toast.info(`${shopMessages.requestCreated} ${formatEnUs(result.quantity)} × ${request.name}.`);
      else toast.success(tradeSummary(result, request.name, request.payerName));
      options.onSuccess?.(result);
    },
    onSettled: async (result, _error, request) => {
      await Promise.all([
        invalidateShop(queryClient, request.shopId),
        invalidateContainers(
          queryClient,
          [request.containerId, result?.request?.payer_container_id ?? null].filter(
            (id): id is string => id !== null,
          ),
        ),
      ]);
    },
  });
}
