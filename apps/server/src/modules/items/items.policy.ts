import { itemTemplateMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ItemTemplateRecord } from './items.repository.js';

// spec/02 §6 Item template visibility: private templates are their creator's alone; unlisted ones are
// readable by anyone signed in who has the link, and public ones are also listed and searchable.

export function canRead(
  template: Pick<ItemTemplateRecord, 'deletedAt' | 'creatorId' | 'visibility'> | undefined,
  userId: string,
): boolean {
  return Boolean(template && !template.deletedAt && !isHiddenFrom(template, userId));
}

/**
 * Private to someone else: none of its fields may reach this user, wherever the template is named (a line
 * of someone's shop or loot template included). A deleted one of their own, or one that was public, is
 * only unavailable: its author needs to know which line to remove.
 */
export function isHiddenFrom(
  template: Pick<ItemTemplateRecord, 'creatorId' | 'visibility'>,
  userId: string,
): boolean {
  return template.visibility === 'private' && template.creatorId !== userId;
}

/** Anyone who may not read it is told it does not exist; a deleted template does not exist. */
export function assertReadable(
  template: ItemTemplateRecord | undefined,
  userId: string,
): asserts template is ItemTemplateRecord {
  if (!template || !canRead(template, userId)) throw AppError.notFound(itemTemplateMessages.notFound);
}

/** Only its creator changes or deletes a template; the seeded catalogue belongs to nobody. */
export function assertOwner(template: ItemTemplateRecord, userId: string): void {
  if (template.systemKey !== null) throw new AppError('FORBIDDEN', itemTemplateMessages.systemTemplate);
  if (template.creatorId !== userId) throw new AppError('FORBIDDEN', itemTemplateMessages.notOwner);
}
