import { shopMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ShopTemplateRow } from './shops.repository.js';

export interface ShopAccess {
  canRead: boolean;
  /** GM and managers: stock, restock, open, close, edit, deploy, delete. */
  canManage: boolean;
  /** Players, managers and GMs with a character in the party: buy and sell (observers only browse). */
  canTrade: boolean;
}

/** spec/02 §6 leaves shop roles open; DESIGN §4 and docs/decisions.md "Shops" decide them. */
export function shopAccess(
  membership: { role: 'gm' | 'manager' | 'player' | 'observer' } | undefined,
  hasCharacterInParty: boolean,
): ShopAccess {
  if (!membership) return { canRead: false, canManage: false, canTrade: false };
  return {
    canRead: true,
    canManage: membership.role === 'gm' || membership.role === 'manager',
    canTrade: membership.role !== 'observer' && hasCharacterInParty,
  };
}

export function assertCanManage(access: ShopAccess): void {
  if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
  if (!access.canManage) throw new AppError('FORBIDDEN', shopMessages.cannotManage);
}

export function assertCanTrade(access: ShopAccess): void {
  if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
  if (!access.canTrade) throw new AppError('FORBIDDEN', shopMessages.cannotTrade);
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
