import { formatCopper, type TradeResult } from '@haversack/contracts';
import { Alert, Button, Checkbox, Group, Paper, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { transactionKeys } from '../../activity/api/transactions-api';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { inventoryKeys } from '../../inventory/api/inventory-api';
import { lootKeys } from '../../loot/api/loot-api';
import { partyQuery } from '../../parties/api/parties-api';
import { invalidateShop, type SellRequest, sell, tradeErrorMessage } from '../api/shops-api';

/**
 * Issue 11 §8: the copper each chosen character gets, as the server deals it: an even share, and the
 * remainder one copper each to the first in the list.
 */
export function splitShares(totalCp: number, n: number): number[] {
  if (n < 1) return [];
  const base = Math.floor(totalCp / n);
  const remainder = totalCp - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < remainder ? 1 : 0));
}

/**
 * Whether the user may split a sale's proceeds at this shop (the party's GM), the party's characters
 * (all chosen until the GM unticks some) and the switch itself.
 */
export function useSplitProceeds(partyId: string | null, enabled: boolean) {
  const party = useQuery({ ...partyQuery(partyId ?? ''), enabled: enabled && partyId !== null });
  const available = enabled && party.data?.is_gm === true;
  const characters = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: available });
  const [on, setOn] = useState(false);
  const [unticked, setUnticked] = useState<string[]>([]);
  const list = characters.data?.characters ?? [];
  // In the party's order, so the shares shown are the shares the server deals.
  const chosen = list.filter((c) => !unticked.includes(c.id));
  const reset = useCallback(() => {
    setOn(false);
    setUnticked([]);
  }, []);
  return {
    available,
    on: available && on,
    setOn,
    characters,
    list,
    chosen,
    choose: (ids: string[]) => setUnticked(list.filter((c) => !ids.includes(c.id)).map((c) => c.id)),
    /** Switched on with nobody chosen: nothing may be sold yet. */
    blocked: available && on && chosen.length === 0,
    reset,
  };
}

export type SplitProceeds = ReturnType<typeof useSplitProceeds>;

/** The switch, the characters to share with and what each would get. */
export function SplitProceedsField({ split, totalCp }: { split: SplitProceeds; totalCp: number | null }) {
  if (!split.available) return null;
  const shares = totalCp === null ? [] : splitShares(totalCp, split.chosen.length);
  const shareOf = (id: string) => {
    const index = split.chosen.findIndex((c) => c.id === id);
    const share = shares[index];
    return index < 0 || share === undefined ? null : formatCopper(share);
  };
  return (
    <Paper withBorder p="sm" data-testid="trade-split">
      <Stack gap="xs">
        <Switch
          label="Split the proceeds"
          description="Share the coins evenly among the party’s characters instead of paying the seller."
          checked={split.on}
          onChange={(event) => split.setOn(event.currentTarget.checked)}
        />
        {!split.on ? null : split.characters.isPending ? (
          <Skeleton height={72} data-testid="trade-split-loading" />
        ) : failedWithNothingToShow(split.characters) ? (
          <Alert color="red" variant="light" role="alert" title="Characters could not be loaded">
            <Button variant="outline" color="red" size="xs" onClick={() => void split.characters.refetch()}>
              Try Again
            </Button>
          </Alert>
        ) : split.list.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="trade-split-empty">
            This party has no characters to share with yet.
          </Text>
        ) : (
          // A refresh of the characters that failed keeps them to choose from, with a note.
          <Stack gap="xs">
            <RefreshFailedNote query={split.characters} />
            <Checkbox.Group
              label="Share among"
              value={split.chosen.map((c) => c.id)}
              onChange={split.choose}
              error={split.blocked ? 'Choose at least one character' : undefined}
            >
              <Stack gap={6} mt={6}>
                {split.list.map((c) => (
                  <Group key={c.id} justify="space-between" wrap="nowrap" gap="xs">
                    <Checkbox value={c.id} label={c.name} />
                    <Text
                      size="sm"
                      c="dimmed"
                      data-testid="trade-split-share"
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {shareOf(c.id) ?? '—'}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Checkbox.Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * A split failure says why when the server does (only the GM; characters of this party); otherwise the
 * sale's spec/02 §8 messages.
 */
export function splitErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.code === 'FORBIDDEN' || error.code === 'VALIDATION_ERROR')) {
    return error.serverMessage ?? tradeErrorMessage(error, 'sell');
  }
  return tradeErrorMessage(error, 'sell');
}

/**
 * POST sell with split_among: the toast is the server's sentence saying who got what (a refusal shows in
 * the dialog only). Coins landed in
 * several characters' containers, so every container on screen, the ledgers and the party's Loot
 * received are refreshed.
 */
export function useSplitSale(options: { partyId: string | null; onSuccess: (result: TradeResult) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SellRequest & { splitAmong: string[] }) => sell(request),
    onSuccess: (result) => {
      toast.success(result.message);
      options.onSuccess(result);
    },
    onSettled: async (_result, _error, request) => {
      await Promise.all([
        invalidateShop(queryClient, request.shopId),
        queryClient.invalidateQueries({ queryKey: inventoryKeys.all }),
        queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
        ...(options.partyId
          ? [queryClient.invalidateQueries({ queryKey: lootKeys.summary(options.partyId) })]
          : []),
      ]);
    },
  });
}
