import { type JoinPermission, type PartyRole, partyMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { MembershipRow, PartyRow } from './parties.repository.js';

// spec/02 §6: who may do what in a party. Services call these before acting.

/** A private party does not exist for a non-member: 404, not 403. */
export function assertVisible(
  party: PartyRow | undefined,
  membership: MembershipRow | undefined,
): asserts party is PartyRow {
  if (!party || (!membership && !party.isPublic)) throw AppError.notFound('Party not found.');
}

export function assertMember(
  party: PartyRow | undefined,
  membership: MembershipRow | undefined,
): asserts membership is MembershipRow {
  if (!party || !membership) throw AppError.notFound('Party not found.');
}

export function assertGm(membership: MembershipRow | undefined): void {
  if (membership?.role !== 'gm') {
    throw new AppError('FORBIDDEN', partyMessages.gmOnly);
  }
}

export function assertNotArchived(party: PartyRow): void {
  if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
}

/** spec/02 §4: full lets any role join; limited only player or observer; restricted nobody by code. */
export function assertJoinRole(permission: JoinPermission, role: PartyRole): void {
  if (permission === 'restricted') throw new AppError('FORBIDDEN', partyMessages.restricted);
  if (permission === 'limited' && role !== 'player' && role !== 'observer') {
    throw AppError.validation([{ field: 'role_request', message: partyMessages.limitedRole }]);
  }
}

/** spec/02 §4: members may share the code unless the party is restricted. */
export function canSeeJoinCode(party: PartyRow, membership: MembershipRow | undefined): boolean {
  return Boolean(membership) && party.joinPermission !== 'restricted';
}

/** The party's own GM member can be neither removed nor re-roled. */
export function assertNotPartyGm(party: PartyRow, target: MembershipRow, action: 'remove' | 'rerole'): void {
  if (target.userId === party.gameMasterId || target.role === 'gm') {
    throw new AppError(
      'FORBIDDEN',
      action === 'remove' ? partyMessages.gmCannotBeRemoved : partyMessages.gmCannotBeReroled,
    );
  }
}
