import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { characters } from '../../db/schema/characters.js';
import { discordAccounts } from '../../db/schema/discord.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { shopTemplates } from '../../db/schema/shops.js';

const templateColumns = <T extends typeof itemTemplates | typeof shopTemplates | typeof lootTemplates>(
  table: T,
) => ({
  id: table.id,
  name: table.name,
  description: table.description,
  visibility: table.visibility,
  createdAt: table.createdAt,
  updatedAt: table.updatedAt,
});

/** The queries of a person's data export (GET /users/me/export): their rows only, never another's. */
export const accountExportRepository = {
  async discordLinked(db: Executor, userId: string): Promise<boolean> {
    const [row] = await db
      .select({ userId: discordAccounts.userId })
      .from(discordAccounts)
      .where(eq(discordAccounts.userId, userId))
      .limit(1);
    return row !== undefined;
  },

  async characters(db: Executor, userId: string) {
    return db
      .select()
      .from(characters)
      .where(eq(characters.userId, userId))
      .orderBy(asc(characters.createdAt), asc(characters.id));
  },

  async containersOf(db: Executor, characterIds: string[]) {
    if (characterIds.length === 0) return [];
    return db
      .select()
      .from(containers)
      .where(inArray(containers.characterId, characterIds))
      .orderBy(asc(containers.createdAt), asc(containers.id));
  },

  async itemsIn(db: Executor, containerIds: string[]) {
    if (containerIds.length === 0) return [];
    return db
      .select({ item: itemInstances, templateName: itemTemplates.name })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(inArray(itemInstances.containerId, containerIds))
      .orderBy(asc(itemInstances.createdAt), asc(itemInstances.id));
  },

  async memberships(db: Executor, userId: string) {
    return db
      .select({
        id: parties.id,
        name: parties.name,
        role: partyMemberships.role,
        joinedAt: partyMemberships.createdAt,
      })
      .from(partyMemberships)
      .innerJoin(parties, eq(parties.id, partyMemberships.partyId))
      .where(eq(partyMemberships.userId, userId))
      .orderBy(asc(partyMemberships.createdAt));
  },

  async templates(db: Executor, userId: string) {
    const [items, shops, loot] = await Promise.all([
      db
        .select(templateColumns(itemTemplates))
        .from(itemTemplates)
        .where(and(eq(itemTemplates.creatorId, userId), isNull(itemTemplates.deletedAt)))
        .orderBy(asc(itemTemplates.createdAt)),
      db
        .select(templateColumns(shopTemplates))
        .from(shopTemplates)
        .where(eq(shopTemplates.creatorId, userId))
        .orderBy(asc(shopTemplates.createdAt)),
      db
        .select(templateColumns(lootTemplates))
        .from(lootTemplates)
        .where(eq(lootTemplates.creatorId, userId))
        .orderBy(asc(lootTemplates.createdAt)),
    ]);
    return { items, shops, loot };
  },

  /** The newest `limit` rows where the person acted, and how many there are in all. */
  async ledgerRows(db: Executor, userId: string, limit: number) {
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(transactions)
        .where(eq(transactions.actorId, userId))
        .orderBy(desc(transactions.transactionDate), desc(transactions.writeOrder))
        .limit(limit),
      db.select({ total: count() }).from(transactions).where(eq(transactions.actorId, userId)),
    ]);
    return { rows, total: Number(total?.total ?? 0) };
  },
};
