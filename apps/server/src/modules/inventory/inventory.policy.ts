import { inventoryMessages, type PartyRole, partyMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ContainerContext } from './inventory.repository.js';

export interface ContainerAccess {
  canRead: boolean;
  /** What the user's role allows, archived or not. */
  canAct: boolean;
  /** The container is the party's or one of its characters', and the party is archived: read-only. */
  archived: boolean;
}

/**
 * DESIGN §4 Who may act: a user acts on their own characters' containers; members with a character in
 * the party (player, manager, gm) act on the party's containers; observers only read; the GM acts on every
 * container of the party. Party members may look at each other's characters' containers.
 */
export function containerAccess(
  context: ContainerContext,
  userId: string,
  membership: { role: PartyRole } | undefined,
  hasCharacterInParty: boolean,
): ContainerAccess {
  const archived = context.party?.isArchived ?? false;
  if (context.character) {
    const own = context.character.userId === userId;
    return { canRead: own || Boolean(membership), canAct: own || membership?.role === 'gm', archived };
  }
  return {
    canRead: Boolean(membership),
    canAct: mayActOnPartyContainers(membership?.role, hasCharacterInParty),
    archived,
  };
}

/**
 * DESIGN §4, the one rule of who may act on a party's own containers (create one, move in and out, spend
 * its coins), whatever the path that asks: the GM, or a member who is no observer and has a character in
 * the party (`hasCharacterInParty`, parties.repository). No role, no act.
 */
export function mayActOnPartyContainers(
  role: PartyRole | null | undefined,
  hasCharacterInParty: boolean,
): boolean {
  if (!role) return false;
  return role === 'gm' || (role !== 'observer' && hasCharacterInParty);
}

/**
 * Creating a party container: `mayActOnPartyContainers`, its refusal worded for the reason. A user who is
 * no member does not see the party (404); an observer is told their role, whatever characters they have
 * here; anyone else that they need a character.
 */
export function assertCanAddPartyContainer(
  party: { isArchived: boolean },
  role: PartyRole | null,
  hasCharacterInParty: boolean,
): void {
  if (!role) throw AppError.notFound('Party not found.');
  if (!mayActOnPartyContainers(role, hasCharacterInParty)) {
    throw new AppError(
      'FORBIDDEN',
      role === 'observer'
        ? inventoryMessages.observerCannotAddPartyContainer
        : inventoryMessages.needCharacterInParty,
    );
  }
  assertPartyNotArchived(party.isArchived);
}

/**
 * A container the user cannot see does not exist for them (404); one they can only see is 403. Every
 * inventory write passes here, so an archived party (and its characters' containers) stays read-only
 * until it is unarchived, whoever asks.
 */
export function assertCanAct(access: ContainerAccess): void {
  if (!access.canRead) throw AppError.notFound('Container not found.');
  if (!access.canAct) throw new AppError('FORBIDDEN', 'You can look at this container but not change it.');
  assertPartyNotArchived(access.archived);
}

/** The same refusal as the party's own settings give (parties.policy assertNotArchived). */
export function assertPartyNotArchived(archived: boolean): void {
  if (archived) throw new AppError('FORBIDDEN', partyMessages.archived);
}

export function assertCanRead(access: ContainerAccess): void {
  if (!access.canRead) throw AppError.notFound('Container not found.');
}

/**
 * A party's containers hold what the whole group shares: deleting one (its items go where the deleter
 * chooses) is for the party's GM or a manager, not for every member who may move items in and out.
 */
export function assertCanDeletePartyContainer(role: PartyRole | undefined): void {
  if (!keepsPartyContainers(role)) throw new AppError('FORBIDDEN', inventoryMessages.partyContainerDeleters);
}

/**
 * So is changing one's name, description or limits (attack review: a player renamed the Party Stash and
 * capped it at 1 slot / 1 lb, locking the others out of it). Members still move items in and out.
 */
export function assertCanEditPartyContainer(role: PartyRole | undefined): void {
  if (!keepsPartyContainers(role)) throw new AppError('FORBIDDEN', inventoryMessages.partyContainerEditors);
}

function keepsPartyContainers(role: PartyRole | undefined): boolean {
  return role === 'gm' || role === 'manager';
}
