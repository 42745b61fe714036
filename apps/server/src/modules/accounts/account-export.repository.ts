import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { characters } from '../../db/schema/characters.js';
import { discordAccounts } from '../../db/schema/discord.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { lootInstances, lootTemplates } from '../../db/schema/loot.js';
import { lootTemplateItems } from '../../db/schema/loot-items.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { shopTemplateItems } from '../../db/schema/shop-items.js';
import { shopRequests } from '../../db/schema/shop-requests.js';
import { shopInstances, shopTemplates } from '../../db/schema/shops.js';
import { ledgerNewestFirst } from '../ledger/ledger.repository.js';
import { lootRowVisibleTo } from '../ledger/ledger-visibility.js';

/**
 * The ledger rows that are the person's: those they made, and those their characters' histories list
 * (about the character, or bringing something to it), hidden loot's rows kept from a non-GM as there.
 */
function ledgerRowsOf(userId: string) {
  const theirCharacters = sql`(select ${characters.id} from ${characters} where ${characters.userId} = ${userId})`;
  return or(
    eq(transactions.actorId, userId),
    and(
      or(
        sql`${transactions.characterId} in ${theirCharacters}`,
        sql`${transactions.targetId} in ${theirCharacters}`,
      ),
      lootRowVisibleTo(userId),
    ),
  );
}

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

  /**
   * In one query, the containers the export lists, each with its number of stacks: the person's characters', those of the parties they
   * run, and the shelves of those parties' shops and the contents of their loot.
   */
  async containersOf(
    db: Executor,
    owners: { characterIds: string[]; partyIds: string[]; shopIds: string[]; lootIds: string[] },
  ) {
    const held = [
      owners.characterIds.length > 0 ? inArray(containers.characterId, owners.characterIds) : undefined,
      owners.partyIds.length > 0 ? inArray(containers.partyId, owners.partyIds) : undefined,
      // A shop's shelf is its primary container; the others hold goods for pending purchase requests.
      owners.shopIds.length > 0
        ? and(inArray(containers.shopInstanceId, owners.shopIds), eq(containers.isPrimary, true))
        : undefined,
      owners.lootIds.length > 0 ? inArray(containers.lootInstanceId, owners.lootIds) : undefined,
    ].filter((condition) => condition !== undefined);
    if (held.length === 0) return [];
    return db
      .select({
        ...getTableColumns(containers),
        // How many stacks each holds, so that they are read in pages of whole containers.
        // Spelt out: drizzle writes a one-table query's columns without their table, ambiguous in here.
        stacks:
          sql<number>`(select count(*) from item_instances where item_instances.container_id = containers.id)`.mapWith(
            Number,
          ),
      })
      .from(containers)
      .where(or(...held))
      .orderBy(asc(containers.createdAt), asc(containers.id));
  },

  async itemsIn(db: Executor, containerIds: string[]) {
    if (containerIds.length === 0) return [];
    return db
      .select({
        item: itemInstances,
        template: {
          name: itemTemplates.name,
          weight: itemTemplates.weight,
          baseValue: itemTemplates.baseValue,
          currency: itemTemplates.currency,
          stackSize: itemTemplates.stackSize,
        },
      })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(inArray(itemInstances.containerId, containerIds))
      .orderBy(asc(itemInstances.createdAt), asc(itemInstances.id));
  },

  /** The person's memberships, each with its party's row (its own data is exported for a GM only). */
  async memberships(db: Executor, userId: string) {
    return db
      .select({ party: parties, role: partyMemberships.role, joinedAt: partyMemberships.createdAt })
      .from(partyMemberships)
      .innerJoin(parties, eq(parties.id, partyMemberships.partyId))
      .where(eq(partyMemberships.userId, userId))
      .orderBy(asc(partyMemberships.createdAt));
  },

  /** The shops deployed in the parties the person runs, and their loot (not deleted): one query each. */
  async partyHoldings(db: Executor, userId: string) {
    // The parties the person runs: one of their GMs, the owner or a co-GM.
    const run = db
      .select({ partyId: partyMemberships.partyId })
      .from(partyMemberships)
      .where(and(eq(partyMemberships.userId, userId), eq(partyMemberships.role, 'gm')));
    const [shops, loot] = await Promise.all([
      db
        .select()
        .from(shopInstances)
        .where(inArray(shopInstances.partyId, run))
        .orderBy(asc(shopInstances.createdAt), asc(shopInstances.id)),
      db
        .select()
        .from(lootInstances)
        .where(and(inArray(lootInstances.partyId, run), isNull(lootInstances.deletedAt)))
        .orderBy(asc(lootInstances.createdAt), asc(lootInstances.id)),
    ]);
    return { shops, loot };
  },

  /** The templates the person wrote, each kind with its contents: one query per list. */
  async templates(db: Executor, userId: string) {
    const [items, shops, shopItems, loot, lootItems] = await Promise.all([
      db
        .select()
        .from(itemTemplates)
        .where(and(eq(itemTemplates.creatorId, userId), isNull(itemTemplates.deletedAt)))
        .orderBy(asc(itemTemplates.createdAt), asc(itemTemplates.id)),
      db
        .select()
        .from(shopTemplates)
        .where(eq(shopTemplates.creatorId, userId))
        .orderBy(asc(shopTemplates.createdAt), asc(shopTemplates.id)),
      db
        .select({ line: shopTemplateItems, itemName: itemTemplates.name })
        .from(shopTemplateItems)
        .innerJoin(shopTemplates, eq(shopTemplates.id, shopTemplateItems.shopTemplateId))
        .innerJoin(itemTemplates, eq(itemTemplates.id, shopTemplateItems.itemTemplateId))
        .where(eq(shopTemplates.creatorId, userId))
        .orderBy(asc(shopTemplateItems.createdAt), asc(shopTemplateItems.id)),
      db
        .select()
        .from(lootTemplates)
        .where(eq(lootTemplates.creatorId, userId))
        .orderBy(asc(lootTemplates.createdAt), asc(lootTemplates.id)),
      db
        .select({ line: lootTemplateItems, itemName: itemTemplates.name })
        .from(lootTemplateItems)
        .innerJoin(lootTemplates, eq(lootTemplates.id, lootTemplateItems.lootTemplateId))
        .innerJoin(itemTemplates, eq(itemTemplates.id, lootTemplateItems.itemTemplateId))
        .where(eq(lootTemplates.creatorId, userId))
        .orderBy(asc(lootTemplateItems.createdAt), asc(lootTemplateItems.id)),
    ]);
    return { items, shops, shopItems, loot, lootItems };
  },

  /** The purchases the person asked a GM to approve, whatever became of them, the newest first. */
  async purchaseRequests(db: Executor, userId: string) {
    return db
      .select({ request: shopRequests, shopName: shopInstances.name })
      .from(shopRequests)
      .innerJoin(shopInstances, eq(shopInstances.id, shopRequests.shopInstanceId))
      .where(eq(shopRequests.requesterId, userId))
      .orderBy(desc(shopRequests.createdAt), desc(shopRequests.id));
  },

  /**
   * A page of the person's ledger rows (`ledgerRowsOf`), newest first, after `cursor`: a keyset page, whose
   * cursor keeps the timestamp as PostgreSQL's text (a JS Date would drop its microseconds, see the ledger's
   * CSV export).
   */
  async ledgerPage(
    db: Executor,
    userId: string,
    limit: number,
    cursor: { date: string; writeOrder: number } | undefined,
  ) {
    return db
      .select({ row: transactions, date: sql<string>`${transactions.transactionDate}::text` })
      .from(transactions)
      .where(
        and(
          ledgerRowsOf(userId),
          cursor
            ? sql`(${transactions.transactionDate}, ${transactions.writeOrder}) < (${cursor.date}::timestamptz, ${cursor.writeOrder})`
            : undefined,
        ),
      )
      .orderBy(...ledgerNewestFirst)
      .limit(limit);
  },

  async ledgerCount(db: Executor, userId: string): Promise<number> {
    const [total] = await db.select({ total: count() }).from(transactions).where(ledgerRowsOf(userId));
    return Number(total?.total ?? 0);
  },
};
