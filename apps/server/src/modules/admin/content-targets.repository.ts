import type { ReportTargetType } from '@haversack/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { itemTemplates } from '../../db/schema/items.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { parties } from '../../db/schema/parties.js';
import { shopTemplates } from '../../db/schema/shops.js';

/** What moderation needs to know about a piece of user content. */
export interface ContentTarget {
  type: ReportTargetType;
  id: string;
  name: string;
  description: string;
  ownerId: string | null;
  ownerEmail: string | null;
  /** Templates: their visibility; parties: 'public' or 'private' from the public flag. */
  visibility: string;
  isPublic: boolean;
  /** Haversack's own catalogue (coins, SRD items, the system shops and loot): never moderated away. */
  isSystem: boolean;
}

const templateTables = {
  item_template: itemTemplates,
  shop_template: shopTemplates,
  loot_template: lootTemplates,
} as const;

/**
 * The public item, shop and loot templates and public parties staff moderate: looked up, and made
 * private (the owner keeps it; only the public stops seeing it).
 */
export const contentTargetsRepository = {
  async find(db: Executor, type: ReportTargetType, id: string): Promise<ContentTarget | undefined> {
    if (type === 'party') {
      const [row] = await db
        .select({
          name: parties.name,
          description: parties.description,
          ownerId: parties.gameMasterId,
          ownerEmail: users.email,
          isPublic: parties.isPublic,
        })
        .from(parties)
        .leftJoin(users, eq(users.id, parties.gameMasterId))
        .where(eq(parties.id, id))
        .limit(1);
      return row && { type, id, ...row, visibility: row.isPublic ? 'public' : 'private', isSystem: false };
    }
    const table = templateTables[type];
    const deleted = type === 'item_template' ? isNull(itemTemplates.deletedAt) : undefined;
    const [row] = await db
      .select({
        name: table.name,
        description: table.description,
        ownerId: table.creatorId,
        ownerEmail: users.email,
        visibility: table.visibility,
        systemKey: table.systemKey,
      })
      .from(table)
      .leftJoin(users, eq(users.id, table.creatorId))
      .where(and(eq(table.id, id), deleted))
      .limit(1);
    if (!row) return undefined;
    const { systemKey, ...rest } = row;
    return { type, id, ...rest, isPublic: row.visibility === 'public', isSystem: systemKey !== null };
  },

  /**
   * Locks the content's row, as `makePrivate` will write it (no key update: the rows naming it, a party's
   * shops say, are not held up). An unpublish takes this lock before any report's, so that two of them on
   * the same content wait in turn rather than each holding a report the other is closing.
   */
  async lockForUpdate(tx: Executor, type: ReportTargetType, id: string): Promise<void> {
    if (type === 'party') {
      await tx.select({ id: parties.id }).from(parties).where(eq(parties.id, id)).for('no key update');
      return;
    }
    const table = templateTables[type];
    await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for('no key update');
  },

  /** Takes it out of public view; answers what it was, or undefined when it is gone. */
  async makePrivate(tx: Executor, type: ReportTargetType, id: string): Promise<ContentTarget | undefined> {
    const before = await contentTargetsRepository.find(tx, type, id);
    if (!before) return undefined;
    const now = new Date();
    if (type === 'party') {
      await tx.update(parties).set({ isPublic: false, updatedAt: now }).where(eq(parties.id, id));
    } else {
      const table = templateTables[type];
      await tx.update(table).set({ visibility: 'private', updatedAt: now }).where(eq(table.id, id));
    }
    return before;
  },
};
