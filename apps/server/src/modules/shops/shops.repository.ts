import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { copyNameAmong } from '../../db/copy-names.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { shopTemplateItems } from '../../db/schema/shop-items.js';
import { shopRequests } from '../../db/schema/shop-requests.js';
import { shopInstances, shopTemplateRatings, shopTemplates } from '../../db/schema/shops.js';
import { escapeLike } from '../../lib/like-pattern.js';
import { compareNames, foldedRegex } from '../../lib/search-fold.js';
import { hiddenFrom, readableBy, templateColumns } from '../items/items.repository.js';
import { ledgerNewestFirst } from '../ledger/ledger.repository.js';
import { partyAccessColumns } from '../parties/parties.repository.js';

export type ShopTemplateRow = typeof shopTemplates.$inferSelect;
export type ShopTemplateInsert = typeof shopTemplates.$inferInsert;
export type ShopItemRow = typeof shopTemplateItems.$inferSelect;
export type ShopInstanceRow = typeof shopInstances.$inferSelect;
export type ShopRequestRow = typeof shopRequests.$inferSelect;

export interface ShopTemplateView {
  template: ShopTemplateRow;
  creatorName: string | null;
  averageRating: number | null;
  ratingsCount: number;
  itemsCount: number;
}

const ratingStats = sql<
  string | null
>`(select avg(r.rating) from ${shopTemplateRatings} r where r.shop_template_id = ${shopTemplates.id})`;
const ratingsCount = sql<number>`(select count(*) from ${shopTemplateRatings} r where r.shop_template_id = ${shopTemplates.id})::int`;
const itemsCount = sql<number>`(select count(*) from ${shopTemplateItems} i where i.shop_template_id = ${shopTemplates.id})::int`;

function templateView(db: Executor) {
  return db
    .select({
      template: shopTemplates,
      creatorName: users.username,
      averageRating: ratingStats,
      ratingsCount,
      itemsCount,
    })
    .from(shopTemplates)
    .leftJoin(users, eq(users.id, shopTemplates.creatorId));
}

function toView(row: {
  template: ShopTemplateRow;
  creatorName: string | null;
  averageRating: string | number | null;
  ratingsCount: number;
  itemsCount: number;
}): ShopTemplateView {
  return {
    template: row.template,
    creatorName: row.creatorName,
    // Two decimals, as a star rating shows; the exact mean stays in the database.
    averageRating: row.averageRating === null ? null : Math.round(Number(row.averageRating) * 100) / 100,
    ratingsCount: Number(row.ratingsCount),
    itemsCount: Number(row.itemsCount),
  };
}

export interface TemplateListFilter {
  userId: string;
  visibility?: 'private' | 'unlisted' | 'public';
  mine?: boolean;
  partyId?: string;
  search?: string;
  shopType?: string;
  location?: string;
  minRating?: number;
  tags?: string[];
  sort: 'name' | 'rating' | 'popularity' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

function hasTag(column: typeof shopTemplates.tags | typeof shopInstances.tags, tag: string): SQL {
  return sql`exists (select 1 from unnest(${column}) t where lower(t) = ${tag.toLowerCase()})`;
}

export const shopsRepository = {
  // ---- templates --------------------------------------------------------------------------------------

  /** The name a copy of `name` gets among the creator's shop templates ("(Copy)", "(Copy 2)"…). */
  copyName(tx: Executor, creatorId: string, name: string, maxLength: number): Promise<string> {
    const t = shopTemplates;
    return copyNameAmong(tx, { table: t, name: t.name, creatorId: t.creatorId }, creatorId, name, maxLength);
  },

  async templateView(db: Executor, id: string): Promise<ShopTemplateView | undefined> {
    const [row] = await templateView(db).where(eq(shopTemplates.id, id)).limit(1);
    return row ? toView(row) : undefined;
  },

  /**
   * Keeps the template from being deleted until the transaction ends (FOR KEY SHARE, the lock a foreign key
   * check takes; deployments and ratings of one template do not wait for each other): a deletion that
   * committed first leaves no row to read, and one that comes later waits, so a shop or a rating written
   * after this never points at a deleted template.
   */
  async holdTemplate(db: Executor, id: string): Promise<void> {
    await db
      .select({ id: shopTemplates.id })
      .from(shopTemplates)
      .where(eq(shopTemplates.id, id))
      .for('key share');
  },

  async lockTemplate(db: Executor, id: string): Promise<ShopTemplateRow | undefined> {
    const [row] = await db.select().from(shopTemplates).where(eq(shopTemplates.id, id)).for('update');
    return row;
  },

  async listTemplates(db: Executor, f: TemplateListFilter) {
    const conditions: (SQL | undefined)[] = [];
    // What a user may list: their own templates and public ones; unlisted templates of others only by id.
    const mine = eq(shopTemplates.creatorId, f.userId);
    if (f.mine) conditions.push(mine);
    if (f.visibility === 'public') conditions.push(eq(shopTemplates.visibility, 'public'));
    else if (f.visibility) conditions.push(and(mine, eq(shopTemplates.visibility, f.visibility)));
    else conditions.push(or(mine, eq(shopTemplates.visibility, 'public')));
    if (f.partyId) {
      conditions.push(
        sql`exists (select 1 from ${shopInstances} si where si.shop_template_id = ${shopTemplates.id} and si.party_id = ${f.partyId})`,
      );
    }
    if (f.search) {
      const pattern = foldedRegex(f.search);
      conditions.push(
        sql`(${shopTemplates.name} ~ ${pattern} or ${shopTemplates.description} ~ ${pattern} or ${shopTemplates.location} ~ ${pattern} or ${shopTemplates.ownerName} ~ ${pattern} or exists (select 1 from unnest(${shopTemplates.tags}) t where t ~ ${pattern}))`,
      );
    }
    if (f.shopType) conditions.push(sql`${shopTemplates.shopType} = ${f.shopType}`);
    if (f.location) conditions.push(sql`${shopTemplates.location} ilike ${escapeLike(f.location)}`);
    if (f.minRating !== undefined) conditions.push(sql`coalesce(${ratingStats}, 0) >= ${f.minRating}`);
    for (const tag of f.tags ?? []) conditions.push(hasTag(shopTemplates.tags, tag));
    const where = and(...conditions);
    const dir = f.direction === 'desc' ? desc : asc;
    const order: SQL[] = {
      name: [dir(sql`lower(${shopTemplates.name})`)],
      rating: [
        f.direction === 'desc' ? sql`${ratingStats} desc nulls last` : sql`${ratingStats} asc nulls first`,
      ],
      popularity: [dir(ratingsCount)],
      created_at: [dir(shopTemplates.createdAt)],
      updated_at: [dir(shopTemplates.updatedAt)],
    }[f.sort];
    const [total] = await db.select({ n: count() }).from(shopTemplates).where(where);
    const rows = await templateView(db)
      .where(where)
      .orderBy(...order, asc(shopTemplates.id))
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage);
    return { rows: rows.map(toView), total: total?.n ?? 0 };
  },

  async insertTemplate(db: Executor, values: ShopTemplateInsert): Promise<ShopTemplateRow> {
    const [row] = await db.insert(shopTemplates).values(values).returning();
    if (!row) throw new Error('insert shop_templates returned nothing');
    return row;
  },

  async updateTemplate(db: Executor, id: string, changes: Partial<ShopTemplateInsert>) {
    await db
      .update(shopTemplates)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(shopTemplates.id, id));
  },

  async deleteTemplate(db: Executor, id: string) {
    await db.delete(shopTemplates).where(eq(shopTemplates.id, id));
  },

  async countTemplatesOf(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(shopTemplates)
      .where(eq(shopTemplates.creatorId, userId));
    return row?.n ?? 0;
  },

  /** System shops by key, to upsert the seed. */
  async systemTemplateIds(db: Executor): Promise<Map<string, string>> {
    const rows = await db
      .select({ id: shopTemplates.id, key: shopTemplates.systemKey })
      .from(shopTemplates)
      .where(isNotNull(shopTemplates.systemKey));
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

  // ---- shop items -------------------------------------------------------------------------------------

  /**
   * The lines of these templates by item name, as `readerId` reads them: lines whose item is private to
   * someone else come last, since where the name sorted them would hint at it.
   */
  async shopItems(db: Executor, templateIds: string[], readerId: string) {
    if (templateIds.length === 0) return [];
    return db
      .select({
        item: shopTemplateItems,
        template: templateColumns,
        creatorName: users.username,
        hidden: sql<boolean>`${hiddenFrom(readerId)}`,
      })
      .from(shopTemplateItems)
      .innerJoin(itemTemplates, eq(itemTemplates.id, shopTemplateItems.itemTemplateId))
      .leftJoin(users, eq(users.id, itemTemplates.creatorId))
      .where(inArray(shopTemplateItems.shopTemplateId, templateIds))
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

  async shopItem(db: Executor, templateId: string, itemId: string): Promise<ShopItemRow | undefined> {
    const [row] = await db
      .select()
      .from(shopTemplateItems)
      .where(and(eq(shopTemplateItems.id, itemId), eq(shopTemplateItems.shopTemplateId, templateId)))
      .limit(1);
    return row;
  },

  /** Adding an item already on the list adds to its quantity instead of listing it twice. */
  async upsertShopItem(db: Executor, values: typeof shopTemplateItems.$inferInsert): Promise<ShopItemRow> {
    const [row] = await db
      .insert(shopTemplateItems)
      .values(values)
      .onConflictDoUpdate({
        target: [shopTemplateItems.shopTemplateId, shopTemplateItems.itemTemplateId],
        set: {
          quantity: sql`${shopTemplateItems.quantity} + excluded.quantity`,
          priceCp: sql`coalesce(excluded.price_cp, ${shopTemplateItems.priceCp})`,
          restockQuantity: sql`coalesce(excluded.restock_quantity, ${shopTemplateItems.restockQuantity})`,
          updatedAt: new Date(),
        },
      })
      .returning();
    if (!row) throw new Error('upsert shop_template_items returned nothing');
    return row;
  },

  async replaceSystemShopItems(
    db: Executor,
    templateId: string,
    items: {
      itemTemplateId: string;
      quantity: number;
      restockQuantity: number | null;
      priceCp: number | null;
    }[],
  ) {
    await db.delete(shopTemplateItems).where(eq(shopTemplateItems.shopTemplateId, templateId));
    if (items.length === 0) return;
    await db.insert(shopTemplateItems).values(items.map((i) => ({ ...i, shopTemplateId: templateId })));
  },

  /**
   * Copies the lines whose item the copier may read, as adding a line asks: a deleted item, or one private
   * to someone else, would give them a line they can neither see nor deploy.
   */
  async copyShopItems(db: Executor, fromTemplateId: string, toTemplateId: string, copierId: string) {
    await db.execute(sql`
      insert into ${shopTemplateItems} (shop_template_id, item_template_id, quantity, price_cp, restock_quantity)
      select ${toTemplateId}, ${shopTemplateItems.itemTemplateId}, ${shopTemplateItems.quantity},
        ${shopTemplateItems.priceCp}, ${shopTemplateItems.restockQuantity}
      from ${shopTemplateItems} join ${itemTemplates} on ${itemTemplates.id} = ${shopTemplateItems.itemTemplateId}
      where ${shopTemplateItems.shopTemplateId} = ${fromTemplateId} and ${readableBy(copierId)}`);
  },

  async updateShopItem(db: Executor, id: string, changes: Partial<typeof shopTemplateItems.$inferInsert>) {
    await db
      .update(shopTemplateItems)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(shopTemplateItems.id, id));
  },

  async deleteShopItem(db: Executor, id: string) {
    await db.delete(shopTemplateItems).where(eq(shopTemplateItems.id, id));
  },

  // ---- ratings ----------------------------------------------------------------------------------------

  async upsertRating(db: Executor, templateId: string, userId: string, rating: number) {
    await db
      .insert(shopTemplateRatings)
      .values({ shopTemplateId: templateId, userId, rating })
      .onConflictDoUpdate({
        target: [shopTemplateRatings.shopTemplateId, shopTemplateRatings.userId],
        set: { rating, updatedAt: new Date() },
      });
  },

  async myRatings(db: Executor, userId: string, templateIds: string[]): Promise<Map<string, number>> {
    if (templateIds.length === 0) return new Map();
    const rows = await db
      .select({ id: shopTemplateRatings.shopTemplateId, rating: shopTemplateRatings.rating })
      .from(shopTemplateRatings)
      .where(
        and(eq(shopTemplateRatings.userId, userId), inArray(shopTemplateRatings.shopTemplateId, templateIds)),
      );
    return new Map(rows.map((r) => [r.id, r.rating]));
  },

  // ---- instances --------------------------------------------------------------------------------------

  async instance(db: Executor, id: string) {
    const [row] = await db
      .select({ shop: shopInstances, partyName: parties.name, templateName: shopTemplates.name })
      .from(shopInstances)
      .innerJoin(parties, eq(parties.id, shopInstances.partyId))
      .leftJoin(shopTemplates, eq(shopTemplates.id, shopInstances.shopTemplateId))
      .where(eq(shopInstances.id, id))
      .limit(1);
    return row;
  },

  /** Locks the shop row: every change of its stock, prices or settings takes this lock first. */
  async lockInstance(db: Executor, id: string): Promise<ShopInstanceRow | undefined> {
    const [row] = await db.select().from(shopInstances).where(eq(shopInstances.id, id)).for('update');
    return row;
  },

  /** Locks every shop of a party in id order (its deletion: see party-destruction.ts). */
  async lockInstancesOfParty(db: Executor, partyId: string): Promise<void> {
    await db
      .select({ id: shopInstances.id })
      .from(shopInstances)
      .where(eq(shopInstances.partyId, partyId))
      .orderBy(asc(shopInstances.id))
      .for('update');
  },

  /**
   * Locks, in id order, every shop of the party a character is in (or of `partyId`, the one it leaves):
   * the shops where a purchase request for it can be filed, each locked before its buyer's containers.
   */
  async lockInstancesOfBuyer(db: Executor, characterId: string, partyId?: string): Promise<void> {
    await db
      .select({ id: shopInstances.id })
      .from(shopInstances)
      .where(
        partyId === undefined
          ? sql`${shopInstances.partyId} = (select ${characters.partyId} from ${characters} where ${characters.id} = ${characterId})`
          : eq(shopInstances.partyId, partyId),
      )
      .orderBy(asc(shopInstances.id))
      .for('update');
  },

  /**
   * `lockInstance` with what a trade or an edit of the shop reads next, in one statement (issue 13 §2): its
   * party, the user's role there and whether they play a character in it, and the shop's container.
   */
  async lockInstanceForUser(db: Executor, userId: string, id: string) {
    const [row] = await db
      .select({
        shop: shopInstances,
        ...partyAccessColumns(shopInstances.partyId, userId),
        container: containers,
      })
      .from(shopInstances)
      .leftJoin(parties, eq(parties.id, shopInstances.partyId))
      .leftJoin(
        containers,
        and(eq(containers.shopInstanceId, shopInstances.id), eq(containers.isPrimary, true)),
      )
      .where(eq(shopInstances.id, id))
      .limit(1)
      .for('update', { of: shopInstances });
    return row;
  },

  /**
   * The same lock for a background job that already holds its job row: it must not wait for a shop
   * whose transaction (an update, a restock, a delete) will next wait for that job row, or the two
   * deadlock. If the shop is busy this throws (55P03), the job rolls back and runs again shortly.
   */
  async lockInstanceNoWait(db: Executor, id: string): Promise<ShopInstanceRow | undefined> {
    const [row] = await db
      .select()
      .from(shopInstances)
      .where(eq(shopInstances.id, id))
      .for('update', { noWait: true });
    return row;
  },

  async listInstances(
    db: Executor,
    f: {
      userId: string;
      partyId?: string;
      search?: string;
      shopType?: string;
      location?: string;
      isActive?: boolean;
      page: number;
      perPage: number;
    },
  ) {
    const conditions: (SQL | undefined)[] = [
      // Only shops of parties the user belongs to.
      sql`exists (select 1 from ${partyMemberships} m where m.party_id = ${shopInstances.partyId} and m.user_id = ${f.userId})`,
    ];
    if (f.partyId) conditions.push(eq(shopInstances.partyId, f.partyId));
    if (f.search) {
      const pattern = foldedRegex(f.search);
      conditions.push(
        sql`(${shopInstances.name} ~ ${pattern} or ${shopInstances.description} ~ ${pattern} or ${shopInstances.location} ~ ${pattern})`,
      );
    }
    if (f.shopType) conditions.push(sql`${shopInstances.shopType} = ${f.shopType}`);
    if (f.location) conditions.push(sql`${shopInstances.location} ilike ${escapeLike(f.location)}`);
    if (f.isActive !== undefined) conditions.push(eq(shopInstances.isActive, f.isActive));
    const where = and(...conditions);
    // The summary of every shop the filters match (spec/02 §2: active, inactive, total items), with the
    // count: items as each shop counts them, kinds of goods in its stock container.
    const [totals] = await db
      .select({
        n: count(),
        active: sql<number>`count(*) filter (where ${shopInstances.isActive})`.mapWith(Number),
        items:
          sql<number>`coalesce(sum((select count(distinct ii.item_template_id) from ${itemInstances} ii join ${containers} c on c.id = ii.container_id where c.shop_instance_id = ${shopInstances}.id and c.is_primary)), 0)`.mapWith(
            Number,
          ),
      })
      .from(shopInstances)
      .where(where);
    // One statement for the page, whatever its size: the shop, its party and the user's place there, its
    // template's name and its stock container.
    const rows = await db
      .select({
        shop: shopInstances,
        templateName: shopTemplates.name,
        ...partyAccessColumns(shopInstances.partyId, f.userId),
        container: { id: containers.id, name: containers.name },
      })
      .from(shopInstances)
      .innerJoin(parties, eq(parties.id, shopInstances.partyId))
      .leftJoin(shopTemplates, eq(shopTemplates.id, shopInstances.shopTemplateId))
      .leftJoin(
        containers,
        and(eq(containers.shopInstanceId, shopInstances.id), eq(containers.isPrimary, true)),
      )
      .where(where)
      .orderBy(asc(sql`lower(${shopInstances.name})`), asc(shopInstances.id))
      .limit(f.perPage)
      .offset((f.page - 1) * f.perPage);
    const total = totals?.n ?? 0;
    const active = totals?.active ?? 0;
    return { rows, total, summary: { active, inactive: total - active, items: totals?.items ?? 0 } };
  },

  /** Kinds of goods (distinct item templates) in each of these containers, by container id. */
  async kindsCountByContainer(db: Executor, containerIds: string[]): Promise<Map<string, number>> {
    if (containerIds.length === 0) return new Map();
    const rows = await db
      .select({
        containerId: itemInstances.containerId,
        n: sql<number>`count(distinct ${itemInstances.itemTemplateId})`.mapWith(Number),
      })
      .from(itemInstances)
      .where(inArray(itemInstances.containerId, containerIds))
      .groupBy(itemInstances.containerId);
    return new Map(rows.map((r) => [r.containerId, r.n]));
  },

  async insertInstance(db: Executor, values: typeof shopInstances.$inferInsert): Promise<ShopInstanceRow> {
    const [row] = await db.insert(shopInstances).values(values).returning();
    if (!row) throw new Error('insert shop_instances returned nothing');
    return row;
  },

  async updateInstance(db: Executor, id: string, changes: Partial<typeof shopInstances.$inferInsert>) {
    await db
      .update(shopInstances)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(shopInstances.id, id));
  },

  async deleteInstance(db: Executor, id: string) {
    await db.delete(shopInstances).where(eq(shopInstances.id, id));
  },

  async instancesOfTemplate(db: Executor, templateId: string, userId: string) {
    return db
      .select()
      .from(shopInstances)
      .where(
        and(
          eq(shopInstances.shopTemplateId, templateId),
          sql`exists (select 1 from ${partyMemberships} m where m.party_id = ${shopInstances.partyId} and m.user_id = ${userId})`,
        ),
      )
      .orderBy(asc(shopInstances.name));
  },

  /** Live shops the user deployed (the `shop_instances` limit). */
  async countInstancesOf(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(shopInstances)
      .where(eq(shopInstances.createdBy, userId));
    return row?.n ?? 0;
  },

  /** Deployments this month, from the ledger, so deleting a shop does not give a deployment back. */
  async countDeployments(db: Executor, userId: string, month: { start: Date; end: Date }): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(transactions)
      .where(
        and(
          eq(transactions.actorId, userId),
          eq(transactions.transactionType, 'container_creation'),
          sql`${transactions.details}->>'reason' = 'shop_deployment'`,
          gte(transactions.transactionDate, month.start),
          lt(transactions.transactionDate, month.end),
        ),
      );
    return row?.n ?? 0;
  },

  // ---- stock ------------------------------------------------------------------------------------------

  async containerOf(db: Executor, shopInstanceId: string) {
    const [row] = await db
      .select()
      .from(containers)
      .where(and(eq(containers.shopInstanceId, shopInstanceId), eq(containers.isPrimary, true)))
      .limit(1);
    return row;
  },

  /** The stock and any holds of pending purchase requests, locked in id order. */
  async shopContainers(db: Executor, shopInstanceId: string) {
    return db
      .select()
      .from(containers)
      .where(eq(containers.shopInstanceId, shopInstanceId))
      .orderBy(asc(containers.id))
      .for('update');
  },

  /** The name of an item template the shop's stock holds, or undefined: no shelf line of it to price. */
  async shelvedTemplateName(
    db: Executor,
    containerId: string,
    itemTemplateId: string,
  ): Promise<string | undefined> {
    const [row] = await db
      .select({ name: itemTemplates.name })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(
        and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, itemTemplateId)),
      )
      .limit(1);
    return row?.name;
  },

  async stock(db: Executor, containerIds: string[]) {
    if (containerIds.length === 0) return [];
    return db
      .select({ instance: itemInstances, template: itemTemplates })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(inArray(itemInstances.containerId, containerIds))
      .orderBy(asc(itemTemplates.name), asc(itemInstances.createdAt), asc(itemInstances.id));
  },

  /** Item templates the user's characters in the party hold: what they could sell to its shops. */
  async templateIdsHeldInParty(db: Executor, userId: string, partyId: string): Promise<Set<string>> {
    const rows = await db
      .selectDistinct({ id: itemInstances.itemTemplateId })
      .from(itemInstances)
      .innerJoin(containers, eq(containers.id, itemInstances.containerId))
      .innerJoin(characters, eq(characters.id, containers.characterId))
      .where(and(eq(characters.userId, userId), eq(characters.partyId, partyId)));
    return new Set(rows.map((row) => row.id));
  },

  /** Shop containers of a party, so deleting the party destroys their stock through the ledger first. */
  async shopContainerIdsOfParty(db: Executor, partyId: string): Promise<string[]> {
    const rows = await db
      .select({ id: containers.id })
      .from(containers)
      .innerJoin(shopInstances, eq(shopInstances.id, containers.shopInstanceId))
      .where(eq(shopInstances.partyId, partyId));
    return rows.map((r) => r.id);
  },

  /** The item rows of the shop's purchases and sales (coin rows carry no scope), approved requests included. */
  async sales(db: Executor, partyId: string, shopInstanceId: string, page: number, perPage: number) {
    const where = and(
      eq(transactions.partyId, partyId),
      inArray(transactions.transactionType, ['purchase', 'sale']),
      isNotNull(transactions.itemTemplateId),
      sql`${transactions.details}->>'shop_instance_id' = ${shopInstanceId}`,
      sql`${transactions.details}->>'role' is null`,
    );
    const [total] = await db.select({ n: count() }).from(transactions).where(where);
    const rows = await db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(...ledgerNewestFirst)
      .limit(perPage)
      .offset((page - 1) * perPage);
    return { rows, total: total?.n ?? 0 };
  },

  // ---- purchase requests (issue 10 §8) ----------------------------------------------------------------

  async insertRequest(db: Executor, values: typeof shopRequests.$inferInsert): Promise<ShopRequestRow> {
    const [row] = await db.insert(shopRequests).values(values).returning();
    if (!row) throw new Error('insert shop_requests returned nothing');
    return row;
  },

  async request(db: Executor, id: string): Promise<ShopRequestRow | undefined> {
    const [row] = await db.select().from(shopRequests).where(eq(shopRequests.id, id)).limit(1);
    return row;
  },

  /**
   * The pending requests of a buyer's character, or going into or paid from a container, oldest first; not
   * locked (the caller locks each one's shop, then the request, as a decision does).
   */
  async pendingRequestsOfBuyer(
    db: Executor,
    of: { characterId: string; leftPartyId?: string } | { containerId: string },
  ): Promise<ShopRequestRow[]> {
    return db
      .select()
      .from(shopRequests)
      .where(
        and(
          eq(shopRequests.status, 'pending'),
          'characterId' in of
            ? and(
                eq(shopRequests.characterId, of.characterId),
                of.leftPartyId === undefined ? undefined : eq(shopRequests.partyId, of.leftPartyId),
              )
            : or(
                eq(shopRequests.buyerContainerId, of.containerId),
                eq(shopRequests.payerContainerId, of.containerId),
              ),
        ),
      )
      .orderBy(asc(shopRequests.createdAt), asc(shopRequests.id));
  },

  async lockRequest(db: Executor, id: string): Promise<ShopRequestRow | undefined> {
    const [row] = await db.select().from(shopRequests).where(eq(shopRequests.id, id)).for('update');
    return row;
  },

  async requests(
    db: Executor,
    f: ({ shopInstanceId: string } | { partyId: string | null }) & {
      status?: ShopRequestRow['status'];
      requesterId?: string;
    },
  ): Promise<ShopRequestRow[]> {
    return db
      .select()
      .from(shopRequests)
      .where(
        and(
          // A shop's requests, or a party's (any party's, with null: a member's in every party).
          'shopInstanceId' in f
            ? eq(shopRequests.shopInstanceId, f.shopInstanceId)
            : f.partyId
              ? eq(shopRequests.partyId, f.partyId)
              : undefined,
          f.status ? eq(shopRequests.status, f.status) : undefined,
          f.requesterId ? eq(shopRequests.requesterId, f.requesterId) : undefined,
        ),
      )
      .orderBy(desc(shopRequests.createdAt), desc(shopRequests.id));
  },

  /** What the pending purchase requests to be paid from this container add up to, in copper. */
  async pendingRequestsCp(db: Executor, payerContainerId: string): Promise<number> {
    const [row] = await db
      .select({ cp: sql<string | null>`sum(${shopRequests.totalPriceCp})` })
      .from(shopRequests)
      .where(
        and(
          // A character's purchase names no payer: its buyer's container pays (as on approval).
          sql`coalesce(${shopRequests.payerContainerId}, ${shopRequests.buyerContainerId}) = ${payerContainerId}`,
          eq(shopRequests.status, 'pending'),
        ),
      );
    return Number(row?.cp ?? 0);
  },

  /** The hold containers of the requests still waiting to deliver into a buyer's container, in any shop. */
  async pendingHoldsFor(db: Executor, buyerContainerId: string): Promise<string[]> {
    const rows = await db
      .select({ hold: shopRequests.holdContainerId })
      .from(shopRequests)
      .where(and(eq(shopRequests.buyerContainerId, buyerContainerId), eq(shopRequests.status, 'pending')));
    return rows.map((r) => r.hold).filter((id): id is string => id !== null);
  },

  /** Pending requests of each shop, all of them and the requester's own, by shop id. */
  async pendingRequestCounts(db: Executor, shopInstanceIds: string[], requesterId: string) {
    if (shopInstanceIds.length === 0) return new Map<string, { all: number; own: number }>();
    const rows = await db
      .select({
        shopId: shopRequests.shopInstanceId,
        all: count(),
        own: sql<number>`count(*) filter (where ${shopRequests.requesterId} = ${requesterId})`.mapWith(
          Number,
        ),
      })
      .from(shopRequests)
      .where(and(inArray(shopRequests.shopInstanceId, shopInstanceIds), eq(shopRequests.status, 'pending')))
      .groupBy(shopRequests.shopInstanceId);
    return new Map(rows.map((r) => [r.shopId, { all: r.all, own: r.own }]));
  },

  async pendingRequestCount(db: Executor, shopInstanceId: string, requesterId: string | null) {
    const [row] = await db
      .select({ n: count() })
      .from(shopRequests)
      .where(
        and(
          eq(shopRequests.shopInstanceId, shopInstanceId),
          eq(shopRequests.status, 'pending'),
          requesterId ? eq(shopRequests.requesterId, requesterId) : undefined,
        ),
      );
    return row?.n ?? 0;
  },

  async decideRequest(
    db: Executor,
    id: string,
    changes: Pick<
      typeof shopRequests.$inferInsert,
      'status' | 'decidedById' | 'decidedByName' | 'decidedAt'
    > & {
      reason?: string;
    },
  ) {
    await db
      .update(shopRequests)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(shopRequests.id, id));
  },
};
