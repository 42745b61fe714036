import { shopMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ShopTemplateRow } from './shops.repository.js';

export interface ShopAccess {
  canRead: boolean;
  /** GM and managers: stock, restock, open, close, edit, deploy, delete. */
  canManage: boolean;
  /** Players, managers and GMs with a character in the party: buy and sell (observers only browse). */
  canTrade: boolean;
  /** Why managing is refused, when it is. */
  manageRefusal?: string;
  /** Why trading is refused, when it is not for want of a character. */
  tradeRefusal?: string;
}

/**
 * spec/02 §6 leaves shop roles open; DESIGN §4 and docs/decisions.md "Shops" decide them. Where the party
 * lets only its GM add items (`item_conjuring` 'gm_only'), only the GM manages shops: a manager's shop at
 * 100 % off, or stocked from a character outside the party, would add items the GM did not.
 */
export function shopAccess(
  membership: { role: 'gm' | 'manager' | 'player' | 'observer' } | undefined,
  hasCharacterInParty: boolean,
  itemConjuring: 'free' | 'gm_only' = 'free',
): ShopAccess {
  if (!membership) return { canRead: false, canManage: false, canTrade: false };
  const managerHeldBack = membership.role === 'manager' && itemConjuring === 'gm_only';
  return {
    canRead: true,
    canManage: membership.role === 'gm' || (membership.role === 'manager' && !managerHeldBack),
    ...(managerHeldBack ? { manageRefusal: shopMessages.gmOnlyParty } : {}),
    canTrade: membership.role !== 'observer' && hasCharacterInParty,
    ...(membership.role === 'observer' ? { tradeRefusal: shopMessages.observerCannotTrade } : {}),
  };
}

export function assertCanManage(access: ShopAccess): void {
  if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
  if (!access.canManage) throw new AppError('FORBIDDEN', access.manageRefusal ?? shopMessages.cannotManage);
}

export function assertCanTrade(access: ShopAccess): void {
  if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
  if (!access.canTrade) throw new AppError('FORBIDDEN', access.tradeRefusal ?? shopMessages.cannotTrade);
}

/** A private template exists only for its creator; unlisted and public ones for anyone signed in. */
export function canReadTemplate(template: Pick<ShopTemplateRow, 'visibility' | 'creatorId'>, userId: string) {
  return template.visibility !== 'private' || template.creatorId === userId;
}

export function assertTemplateOwner(
  template: Pick<ShopTemplateRow, 'creatorId' | 'systemKey'>,
  userId: string,
) {
  if (template.systemKey !== null) throw new AppError('FORBIDDEN', shopMessages.systemTemplate);
  if (template.creatorId !== userId) throw new AppError('FORBIDDEN', shopMessages.notOwner);
}
