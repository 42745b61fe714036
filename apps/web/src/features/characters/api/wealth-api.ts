import { characterWealthSchema, partyWealthSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';
import { inventoryKeys } from '../../inventory/api/inventory-api';

/**
 * Issue 12 §4 and §7: wealth and load change with every inventory change, so their keys sit under the
 * inventory owner keys that the party's inventory events already invalidate (realtime/party-events.ts):
 * a character's under that character's containers, the party's table under the party's containers.
 */
export const wealthKeys = {
  character: (characterId: string) =>
    [...inventoryKeys.owner({ type: 'character', id: characterId }), 'wealth'] as const,
  party: (partyId: string) => [...inventoryKeys.owner({ type: 'party', id: partyId }), 'wealth'] as const,
};

/** A 404 (not theirs, or gone) or another refusal will not change on a retry. */
const noRetryOnClientError = (failureCount: number, error: Error) =>
  failureCount < 1 && !(isApiError(error) && error.status < 500);

/** GET characters/{id}/wealth: its purse, wealth and load. Refetched on mount, as it moves with every item. */
export function characterWealthQuery(characterId: string) {
  return queryOptions({
    queryKey: wealthKeys.character(characterId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/characters/${characterId}/wealth`, {
          schema: characterWealthSchema,
          signal,
          toast: false,
        })
      ).data,
    retry: noRetryOnClientError,
  });
}

/** GET parties/{id}/wealth: every character's load, wealth and encumbrance, the stash and the total. */
export function partyWealthQuery(partyId: string) {
  return queryOptions({
    queryKey: wealthKeys.party(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/parties/${partyId}/wealth`, {
          schema: partyWealthSchema,
          signal,
          toast: false,
        })
      ).data,
    retry: noRetryOnClientError,
  });
}
