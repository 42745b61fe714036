import type { Party, PartyInvitation, PartyMember, PartyPreview } from '@haversack/contracts';
import type { InvitationRow, MembershipRow, PartyCounts, PartyRow } from './parties.repository.js';

const noCounts: PartyCounts = { memberCount: 0, playerCount: 0, characterCount: 0, gmName: null };

export function toPartyJson(
  party: PartyRow,
  counts: PartyCounts | undefined,
  membership: MembershipRow | undefined,
  showJoinCode: boolean,
): Party {
  const c = counts ?? noCounts;
  return {
    id: party.id,
    name: party.name,
    description: party.description,
    game_system: party.gameSystem,
    setting: party.setting,
    join_permission: party.joinPermission,
    encumbrance_style: party.encumbranceStyle,
    item_conjuring: party.itemConjuring,
    join_code: showJoinCode ? party.joinCode : null,
    is_public: party.isPublic,
    is_archived: party.isArchived,
    member_count: c.memberCount,
    player_count: c.playerCount,
    character_count: c.characterCount,
    gm_name: c.gmName,
    game_master_id: party.gameMasterId,
    // spec/02 §3 user_role "default observer": a non-member looks on; is_member tells the two apart.
    user_role: membership?.role ?? 'observer',
    is_gm: membership?.role === 'gm',
    is_member: Boolean(membership),
    created_at: party.createdAt.toISOString(),
    updated_at: party.updatedAt.toISOString(),
  };
}

export function toPreviewJson(
  party: PartyRow,
  counts: PartyCounts | undefined,
  isMember: boolean,
): PartyPreview {
  const c = counts ?? noCounts;
  return {
    id: party.id,
    name: party.name,
    description: party.description,
    game_system: party.gameSystem,
    setting: party.setting,
    member_count: c.memberCount,
    gm_name: c.gmName,
    is_public: party.isPublic,
    join_permission: party.joinPermission,
    is_member: isMember,
  };
}

export function toMemberJson(
  row: {
    membership: MembershipRow;
    username: string;
    email: string;
    characters: { id: string; name: string; primaryContainerId: string | null }[];
  },
  showEmail: boolean,
  /** Told to the GM alone (parties.service.ts members()); null otherwise. */
  partyCollaboration: boolean | null = null,
): PartyMember {
  return {
    id: row.membership.id,
    user_id: row.membership.userId,
    role: row.membership.role,
    created_at: row.membership.createdAt.toISOString(),
    user: { username: row.username, email: showEmail ? row.email : null },
    party_collaboration: partyCollaboration,
    character_details: row.characters.map((c) => ({
      id: c.id,
      name: c.name,
      primary_container_id: c.primaryContainerId,
    })),
  };
}

export function toInvitationJson(row: {
  invitation: InvitationRow;
  partyName: string;
  invitedName: string;
  inviterName: string;
}): PartyInvitation {
  const i = row.invitation;
  return {
    id: i.id,
    party_id: i.partyId,
    party_name: row.partyName,
    role: i.role,
    message: i.message,
    status: i.status,
    invited_user: { id: i.invitedUserId, username: row.invitedName },
    invited_by: { id: i.invitedById, username: row.inviterName },
    created_at: i.createdAt.toISOString(),
  };
}
