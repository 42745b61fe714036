import { copperPer, saturate } from '@haversack/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { copyNameAmong } from '../../db/copy-names.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { lootInstances, lootTemplates } from '../../db/schema/loot.js';
import { lootTemplateItems } from '../../db/schema/loot-items.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { compareNames, foldedRegex } from '../../lib/search-fold.js';
import { hiddenFrom, readableBy, templateColumns } from '../items/items.repository.js';
import { partyAccessColumns } from '../parties/parties.repository.js';

export type LootTemplateRow = typeof lootTemplates.$inferSelect;
export type LootTemplateInsert = typeof lootTemplates.$inferInsert;
export type LootItemRow = typeof lootTemplateItems.$inferSelect;
export type LootInstanceRow = typeof lootInstances.$inferSelect;

export interface LootTemplateView {
  template: LootTemplateRow;
  creatorName: string | null;
  itemsCount: number;
  /** The units of items that are not coins, among the lines the reader is shown. */
  itemUnits: number;
  /** The coins among those lines, by the piece. */
  coinUnits: number;
  totalValueCp: number;
}

const copperOf = (currency: SQL | typeof itemTemplates.currency) =>
  sql`case ${currency} when 'pp' then 1000 when 'gp' then 100 when 'ep' then 50 when 'sp' then 10 else 1 end`;

const itemsCount = sql<number>`(select count(*) from ${lootTemplateItems} i where i.loot_template_id = ${lootTemplates.id})::int`;
/**
 * What the whole template is worth to `readerId`, in copper (DESIGN §4: money in copper, never floats): the
 * sum of the lines they are shown a worth for. A line whose item is private to someone else is left out,
 * or the total would tell its worth by subtraction (and a value sort would rank by it).
 */
const totalValueCp = (readerId: string) =>
  sql<string>`(select coalesce(sum(${lootTemplateItems.quantity} * ${itemTemplates.baseValue} * ${copperOf(itemTemplates.currency)}), 0)
    from ${lootTemplateItems} join ${itemTemplates} on ${itemTemplates.id} = ${lootTemplateItems.itemTemplateId}
    where ${lootTemplateItems.lootTemplateId} = ${lootTemplates.id} and not ${hiddenFrom(readerId)})`;

/**
 * How many items the template deploys as its loot's card counts them: the quantities of the lines that are
 * not coins (coins show as worth), among those `readerId` is shown (the others do not deploy for them).
 */
const itemUnits = (readerId: string) =>
  sql<string>`(select coalesce(sum(${lootTemplateItems.quantity}), 0)
    from ${lootTemplateItems} join ${itemTemplates} on ${itemTemplates.id} = ${lootTemplateItems.itemTemplateId}
    where ${lootTemplateItems.lootTemplateId} = ${lootTemplates.id} and not ${hiddenFrom(readerId)}
      and coalesce(${itemTemplates.systemKey}, '') not like 'coin:%')`;

/** The coins the template deploys, by the piece, as its loot's card counts them beside the items. */
const coinUnits = (readerId: string) =>
  sql<string>`(select coalesce(sum(${lootTemplateItems.quantity}), 0)
    from ${lootTemplateItems} join ${itemTemplates} on ${itemTemplates.id} = ${lootTemplateItems.itemTemplateId}
    where ${lootTemplateItems.lootTemplateId} = ${lootTemplates.id} and not ${hiddenFrom(readerId)}
      and ${itemTemplates.systemKey} like 'coin:%')`;

function templateView(db: Executor, readerId: string) {
  return db
    .select({
      template: lootTemplates,
      creatorName: users.username,
      itemsCount,
      itemUnits: itemUnits(readerId),
      coinUnits: coinUnits(readerId),
      totalValueCp: totalValueCp(readerId),
    })
    .from(lootTemplates)
    .leftJoin(users, eq(users.id, lootTemplates.creatorId));
}

function toView(row: {
  template: LootTemplateRow;
  creatorName: string | null;
  itemsCount: number;
  itemUnits: string | number;
  coinUnits: string | number;
  totalValueCp: string | number;
}): LootTemplateView {
  return {
    template: row.template,
    creatorName: row.creatorName,
    itemsCount: Number(row.itemsCount),
    itemUnits: saturate(row.itemUnits),
    coinUnits: saturate(row.coinUnits),
    // Two lines of the dearest item in full stacks are already past the safe range (MAX_REPORTED_SUM).
    totalValueCp: saturate(row.totalValueCp),
  };
}

export interface TemplateListFilter {
  userId: string;
  visibility?: 'private' | 'unlisted' | 'public';
  mine?: boolean;
  creatorId?: string;
  search?: string;
  sourceType?: string;
  tags?: string[];
  sort: 'name' | 'created_at' | 'updated_at' | 'value';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** Rows that are loot of a party: the stock of a loot instance. */
const isLootContainer = isNotNull(containers.lootInstanceId);

export const lootRepository = {
  // ---- templates --------------------------------------------------------------------------------------

  /** The name a copy of `name` gets among the creator's loot templates ("(Copy)", "(Copy 2)"…). */
  copyName(tx: Executor, creatorId: string, name: string, maxLength: number): Promise<string> {
    const t = lootTemplates;
    return copyNameAmong(tx, { table: t, name: t.name, creatorId: t.creatorId }, creatorId, name, maxLength);
  },

  /** The template with its worth as `readerId` sees it (`totalValueCp`). */
  async templateView(db: Executor, id: string, readerId: string): Promise<LootTemplateView | undefined> {
    const [row] = await templateView(db, readerId).where(eq(lootTemplates.id, id)).limit(1);
    return row ? toView(row) : undefined;
  },

  /**
   * Keeps the template from being deleted until the transaction ends (FOR KEY SHARE, the lock a foreign key
   * check takes; deployments of one template do not wait for each other): a deletion that committed first
   * leaves no row to read, and one that comes later waits, so a loot written after this never points at a
   * deleted template.
   */
  async holdTemplate(db: Executor, id: string): Promise<void> {
    await db
      .select({ id: lootTemplates.id })
      .from(lootTemplates)
      .where(eq(lootTemplates.id, id))
      .for('key share');
  },

  async lockTemplate(db: Executor, id: string): Promise<LootTemplateRow | undefined> {
    const [row] = await db.select().from(lootTemplates).where(eq(lootTemplates.id, id)).for('update');
    return row;
  },

  async listTemplates(db: Executor, f: TemplateListFilter) {
    const conditions: (SQL | undefined)[] = [];
    // What a user may list: their own templates and public ones; unlisted templates of others only by id.
    const mine = eq(lootTemplates.creatorId, f.userId);
    if (f.mine) conditions.push(mine);
    if (f.visibility === 'public') conditions.push(eq(lootTemplates.visibility, 'public'));
    else if (f.visibility) conditions.push(and(mine, eq(lootTemplates.visibility, f.visibility)));
    else conditions.push(or(mine, eq(lootTemplates.visibility, 'public')));
    if (f.creatorId) conditions.push(eq(lootTemplates.creatorId, f.creatorId));
    if (f.search) {
      const pattern = foldedRegex(f.search);
      conditions.push(
        sql`(${lootTemplates.name} ~ ${pattern} or ${lootTemplates.description} ~ ${pattern} or ${lootTemplates.source} ~ ${pattern} or exists (select 1 from unnest(${lootTemplates.tags}) t where t ~ ${pattern}))`,
      );
    }
    if (f.sourceType) conditions.push(sql`${lootTemplates.sourceType} = ${f.sourceType}`);
    for (const tag of f.tags ?? []) conditions.push(sql`${tag} = any(${lootTemplates.tags})`);
    const where = and(...conditions);
    const dir = f.direction === 'desc' ? desc : asc;
    const order: SQL = {
      name: dir(sql`lower(${lootTemplates.name})`),
      created_at: dir(lootTemplates.createdAt),
      updated_at: dir(lootTemplates.updatedAt),
      value: dir(totalValueCp(f.userId)),
    }[f.sort];
    const [total] = await db.select({ n: count() }).from(lootTemplates).where(where);
    const rows = await templateView(db, f.userId)
      .where(where)
      .orderBy(order, asc(lootTemplates.id))
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage);
    return { rows: rows.map(toView), total: total?.n ?? 0 };
  },

  async insertTemplate(db: Executor, values: LootTemplateInsert): Promise<LootTemplateRow> {
    const [row] = await db.insert(lootTemplates).values(values).returning();
    if (!row) throw new Error('insert loot_templates returned nothing');
    return row;
  },

  async updateTemplate(db: Executor, id: string, changes: Partial<LootTemplateInsert>) {
    await db
      .update(lootTemplates)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(lootTemplates.id, id));
  },

  async deleteTemplate(db: Executor, id: string) {
    await db.delete(lootTemplates).where(eq(lootTemplates.id, id));
  },

  async countTemplatesOf(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(lootTemplates)
      .where(eq(lootTemplates.creatorId, userId));
    return row?.n ?? 0;
  },

  /** System loot by key, to upsert the seed. */
  async systemTemplateIds(db: Executor): Promise<Map<string, string>> {
    const rows = await db
      .select({ id: lootTemplates.id, key: lootTemplates.systemKey })
      .from(lootTemplates)
      .where(isNotNull(lootTemplates.systemKey));
    return new Map(rows.flatMap((r) => (r.key ? [[r.key, r.id] as const] : [])));
  },

  async itemTemplatesBySystemKey(db: Executor, keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await db
      .select({ id: itemTemplates.id, key: itemTemplates.systemKey })
      .from(itemTemplates)
      .where(inArray(itemTemplates.systemKey, keys));
    return new Map(rows.flatMap((r) => (r.key ? [[r.key, r.id] as const] : [])));
  },

  // ---- loot items -------------------------------------------------------------------------------------

  /**
   * The lines of these templates by item name, as `readerId` reads them: lines whose item is private to
   * someone else come last, since where the name sorted them would hint at it.
   */
  async lootItems(db: Executor, templateIds: string[], readerId: string) {
    if (templateIds.length === 0) return [];
    return db
      .select({
        item: lootTemplateItems,
        template: templateColumns,
        creatorName: users.username,
        hidden: sql<boolean>`${hiddenFrom(readerId)}`,
      })
      .from(lootTemplateItems)
      .innerJoin(itemTemplates, eq(itemTemplates.id, lootTemplateItems.itemTemplateId))
      .leftJoin(users, eq(users.id, itemTemplates.creatorId))
      .where(inArray(lootTemplateItems.lootTemplateId, templateIds))
      .then((rows) =>
        // By name as people read it (lib/search-fold), a bounded list: a template holds at most a few hundred lines.
        rows.sort(
          (a, b) =>
            Number(a.hidden) - Number(b.hidden) ||
            compareNames(a.template.name, b.template.name) ||
            (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0),
        ),
      );
  },

  async lootItem(db: Executor, templateId: string, itemId: string): Promise<LootItemRow | undefined> {
    const [row] = await db
      .select()
      .from(lootTemplateItems)
      .where(and(eq(lootTemplateItems.id, itemId), eq(lootTemplateItems.lootTemplateId, templateId)))
      .limit(1);
    return row;
  },

  async lootItemByItemTemplate(db: Executor, templateId: string, itemTemplateId: string) {
    const [row] = await db
      .select()
      .from(lootTemplateItems)
      .where(
        and(
          eq(lootTemplateItems.lootTemplateId, templateId),
          eq(lootTemplateItems.itemTemplateId, itemTemplateId),
        ),
      )
      .limit(1);
    return row;
  },

  async countLootItems(db: Executor, templateId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(lootTemplateItems)
      .where(eq(lootTemplateItems.lootTemplateId, templateId));
    return row?.n ?? 0;
  },

  async insertLootItem(db: Executor, values: typeof lootTemplateItems.$inferInsert): Promise<LootItemRow> {
    const [row] = await db.insert(lootTemplateItems).values(values).returning();
    if (!row) throw new Error('insert loot_template_items returned nothing');
    return row;
  },

  async updateLootItem(db: Executor, id: string, quantity: number) {
    await db
      .update(lootTemplateItems)
      .set({ quantity, updatedAt: new Date() })
      .where(eq(lootTemplateItems.id, id));
  },

  async deleteLootItem(db: Executor, id: string) {
    await db.delete(lootTemplateItems).where(eq(lootTemplateItems.id, id));
  },

  async replaceSystemLootItems(
    db: Executor,
    templateId: string,
    items: { itemTemplateId: string; quantity: number }[],
  ) {
    await db.delete(lootTemplateItems).where(eq(lootTemplateItems.lootTemplateId, templateId));
    if (items.length === 0) return;
    await db.insert(lootTemplateItems).values(items.map((i) => ({ ...i, lootTemplateId: templateId })));
  },

  /**
   * Copies the lines whose item the copier may read, as adding a line asks: a deleted item, or one private
   * to someone else, would give them a line they can neither see nor deploy.
   */
  async copyLootItems(db: Executor, fromTemplateId: string, toTemplateId: string, copierId: string) {
    await db.execute(sql`
      insert into ${lootTemplateItems} (loot_template_id, item_template_id, quantity)
      select ${toTemplateId}, ${lootTemplateItems.itemTemplateId}, ${lootTemplateItems.quantity}
      from ${lootTemplateItems} join ${itemTemplates} on ${itemTemplates.id} = ${lootTemplateItems.itemTemplateId}
      where ${lootTemplateItems.lootTemplateId} = ${fromTemplateId} and ${readableBy(copierId)}`);
  },

  // ---- instances --------------------------------------------------------------------------------------

  async instance(db: Executor, id: string) {
    const [row] = await db
      .select({ loot: lootInstances, partyName: parties.name, templateName: lootTemplates.name })
      .from(lootInstances)
      .innerJoin(parties, eq(parties.id, lootInstances.partyId))
      .leftJoin(lootTemplates, eq(lootTemplates.id, lootInstances.lootTemplateId))
      .where(and(eq(lootInstances.id, id), isNull(lootInstances.deletedAt)))
      .limit(1);
    return row;
  },

  /** Locks the loot row: every change of its contents or its state takes this lock first. */
  async lockInstance(db: Executor, id: string): Promise<LootInstanceRow | undefined> {
    const [row] = await db
      .select()
      .from(lootInstances)
      .where(and(eq(lootInstances.id, id), isNull(lootInstances.deletedAt)))
      .for('update');
    return row;
  },

  /** Locks every loot of a party in id order, hidden and deleted ones too (its deletion: see party-destruction.ts). */
  async lockInstancesOfParty(db: Executor, partyId: string): Promise<void> {
    await db
      .select({ id: lootInstances.id })
      .from(lootInstances)
      .where(eq(lootInstances.partyId, partyId))
      .orderBy(asc(lootInstances.id))
      .for('update');
  },

  /**
   * `lockInstance` with what a take or an edit of the loot reads next, in one statement (issue 13 §2): its
   * party, the user's role there and whether they play a character in it, and the loot's container.
   */
  /**
   * `noWait`: fail at once (55P03, lock_not_available) instead of waiting while another transaction holds
   * the loot, so that a caller does not hold a pooled connection in the queue behind it.
   */
  async lockInstanceForUser(db: Executor, userId: string, id: string, options: { noWait?: boolean } = {}) {
    const query = db
      .select({
        loot: lootInstances,
        ...partyAccessColumns(lootInstances.partyId, userId),
        container: containers,
      })
      .from(lootInstances)
      .leftJoin(parties, eq(parties.id, lootInstances.partyId))
      .leftJoin(containers, eq(containers.lootInstanceId, lootInstances.id))
      .where(and(eq(lootInstances.id, id), isNull(lootInstances.deletedAt)))
      .limit(1);
    const [row] = options.noWait
      ? await query.for('update', { of: lootInstances, noWait: true })
      : await query.for('update', { of: lootInstances });
    return row;
  },

  /** A party's loot, newest first; `revealedOnly` for everyone but the GM (spec/02 §6). */
  async listInstances(
    db: Executor,
    f: {
      partyId: string;
      revealedOnly: boolean;
      isRevealed?: boolean;
      search?: string;
      page: number;
      perPage: number;
    },
  ) {
    const conditions: (SQL | undefined)[] = [
      eq(lootInstances.partyId, f.partyId),
      isNull(lootInstances.deletedAt),
    ];
    if (f.revealedOnly) conditions.push(eq(lootInstances.isRevealed, true));
    if (f.isRevealed !== undefined) conditions.push(eq(lootInstances.isRevealed, f.isRevealed));
    if (f.search) {
      const pattern = foldedRegex(f.search);
      conditions.push(
        sql`(${lootInstances.name} ~ ${pattern} or ${lootInstances.description} ~ ${pattern} or ${lootInstances.source} ~ ${pattern} or ${lootInstances.instanceData}->>'location_name' ~ ${pattern})`,
      );
    }
    const where = and(...conditions);
    const [total] = await db.select({ n: count() }).from(lootInstances).where(where);
    // One statement for the page, whatever its size: the loot, its party's and its template's names.
    const rows = await db
      .select({ loot: lootInstances, partyName: parties.name, templateName: lootTemplates.name })
      .from(lootInstances)
      .innerJoin(parties, eq(parties.id, lootInstances.partyId))
      .leftJoin(lootTemplates, eq(lootTemplates.id, lootInstances.lootTemplateId))
      .where(where)
      .orderBy(desc(lootInstances.createdAt), desc(lootInstances.id))
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage);
    return { rows, total: total?.n ?? 0 };
  },

  async insertInstance(db: Executor, values: typeof lootInstances.$inferInsert): Promise<LootInstanceRow> {
    const [row] = await db.insert(lootInstances).values(values).returning();
    if (!row) throw new Error('insert loot_instances returned nothing');
    return row;
  },

  async updateInstance(db: Executor, id: string, changes: Partial<typeof lootInstances.$inferInsert>) {
    await db
      .update(lootInstances)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(lootInstances.id, id));
  },

  /** Kept as a tombstone: the ledger's visibility rule still reads whether it was hidden (schema/loot.ts). */
  async markDeleted(db: Executor, id: string, at: Date) {
    await db.update(lootInstances).set({ deletedAt: at, updatedAt: at }).where(eq(lootInstances.id, id));
  },

  /** Live loot the user deployed (the `loot_instances` limit). */
  async countInstancesOf(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(lootInstances)
      .where(and(eq(lootInstances.createdBy, userId), isNull(lootInstances.deletedAt)));
    return row?.n ?? 0;
  },

  /** Deployments this month, from the ledger, so deleting loot does not give a deployment back. */
  async countDeployments(db: Executor, userId: string, month: { start: Date; end: Date }): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(transactions)
      .where(
        and(
          eq(transactions.actorId, userId),
          eq(transactions.transactionType, 'container_creation'),
          sql`${transactions.details}->>'reason' = 'loot_deployment'`,
          gte(transactions.transactionDate, month.start),
          lt(transactions.transactionDate, month.end),
        ),
      );
    return row?.n ?? 0;
  },

  // ---- contents ---------------------------------------------------------------------------------------

  async containerOf(db: Executor, lootInstanceId: string) {
    const [row] = await db
      .select()
      .from(containers)
      .where(eq(containers.lootInstanceId, lootInstanceId))
      .limit(1);
    return row;
  },

  /** The container of each of these loots, by loot id (`containerOf` for many). */
  async containersOf(db: Executor, lootInstanceIds: string[]) {
    if (lootInstanceIds.length === 0) return new Map<string, typeof containers.$inferSelect>();
    const rows = await db
      .select()
      .from(containers)
      .where(inArray(containers.lootInstanceId, lootInstanceIds))
      .orderBy(asc(containers.id));
    const byLoot = new Map<string, typeof containers.$inferSelect>();
    for (const row of rows)
      if (row.lootInstanceId && !byLoot.has(row.lootInstanceId)) byLoot.set(row.lootInstanceId, row);
    return byLoot;
  },

  /** The stacks of each of these containers with their templates, by container id. */
  async stacksOf(db: Executor, containerIds: string[]) {
    const byContainer = new Map<
      string,
      { instance: typeof itemInstances.$inferSelect; template: typeof itemTemplates.$inferSelect }[]
    >();
    if (containerIds.length === 0) return byContainer;
    const rows = await db
      .select({ instance: itemInstances, template: itemTemplates })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(inArray(itemInstances.containerId, containerIds));
    for (const row of rows) {
      const list = byContainer.get(row.instance.containerId) ?? [];
      list.push(row);
      byContainer.set(row.instance.containerId, list);
    }
    return byContainer;
  },

  /** The stacks with their templates, in a fixed order (so a seeded random draw repeats exactly). */
  async stacks(db: Executor, containerId: string) {
    return db
      .select({ instance: itemInstances, template: itemTemplates })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(eq(itemInstances.containerId, containerId))
      .orderBy(asc(itemTemplates.name), asc(itemInstances.createdAt), asc(itemInstances.id));
  },

  /** Loot containers of a party, so deleting the party destroys their contents through the ledger first. */
  async lootContainerIdsOfParty(db: Executor, partyId: string): Promise<string[]> {
    const rows = await db
      .select({ id: containers.id })
      .from(containers)
      .innerJoin(lootInstances, eq(lootInstances.id, containers.lootInstanceId))
      .where(and(eq(lootInstances.partyId, partyId), isLootContainer));
    return rows.map((r) => r.id);
  },

  /** The characters that took, claimed or were dealt something from each loot, from the ledger. */
  async claimedBy(db: Executor, lootIds: string[]): Promise<Map<string, { id: string; name: string }[]>> {
    if (lootIds.length === 0) return new Map();
    const rows = await db
      .selectDistinct({
        lootId: transactions.lootInstanceId,
        characterId: transactions.characterId,
        name: transactions.targetName,
      })
      .from(transactions)
      .where(
        and(
          inArray(transactions.lootInstanceId, lootIds),
          inArray(transactions.transactionType, ['loot', 'loot_distribution']),
          isNotNull(transactions.characterId),
        ),
      );
    const byLoot = new Map<string, { id: string; name: string }[]>();
    for (const r of rows) {
      if (!r.lootId || !r.characterId) continue;
      const list = byLoot.get(r.lootId) ?? [];
      if (!list.some((c) => c.id === r.characterId)) list.push({ id: r.characterId, name: r.name ?? '' });
      byLoot.set(r.lootId, list);
    }
    for (const list of byLoot.values()) list.sort((a, b) => compareNames(a.name, b.name));
    return byLoot;
  },

  /** The members of the party with a character in it: those told when its loot is revealed. */
  async membersWithCharacters(db: Executor, partyId: string): Promise<string[]> {
    const rows = await db
      .selectDistinct({ userId: characters.userId })
      .from(characters)
      .innerJoin(
        partyMemberships,
        and(eq(partyMemberships.partyId, characters.partyId), eq(partyMemberships.userId, characters.userId)),
      )
      .where(eq(characters.partyId, partyId));
    return rows.map((row) => row.userId);
  },

  /** The characters a distribution names, with their main container (null if they have none). */
  async recipients(db: Executor, characterIds: string[]) {
    if (characterIds.length === 0) return [];
    return db
      .select({
        id: characters.id,
        name: characters.name,
        partyId: characters.partyId,
        containerId: containers.id,
      })
      .from(characters)
      .leftJoin(containers, and(eq(containers.characterId, characters.id), eq(containers.isPrimary, true)))
      .where(inArray(characters.id, characterIds));
  },

  /**
   * Whether anyone has had anything from the loot: a take, a claim or a distribution, as the ledger says
   * (the rows `claimed_by` lists).
   */
  async anythingTaken(db: Executor, lootId: string): Promise<boolean> {
    return hasLootRow(db, lootId, isNotNull(transactions.characterId));
  },
  /** Whether this stack of the loot was already taken or dealt (so a late claim hears why it is gone). */
  async stackWasTaken(db: Executor, lootId: string, stackId: string): Promise<boolean> {
    // A take of a line names every stack it took from (source_item_instance_ids).
    return hasLootRow(
      db,
      lootId,
      sql`(${transactions.details}->>'source_item_instance_id' = ${stackId} or ${transactions.details}->'source_item_instance_ids' @> ${JSON.stringify([stackId])}::jsonb)`,
    );
  },
  /**
   * Issue 11 §8 "Loot received": per character of the party, the value of what the ledger says they
   * received from loot (`loot` and `loot_distribution` rows; a share that overflowed to the stash counts
   * for the character it was dealt to) and from split sales (`sale` payment rows marked `split_share`).
   * Rows about hidden loot never count, as in the party's ledger. Coins count at their value; items_count
   * counts the items that are not coins.
   */
  async receivedSummary(db: Executor, partyId: string) {
    const party = await db
      .select({ id: characters.id, name: characters.name })
      .from(characters)
      .where(eq(characters.partyId, partyId))
      .orderBy(asc(characters.name), asc(characters.id));
    if (party.length === 0) return [];
    const recipient = sql<string>`coalesce(${transactions.characterId}::text, ${transactions.details}->>'for_character_id')`;
    const whens = Object.entries(copperPer)
      .map(([currency, cp]) => `when '${currency}' then ${cp}`)
      .join(' ');
    const perUnitCp = sql`case ${itemTemplates.currency} ${sql.raw(whens)} else 0 end`;
    const isLoot = inArray(transactions.transactionType, ['loot', 'loot_distribution']);
    const isCoin = sql`coalesce(${itemTemplates.systemKey}, '') like 'coin:%'`;
    const rows = await db
      .select({
        characterId: recipient,
        valueCp: sql<string>`coalesce(sum(case when ${isLoot} then coalesce((${transactions.details}->>'value_cp')::bigint, ${transactions.quantity} * ${itemTemplates.baseValue} * ${perUnitCp}) else ${transactions.amountCp} end), 0)`,
        items: sql<string>`coalesce(sum(case when ${isLoot} and not ${isCoin} then ${transactions.quantity} else 0 end), 0)`,
      })
      .from(transactions)
      .leftJoin(itemTemplates, eq(itemTemplates.id, transactions.itemTemplateId))
      .where(
        and(
          eq(transactions.partyId, partyId),
          or(
            and(
              isLoot,
              sql`not ${transactions.gmOnly}`,
              sql`not exists (select 1 from ${lootInstances} li where li.id = ${transactions.lootInstanceId} and not li.is_revealed)`,
            ),
            and(
              eq(transactions.transactionType, 'sale'),
              sql`${transactions.details}->>'split_share' = 'true'`,
            ),
          ),
        ),
      )
      .groupBy(recipient);
    const byCharacter = new Map(rows.map((r) => [r.characterId, r]));
    return party.map((c) => {
      const row = byCharacter.get(c.id);
      return {
        id: c.id,
        name: c.name,
        valueCp: saturate(row?.valueCp ?? 0),
        items: saturate(row?.items ?? 0),
      };
    });
  },
};

/** Whether the ledger holds a take, claim or distribution row of this loot that also meets `condition`. */
async function hasLootRow(db: Executor, lootId: string, condition: SQL): Promise<boolean> {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.lootInstanceId, lootId),
        inArray(transactions.transactionType, ['loot', 'loot_distribution']),
        condition,
      ),
    )
    .limit(1);
  return Boolean(row);
}
