import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { shopTemplates } from '../../db/schema/shops.js';
import { userWritten } from '../../db/user-writes.js';

/** The queries of deleting an account (admin-users.service.ts deleteAccount). */
export const adminUserDeletionRepository = {
  /** The parties the user belongs to without running them: they lose a member (and its characters). */
  async partiesJoinedBy(db: Executor, userId: string) {
    return db
      .select({ id: parties.id, name: parties.name })
      .from(partyMemberships)
      .innerJoin(parties, eq(parties.id, partyMemberships.partyId))
      .where(and(eq(partyMemberships.userId, userId), ne(parties.gameMasterId, userId)));
  },

  /** The parties the user runs, unlocked: what their deletion would destroy is locked before them. */
  async partyIdsRunBy(db: Executor, userId: string): Promise<string[]> {
    const rows = await db.select({ id: parties.id }).from(parties).where(eq(parties.gameMasterId, userId));
    return rows.map((row) => row.id);
  },

  /** The containers of the user's characters, unlocked (the caller locks them in id order). */
  async characterContainerIds(db: Executor, userId: string): Promise<string[]> {
    const rows = await db
      .select({ id: containers.id })
      .from(containers)
      .innerJoin(characters, eq(characters.id, containers.characterId))
      .where(eq(characters.userId, userId));
    return rows.map((row) => row.id);
  },

  async partiesRunBy(db: Executor, userId: string) {
    return db
      .select()
      .from(parties)
      .where(eq(parties.gameMasterId, userId))
      .orderBy(asc(parties.createdAt))
      .for('update');
  },

  /**
   * Who may take a party over from its departing GM, in the order they are asked: its managers before its
   * players before its observers, the longest-standing first. None when the GM was alone.
   */
  async successors(db: Executor, partyId: string, departingUserId: string) {
    return db
      .select({ membershipId: partyMemberships.id, userId: partyMemberships.userId })
      .from(partyMemberships)
      .where(and(eq(partyMemberships.partyId, partyId), ne(partyMemberships.userId, departingUserId)))
      .orderBy(
        sql`case ${partyMemberships.role} when 'gm' then 0 when 'manager' then 1 when 'player' then 2 else 3 end`,
        asc(partyMemberships.createdAt),
        asc(partyMemberships.id),
      )
      .for('update');
  },

  async charactersOf(db: Executor, userId: string) {
    return db
      .select()
      .from(characters)
      .where(eq(characters.userId, userId))
      .orderBy(asc(characters.createdAt))
      .for('update');
  },

  /**
   * Shop and loot templates others can find outlive their author, ownerless (the foreign key would
   * otherwise delete them with the user); private ones go with the account.
   */
  async keepSharedTemplates(db: Executor, userId: string): Promise<number> {
    const shared = inArray(shopTemplates.visibility, ['public', 'unlisted']);
    const shops = await db
      .update(shopTemplates)
      .set({ creatorId: null })
      .where(and(eq(shopTemplates.creatorId, userId), shared))
      .returning({ id: shopTemplates.id });
    const loot = await db
      .update(lootTemplates)
      .set({ creatorId: null })
      .where(
        and(eq(lootTemplates.creatorId, userId), inArray(lootTemplates.visibility, ['public', 'unlisted'])),
      )
      .returning({ id: lootTemplates.id });
    // An item template's creator is set null by the foreign key; a private one that others still hold
    // (the party's stash, a shop, another character) would then be nobody's to read: it turns unlisted,
    // readable by those who hold it and listed nowhere. Run after the user's own characters are gone.
    const items = await db
      .update(itemTemplates)
      .set({ visibility: 'unlisted' })
      .where(
        and(
          eq(itemTemplates.creatorId, userId),
          eq(itemTemplates.visibility, 'private'),
          sql`exists (select 1 from ${itemInstances} where ${itemInstances.itemTemplateId} = ${itemTemplates.id})`,
        ),
      )
      .returning({ id: itemTemplates.id });
    return shops.length + loot.length + items.length;
  },

  async deleteUser(db: Executor, userId: string) {
    await db.delete(users).where(eq(users.id, userId));
    userWritten(userId);
  },
};
