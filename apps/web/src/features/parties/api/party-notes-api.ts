import { type PartyNotes, type PartyNotesUpdate, partyNotesSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { partyKeys } from './parties-api';

/** GET parties/{id}/notes (issue 14): the party's shared notes, their version and last editor. */
export function partyNotesQuery(partyId: string) {
  return queryOptions({
    queryKey: partyKeys.notes(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/parties/${partyId}/notes`, {
          schema: partyNotesSchema,
          signal,
          toast: false,
        })
      ).data,
    // Kept fresh by PartyChannel notes_updated while the party page is open.
    staleTime: 30_000,
  });
}

/**
 * PATCH parties/{id}/notes with the version the edit started from. A 409 CONFLICT means someone else saved
 * in between; the card shows it where the notes are, so nothing is toasted here.
 */
export async function savePartyNotes(partyId: string, update: PartyNotesUpdate): Promise<PartyNotes> {
  const { data } = await apiRequest(`${API_V1}/parties/${partyId}/notes`, {
    method: 'PATCH',
    body: { party_notes: update },
    schema: partyNotesSchema,
    toast: false,
  });
  return data;
}
