import {
  checkFeatureResultSchema,
  eligibleMemberSchema,
  invitationSchema,
  memberSchema,
  type PageMeta,
  type Party,
  type PartyForm,
  type PartyPreview,
  type PartyUpdate,
  type Patronage,
  type PatronageCreateBody,
  pageMetaSchema,
  partyPreviewSchema,
  partySchema,
  patronageSchema,
  type TierIdentifier,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { fetchEveryPage } from '../../../lib/fetch-every-page';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** spec/02 §9: party 30 s fresh, party preview 5 min. */
const PARTY_STALE_MS = 30_000;
const PREVIEW_STALE_MS = 5 * 60_000;
/** spec/02 §9: the party list shows 9 cards per page; discovery asks for 50 at once. */
export const PARTIES_PER_PAGE = 9;
export const DISCOVERY_PER_PAGE = 50;

/** The only source of party cache keys (DESIGN §2). */
export const partyKeys = {
  all: ['parties'] as const,
  lists: () => [...partyKeys.all, 'list'] as const,
  list: (filters: PartyListFilters) => [...partyKeys.lists(), filters] as const,
  discovery: (filters: DiscoveryFilters) => [...partyKeys.all, 'discovery', filters] as const,
  detail: (id: string) => [...partyKeys.all, 'detail', id] as const,
  members: (id: string) => [...partyKeys.all, 'detail', id, 'members'] as const,
  invitations: (id: string) => [...partyKeys.all, 'detail', id, 'invitations'] as const,
  eligible: (id: string) => [...partyKeys.all, 'detail', id, 'eligible-patronage'] as const,
  /** Issue 14: the shared notes; refreshed by PartyChannel `notes_updated`, not by party edits. */
  notes: (id: string) => [...partyKeys.all, 'detail', id, 'notes'] as const,
  previews: () => [...partyKeys.all, 'preview'] as const,
  preview: (by: PreviewTarget) => [...partyKeys.previews(), by] as const,
  myInvitations: () => ['invitations', 'mine'] as const,
  patronageFeature: () => [...partyKeys.all, 'patronage-feature'] as const,
};

export interface PartyPage {
  parties: Party[];
  meta: PageMeta;
}

function pageOf(parties: Party[], meta: unknown): PartyPage {
  const parsed = pageMetaSchema.safeParse(meta);
  return {
    parties,
    meta: parsed.success
      ? parsed.data
      : { current_page: 1, total_pages: 1, total_count: parties.length, per_page: parties.length },
  };
}

// ---- The party list ------------------------------------------------------------------------------

export interface PartyListFilters {
  page: number;
  search: string;
  showArchived: boolean;
  ownedOnly: boolean;
}

/** spec/02 §2 Party list: Show Archived off asks for live parties only; My Parties Only asks for owned ones. */
export function partyListSearch(filters: PartyListFilters, perPage = PARTIES_PER_PAGE): URLSearchParams {
  const params = new URLSearchParams({ page: String(filters.page), per_page: String(perPage) });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.ownedOnly) params.set('owned', 'true');
  if (!filters.showArchived) params.set('is_archived', 'false');
  return params;
}

export function partiesListQuery(filters: PartyListFilters) {
  return queryOptions({
    queryKey: partyKeys.list(filters),
    queryFn: async ({ signal }): Promise<PartyPage> => {
      const { data, meta } = await apiRequest(`${API_V1}/parties?${partyListSearch(filters)}`, {
        schema: z.array(partySchema),
        signal,
        toast: false,
      });
      return pageOf(data, meta);
    },
    staleTime: PARTY_STALE_MS,
  });
}

/** The largest page the server serves (contracts `partyListQuerySchema.per_page`). */
const MAX_PARTIES_PER_PAGE = 100;

/**
 * Every active party of the user, for pickers (the character form): all pages of the largest size, so a
 * player in ten or more parties can pick any of them (the grid's 9-a-page first page stopped at 9).
 */
export function myActivePartiesQuery() {
  return queryOptions({
    queryKey: [...partyKeys.lists(), 'all-active'] as const,
    queryFn: async ({ signal }): Promise<PartyPage> => {
      const { items, meta } = await fetchEveryPage(
        async (page, perPage) => {
          const params = partyListSearch(
            { page, search: '', showArchived: false, ownedOnly: false },
            perPage,
          );
          const { data, meta: pageMeta } = await apiRequest(`${API_V1}/parties?${params}`, {
            schema: z.array(partySchema),
            signal,
            toast: false,
          });
          return pageOf(data, pageMeta);
        },
        (answer) => answer.parties,
        MAX_PARTIES_PER_PAGE,
      );
      return { parties: items, meta };
    },
    staleTime: PARTY_STALE_MS,
  });
}

// ---- Discovery -----------------------------------------------------------------------------------

export interface DiscoveryFilters {
  search: string;
  gameSystem: string;
}

export function discoverySearch(filters: DiscoveryFilters): URLSearchParams {
  const params = new URLSearchParams({
    visibility: 'public',
    page: '1',
    per_page: String(DISCOVERY_PER_PAGE),
  });
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.gameSystem) params.set('game_system', filters.gameSystem);
  return params;
}

export function publicPartiesQuery(filters: DiscoveryFilters) {
  return queryOptions({
    queryKey: partyKeys.discovery(filters),
    queryFn: async ({ signal }): Promise<PartyPage> => {
      const { data, meta } = await apiRequest(`${API_V1}/parties?${discoverySearch(filters)}`, {
        schema: z.array(partySchema),
        signal,
        toast: false,
      });
      return pageOf(data, meta);
    },
    staleTime: PARTY_STALE_MS,
  });
}

// ---- One party -----------------------------------------------------------------------------------

export function partyQuery(id: string) {
  return queryOptions({
    queryKey: partyKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/parties/${id}`, { schema: partySchema, signal, toast: false })).data,
    staleTime: PARTY_STALE_MS,
  });
}

export function partyMembersQuery(id: string) {
  return queryOptions({
    queryKey: partyKeys.members(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/parties/${id}/members`, {
          schema: z.array(memberSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: PARTY_STALE_MS,
  });
}

export async function createParty(party: PartyForm): Promise<Party> {
  const { data } = await apiRequest(`${API_V1}/parties`, {
    method: 'POST',
    body: { party },
    schema: partySchema,
  });
  return data;
}

export async function updateParty(id: string, party: PartyUpdate): Promise<Party> {
  const { data } = await apiRequest(`${API_V1}/parties/${id}`, {
    method: 'PATCH',
    body: { party },
    schema: partySchema,
  });
  return data;
}

export async function deleteParty(id: string): Promise<void> {
  await apiRequest(`${API_V1}/parties/${id}`, { method: 'DELETE', toast: false });
}

export async function setPartyArchived(id: string, archived: boolean): Promise<Party> {
  const { data } = await apiRequest(`${API_V1}/parties/${id}/${archived ? 'archive' : 'unarchive'}`, {
    method: 'POST',
    schema: partySchema,
  });
  return data;
}

export async function regenerateJoinCode(id: string): Promise<Party> {
  const { data } = await apiRequest(`${API_V1}/parties/${id}/regenerate_join_code`, {
    method: 'POST',
    schema: partySchema,
  });
  return data;
}

// ---- Members -------------------------------------------------------------------------------------

export type AssignableRole = 'manager' | 'player' | 'observer';

export async function changeMemberRole(partyId: string, userId: string, role: AssignableRole): Promise<void> {
  await apiRequest(`${API_V1}/parties/${partyId}/members/${userId}`, {
    method: 'PATCH',
    body: { party_membership: { role } },
  });
}

export async function removeMember(partyId: string, userId: string): Promise<void> {
  await apiRequest(`${API_V1}/parties/${partyId}/members/${userId}`, { method: 'DELETE' });
}

/**
 * The party's owner makes another member its Game Master and owner (PATCH parties/{id} game_master_id);
 * the owner stays a GM member and may then leave.
 */
export async function handOverParty(partyId: string, userId: string): Promise<Party> {
  const party: PartyUpdate = { game_master_id: userId };
  const { data } = await apiRequest(`${API_V1}/parties/${partyId}`, {
    method: 'PATCH',
    body: { party },
    schema: partySchema,
  });
  return data;
}

export async function leaveParty(partyId: string): Promise<void> {
  await apiRequest(`${API_V1}/parties/${partyId}/leave`, { method: 'DELETE' });
}

// ---- Joining -------------------------------------------------------------------------------------

export type PreviewTarget = { joinCode: string } | { id: string };

export function partyPreviewQuery(target: PreviewTarget) {
  return queryOptions({
    queryKey: partyKeys.preview(target),
    queryFn: async ({ signal }): Promise<PartyPreview> => {
      const params = new URLSearchParams(
        'joinCode' in target ? { join_code: target.joinCode } : { id: target.id },
      );
      const { data } = await apiRequest(`${API_V1}/parties/preview?${params}`, {
        schema: partyPreviewSchema,
        signal,
        toast: false,
      });
      return data;
    },
    staleTime: PREVIEW_STALE_MS,
    // An unknown code will not become known by asking again.
    retry: false,
  });
}

export async function joinParty(
  joinCode: string,
  roleRequest: string,
): Promise<{ party: Party; message: string }> {
  const { data, message } = await apiRequest(`${API_V1}/parties/join`, {
    method: 'POST',
    body: { join_code: joinCode, role_request: roleRequest },
    schema: partySchema,
    toast: false,
  });
  return { party: data, message: message ?? `Successfully joined party "${data.name}"!` };
}

// ---- Invitations ---------------------------------------------------------------------------------

export function partyInvitationsQuery(partyId: string) {
  return queryOptions({
    queryKey: partyKeys.invitations(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/parties/${partyId}/invitations`, {
          schema: z.array(invitationSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: PARTY_STALE_MS,
  });
}

export interface InvitationInput {
  target: string;
  role: AssignableRole;
  message: string;
}

export async function inviteToParty(partyId: string, input: InvitationInput): Promise<void> {
  const target = input.target.trim();
  const who = target.includes('@') ? { email: target } : { username: target };
  await apiRequest(`${API_V1}/parties/${partyId}/invitations`, {
    method: 'POST',
    body: { party_invitation: { ...who, role: input.role, message: input.message.trim() } },
  });
}

export async function revokeInvitation(partyId: string, invitationId: string): Promise<void> {
  await apiRequest(`${API_V1}/parties/${partyId}/invitations/${invitationId}`, { method: 'DELETE' });
}

export function myInvitationsQuery() {
  return queryOptions({
    queryKey: partyKeys.myInvitations(),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/invitations`, { schema: z.array(invitationSchema), signal, toast: false }))
        .data,
    staleTime: PARTY_STALE_MS,
  });
}

export async function acceptInvitation(invitationId: string): Promise<{ party: Party; message: string }> {
  const { data, message } = await apiRequest(`${API_V1}/invitations/${invitationId}/accept`, {
    method: 'POST',
    schema: partySchema,
  });
  return { party: data, message: message ?? `Successfully joined party "${data.name}"!` };
}

export async function declineInvitation(invitationId: string): Promise<void> {
  await apiRequest(`${API_V1}/invitations/${invitationId}/decline`, { method: 'POST' });
}

// ---- Patronage (spec/01 §7) ----------------------------------------------------------------------

export const PATRONAGE_FEATURE = 'patronage_system';

export function patronageFeatureQuery() {
  return queryOptions({
    queryKey: partyKeys.patronageFeature(),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/subscription/check_feature`, {
          method: 'POST',
          body: { feature: PATRONAGE_FEATURE },
          schema: checkFeatureResultSchema,
          signal,
          toast: false,
        })
      ).data.allowed,
  });
}

export function eligibleMembersQuery(partyId: string) {
  return queryOptions({
    queryKey: partyKeys.eligible(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/patronages/eligible/${partyId}`, {
          schema: z.array(eligibleMemberSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: PARTY_STALE_MS,
  });
}

/** Without `grantedTier` the server grants the sponsor's own plan. */
export async function sponsorMember(
  partyId: string,
  beneficiaryId: string,
  grantedTier?: TierIdentifier,
): Promise<Patronage> {
  const body: PatronageCreateBody = { beneficiary_id: beneficiaryId, party_id: partyId };
  if (grantedTier) body.granted_tier = grantedTier;
  const answer = await apiRequest(`${API_V1}/patronages`, {
    method: 'POST',
    body,
    schema: patronageSchema,
  });
  return answer.data;
}

export async function endPatronage(patronageId: string): Promise<void> {
  await apiRequest(`${API_V1}/patronages/${patronageId}`, { method: 'DELETE' });
}
