import { itemTemplateMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { ItemTemplateRecord } from './items.repository.js';

// spec/02 §6 Item template visibility: private templates are their creator's alone; unlisted ones are
// readable by anyone signed in who has the link, and public ones are also listed and searchable.

export function canRead(template: ItemTemplateRecord | undefined, userId: string): boolean {
  return Boolean(
    template && !template.deletedAt && (template.creatorId === userId || template.visibility !== 'private'),
  );
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
