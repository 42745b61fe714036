import { lootMessages, partyMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { LootTemplateRow } from './loot.repository.js';

export interface LootAccess {
  /** A member of the party: sees revealed loot. */
  isMember: boolean;
  /** spec/02 §6 GM only: deploy, reveal, hide, edit, delete, distribute, and see hidden loot. */
  isGm: boolean;
  /**
   * Members with a character in the party, never observers: take and claim revealed loot. The GM too, for
   * any character of the party (DESIGN §4: the GM acts on every container of the party).
   */
  canTake: boolean;
  /** Why taking is refused, when it is not for want of a character. */
  takeRefusal?: string;
}

/**
 * spec/02 §6: the GM (every member whose role is gm, so co-GMs too) manages loot and sees it hidden;
 * managers are not GMs here. Non-GMs see only revealed loot.
 */
export function lootAccess(
  membership: { role: 'gm' | 'manager' | 'player' | 'observer' } | undefined,
  hasCharacterInParty: boolean,
): LootAccess {
  if (!membership) return { isMember: false, isGm: false, canTake: false };
  return {
    isMember: true,
    isGm: membership.role === 'gm',
    canTake: membership.role === 'gm' || (membership.role !== 'observer' && hasCharacterInParty),
    ...(membership.role === 'observer' ? { takeRefusal: lootMessages.observerCannotTake } : {}),
  };
}

/** Whether the user may know this loot exists: its party's GM always, other members once revealed. */
export function canSee(access: LootAccess, loot: { isRevealed: boolean }): boolean {
  return access.isGm || (access.isMember && loot.isRevealed);
}

/** Hidden loot does not exist for non-GMs (404); revealed loot they may only look at (403). */
export function assertGm(access: LootAccess, loot: { isRevealed: boolean }): void {
  if (!canSee(access, loot)) throw AppError.notFound(lootMessages.instanceNotFound);
  if (!access.isGm) throw new AppError('FORBIDDEN', partyMessages.gmOnly);
}

export function assertCanTake(access: LootAccess, loot: { isRevealed: boolean }): void {
  if (!canSee(access, loot)) throw AppError.notFound(lootMessages.instanceNotFound);
  if (!access.canTake) throw new AppError('FORBIDDEN', access.takeRefusal ?? lootMessages.cannotTake);
  // The GM sees hidden loot but nobody takes from it before the party may see it.
  if (!loot.isRevealed) throw new AppError('CONFLICT', lootMessages.notRevealed);
}

/** A private template exists only for its creator; unlisted and public ones for anyone signed in. */
export function canReadTemplate(template: Pick<LootTemplateRow, 'visibility' | 'creatorId'>, userId: string) {
  return template.visibility !== 'private' || template.creatorId === userId;
}

export function assertTemplateOwner(
  template: Pick<LootTemplateRow, 'creatorId' | 'systemKey'>,
  userId: string,
) {
  if (template.systemKey !== null) throw new AppError('FORBIDDEN', lootMessages.systemTemplate);
  if (template.creatorId !== userId) throw new AppError('FORBIDDEN', lootMessages.notOwner);
}
