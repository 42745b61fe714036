import { AppError } from '../../lib/app-error.js';
import type { ContainerContext } from './inventory.repository.js';

export interface ContainerAccess {
  canRead: boolean;
  canAct: boolean;
}

/**
 * DESIGN §4 Who may act: a user acts on their own characters' containers; members with a character in
 * the party (player, manager, gm) act on the party's containers; observers only read; the GM acts on every
 * container of the party. Party members may look at each other's characters' containers.
 */
export function containerAccess(
  context: ContainerContext,
  userId: string,
  membership: { role: 'gm' | 'manager' | 'player' | 'observer' } | undefined,
  hasCharacterInParty: boolean,
): ContainerAccess {
  const isGm = membership?.role === 'gm';
  if (context.character) {
    const own = context.character.userId === userId;
    return { canRead: own || Boolean(membership), canAct: own || isGm };
  }
  const canAct = isGm || (membership !== undefined && membership.role !== 'observer' && hasCharacterInParty);
  return { canRead: Boolean(membership), canAct };
}

/** A container the user cannot see does not exist for them (404); one they can only see is 403. */
export function assertCanAct(access: ContainerAccess): void {
  if (!access.canRead) throw AppError.notFound('Container not found.');
  if (!access.canAct) throw new AppError('FORBIDDEN', 'You can look at this container but not change it.');
}

export function assertCanRead(access: ContainerAccess): void {
  if (!access.canRead) throw AppError.notFound('Container not found.');
}
