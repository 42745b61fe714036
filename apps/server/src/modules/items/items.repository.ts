import { copperPer } from '@haversack/contracts';
import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gte,
  isNotNull,
  isNull,
  lte,
  max,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { copyNameAmong } from '../../db/copy-names.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { lootInstances } from '../../db/schema/loot.js';
import { parties } from '../../db/schema/parties.js';
import { shopInstances } from '../../db/schema/shops.js';
import { foldedMatch, foldedRegex, searchWords } from '../../lib/search-fold.js';
import { unitWeight } from '../inventory/inventory.repository.js';
import type { SystemTemplate } from './items.catalogue.js';

export type ItemTemplateRow = typeof itemTemplates.$inferSelect;
export type ItemTemplateInsert = typeof itemTemplates.$inferInsert;

export interface ItemTemplateView {
  template: ItemTemplateRecord;
  creatorName: string | null;
}

/** The copper in one coin of the row's currency. */
const copperPerCoin = sql.raw(
  `case "item_templates"."currency" ${Object.entries(copperPer)
    .map(([currency, factor]) => `when '${currency}' then ${factor}`)
    .join(' ')} end`,
);

/**
 * DESIGN §4: a template's value in copper, in SQL, so that filters and sorts compare whole coins. Null for
 * a template marked `priced: false` (the SRD's magic items, stored at 0): it has no value to compare, so a
 * value range leaves it out and a value sort puts it last (`nulls last`), as the in-memory search does.
 */
const valueCp = sql<number | null>`(case when ${itemTemplates.metadata}->'priced' = 'false'::jsonb then null
  else ${itemTemplates.baseValue}::bigint * ${copperPerCoin} end)`;

/**
 * items.policy `isHiddenFrom` in SQL, over `item_templates` joined under its own name: private to someone
 * other than `userId`.
 */
export function hiddenFrom(userId: string): SQL {
  return sql`(${itemTemplates.visibility} = 'private' and ${itemTemplates.creatorId} is distinct from ${userId})`;
}

/** items.policy `canRead` in SQL, as `hiddenFrom`: not deleted, and not private to someone else. */
export function readableBy(userId: string): SQL {
  return sql`(${itemTemplates.deletedAt} is null and not ${hiddenFrom(userId)})`;
}

/** The columns every answer needs; the generated search_vector stays in the database. */
export const templateColumns = {
  id: itemTemplates.id,
  name: itemTemplates.name,
  description: itemTemplates.description,
  weight: itemTemplates.weight,
  baseValue: itemTemplates.baseValue,
  currency: itemTemplates.currency,
  visibility: itemTemplates.visibility,
  stackSize: itemTemplates.stackSize,
  metadata: itemTemplates.metadata,
  tags: itemTemplates.tags,
  rating: itemTemplates.rating,
  creatorId: itemTemplates.creatorId,
  systemKey: itemTemplates.systemKey,
  deletedAt: itemTemplates.deletedAt,
  createdAt: itemTemplates.createdAt,
  updatedAt: itemTemplates.updatedAt,
};
export type ItemTemplateRecord = Omit<ItemTemplateRow, 'searchVector'>;

function viewQuery(db: Executor) {
  return db
    .select({ template: templateColumns, creatorName: users.username })
    .from(itemTemplates)
    .leftJoin(users, eq(users.id, itemTemplates.creatorId));
}

export interface RangeFilter {
  minValueCp?: number;
  maxValueCp?: number;
  minWeight?: number;
  maxWeight?: number;
}

function rangeConditions(filter: RangeFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.minValueCp !== undefined) conditions.push(gte(valueCp, filter.minValueCp));
  if (filter.maxValueCp !== undefined) conditions.push(lte(valueCp, filter.maxValueCp));
  if (filter.minWeight !== undefined) conditions.push(gte(itemTemplates.weight, filter.minWeight));
  if (filter.maxWeight !== undefined) conditions.push(lte(itemTemplates.weight, filter.maxWeight));
  return conditions;
}

/** spec/02 §3: the category is a `category:` tag or metadata.category. */
function categoryCondition(category: string): SQL | undefined {
  return or(
    arrayContains(itemTemplates.tags, [`category:${category}`]),
    sql`lower(${itemTemplates.metadata}->>'category') = ${category}`,
  );
}

export type ListScope =
  | { kind: 'mine'; userId: string; visibility?: ItemTemplateRow['visibility'] }
  | { kind: 'public'; creatorId?: string }
  | { kind: 'system' }
  | { kind: 'none' };

export interface ListFilter extends RangeFilter {
  scope: ListScope;
  /** As SearchFilter's: the same rule (textCondition). */
  term?: string;
  spellings?: string[];
  tag?: string;
  category?: string;
  minRating?: number;
  sort: 'name' | 'value' | 'weight' | 'rating' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

export interface SearchFilter extends RangeFilter {
  /** Undefined: everything (the spec's `*`). */
  term?: string;
  /** The term's other spellings (items.search-terms), searched alongside it; only with a term. */
  spellings?: string[];
  tags?: string[];
  category?: string;
  rarity?: string;
  sort: 'relevance' | 'name' | 'value' | 'weight';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

function scopeCondition(scope: ListScope): SQL | undefined {
  switch (scope.kind) {
    case 'mine':
      return and(
        eq(itemTemplates.creatorId, scope.userId),
        scope.visibility ? eq(itemTemplates.visibility, scope.visibility) : undefined,
      );
    case 'public':
      return and(
        eq(itemTemplates.visibility, 'public'),
        scope.creatorId ? eq(itemTemplates.creatorId, scope.creatorId) : undefined,
      );
    case 'system':
      return and(isNotNull(itemTemplates.systemKey), eq(itemTemplates.visibility, 'public'));
    case 'none':
      return sql`false`;
  }
}

function sortColumn(sort: ListFilter['sort'] | SearchFilter['sort']): SQL | typeof itemTemplates.name {
  switch (sort) {
    case 'value':
      return valueCp;
    case 'weight':
      return sql`${itemTemplates.weight}`;
    case 'rating':
      return sql`${itemTemplates.rating}`;
    case 'created_at':
      return sql`${itemTemplates.createdAt}`;
    case 'updated_at':
      return sql`${itemTemplates.updatedAt}`;
    default:
      return sql`lower(${itemTemplates.name})`;
  }
}

function ordered(column: SQL | typeof itemTemplates.name, direction: 'asc' | 'desc'): SQL[] {
  // Ties fall back to the name, then the id, so that pages never overlap.
  return [
    direction === 'desc' ? sql`${column} desc nulls last` : sql`${column} asc nulls last`,
    asc(sql`lower(${itemTemplates.name})`),
    asc(itemTemplates.id),
  ];
}

/** The tags, one a line, as the search reads them: a word never spans two. */
const tagLines = sql`array_to_string(${itemTemplates.tags}, E'\n')`;

/**
 * One spelling of a search term (the term or one of its other spellings): its tsquery (websearch syntax,
 * or the start of the name's words), its words' match, and how a name meets it, best first: the name
 * itself; the name's first word(s) ("Gold" in "Gold piece", not in "Golden Lions"); the start of the name;
 * every word at the start of a word of the name, in any order ("heal potion" in "Potion of Healing"); the
 * spelling anywhere in the name; every word somewhere in the name; elsewhere (description, tags), ranked
 * by ts_rank alone. Words and names are compared without case or accents (lib/search-fold).
 */
function spellingQuery(spelling: string): { query: SQL; words: SQL; tier: SQL } {
  const lexemes = spelling.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const namePrefixes = lexemes.map((word) => `${word}:*A`).join(' & ');
  const query = namePrefixes
    ? sql`(websearch_to_tsquery('english', ${spelling}) || to_tsquery('simple', ${namePrefixes}))`
    : sql`websearch_to_tsquery('english', ${spelling})`;
  const name = itemTemplates.name;
  const words = searchWords(spelling);
  const every = (condition: (word: string) => SQL) =>
    words.length === 0 ? sql`false` : sql`(${sql.join(words.map(condition), sql` and `)})`;
  const tier = sql`(case
        when ${foldedMatch(name, spelling, 'whole')} then 6
        when ${foldedMatch(name, `${spelling} `, 'start')} or ${foldedMatch(name, `${spelling},`, 'start')} then 5
        when ${foldedMatch(name, spelling, 'start')} then 4
        when ${every((word) => foldedMatch(name, word, 'word-start'))} then 3
        when ${foldedMatch(name, spelling)} then 2
        when ${every((word) => foldedMatch(name, word))} then 1
        else 0 end)`;
  return { query, words: every(wordMatch), tier };
}

/** One word of a search, without case or accents, in the name, the description or a tag. */
function wordMatch(word: string): SQL {
  return sql`(${foldedMatch(itemTemplates.name, word)} or ${foldedMatch(itemTemplates.description, word)} or ${foldedMatch(tagLines, word)})`;
}

/**
 * The one rule of both template searches (item_templates and search/items; its words: items.search-query `searchTermRule`):
 * for the term or one of its other spellings, every word of it somewhere in the name, description or
 * tags, without case or accents and in any order; or its English full-text query over the name and
 * description (websearch syntax: "phrases", -not, or; stemmed words: "swords" meets "sword").
 */
function textCondition(spellings: ReturnType<typeof spellingQuery>[]): SQL {
  const query = sql`(${sql.join(
    spellings.map((spelling) => spelling.query),
    sql` || `,
  )})`;
  return sql`(${itemTemplates.searchVector} @@ ${query} or ${sql.join(
    spellings.map((spelling) => spelling.words),
    sql` or `,
  )})`;
}

/** A tag among the template's, without case or accents ("ISLAK" is the tag "ıslak"). */
function tagCondition(tag: string): SQL {
  return sql`exists (select 1 from unnest(${itemTemplates.tags}) as tag where tag ~ ${foldedRegex(tag, 'whole')})`;
}

export const itemsRepository = {
  /** The name a copy of `name` gets among the creator's templates ("(Copy)", "(Copy 2)"…). */
  copyName(tx: Executor, creatorId: string, name: string, maxLength: number): Promise<string> {
    const t = itemTemplates;
    return copyNameAmong(
      tx,
      { table: t, name: t.name, creatorId: t.creatorId, deletedAt: t.deletedAt },
      creatorId,
      name,
      maxLength,
    );
  },

  /**
   * Whether an item made from the template sits where the actor does not run things: a character of
   * another player outside the parties the actor is GM of, or a party, shop or loot of another GM's party.
   */
  async heldBeyondReachOf(db: Executor, templateId: string, actorId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: itemInstances.id })
      .from(itemInstances)
      .innerJoin(containers, eq(containers.id, itemInstances.containerId))
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .leftJoin(shopInstances, eq(shopInstances.id, containers.shopInstanceId))
      .leftJoin(lootInstances, eq(lootInstances.id, containers.lootInstanceId))
      .leftJoin(
        parties,
        eq(
          parties.id,
          sql`coalesce(${containers.partyId}, ${characters.partyId}, ${shopInstances.partyId}, ${lootInstances.partyId})`,
        ),
      )
      .where(
        and(
          eq(itemInstances.itemTemplateId, templateId),
          sql`${characters.userId} is distinct from ${actorId}`,
          sql`${parties.gameMasterId} is distinct from ${actorId}`,
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  /**
   * A container holding items of the template that its weight, as the template now stands (read inside
   * the editing transaction, after the change), puts over a weight limit its party enforces: null or
   * 'both' and 'weight' styles (inventory-rules.ts enforcedLimits). Named with its owner, for the refusal.
   */
  async containerOverWeightWith(
    db: Executor,
    templateId: string,
  ): Promise<{ container: string; owner: string | null } | undefined> {
    const [row] = await db
      .select({
        container: containers.name,
        owner: sql<string | null>`coalesce(${characters.name}, ${parties.name})`,
      })
      .from(containers)
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .leftJoin(parties, eq(parties.id, sql`coalesce(${containers.partyId}, ${characters.partyId})`))
      .where(
        and(
          sql`${containers.id} in (select ${itemInstances.containerId} from ${itemInstances} where ${itemInstances.itemTemplateId} = ${templateId})`,
          sql`${containers.maxWeight} > 0`,
          sql`coalesce(${parties.encumbranceStyle}, 'both') in ('both', 'weight')`,
          sql`(select coalesce(sum(${unitWeight} * ${itemInstances.quantity}), 0) from ${itemInstances} inner join ${itemTemplates} on ${itemTemplates.id} = ${itemInstances.itemTemplateId} where ${itemInstances.containerId} = ${containers.id}) > ${containers.maxWeight}`,
        ),
      )
      .limit(1);
    return row;
  },

  /**
   * The quantity of the largest stack made from the template, wherever it is; 0 when there is none. A stack
   * destroyed (or left in a loot when it was removed) is deleted, not marked, so every row still counts.
   */
  async largestStackOf(db: Executor, templateId: string): Promise<number> {
    const [row] = await db
      .select({ largest: max(itemInstances.quantity) })
      .from(itemInstances)
      .where(eq(itemInstances.itemTemplateId, templateId));
    return Number(row?.largest ?? 0);
  },

  /**
   * Whether items of the template are held in a party where only the GM adds items, and `actorId` is not
   * that GM (its characters' containers and its own): raising the template's value would make coins there.
   */
  async heldInGmOnlyPartyOf(db: Executor, templateId: string, actorId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: itemInstances.id })
      .from(itemInstances)
      .innerJoin(containers, eq(containers.id, itemInstances.containerId))
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .innerJoin(parties, eq(parties.id, sql`coalesce(${containers.partyId}, ${characters.partyId})`))
      .where(
        and(
          eq(itemInstances.itemTemplateId, templateId),
          eq(parties.itemConjuring, 'gm_only'),
          ne(parties.gameMasterId, actorId),
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  async find(
    db: Executor,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<ItemTemplateRecord | undefined> {
    const query = db.select(templateColumns).from(itemTemplates).where(eq(itemTemplates.id, id)).limit(1);
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async view(db: Executor, id: string): Promise<ItemTemplateView | undefined> {
    const [row] = await viewQuery(db).where(eq(itemTemplates.id, id)).limit(1);
    return row;
  },

  async insert(db: Executor, values: ItemTemplateInsert): Promise<ItemTemplateRecord> {
    const [row] = await db.insert(itemTemplates).values(values).returning(templateColumns);
    if (!row) throw new Error('insert item_templates returned nothing');
    return row;
  },

  async update(db: Executor, id: string, changes: Partial<ItemTemplateInsert>): Promise<void> {
    await db
      .update(itemTemplates)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(itemTemplates.id, id));
  },

  /** A deleted template leaves every list but keeps the instances made from it (issue 5). */
  async softDelete(db: Executor, id: string, at: Date): Promise<void> {
    await db.update(itemTemplates).set({ deletedAt: at, updatedAt: at }).where(eq(itemTemplates.id, id));
  },

  async countInstances(db: Executor, id: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(itemInstances)
      .where(eq(itemInstances.itemTemplateId, id));
    return row?.n ?? 0;
  },

  /** The item_templates limit counts the templates a user authored and has not deleted. */
  async countOwnedBy(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(itemTemplates)
      .where(and(eq(itemTemplates.creatorId, userId), isNull(itemTemplates.deletedAt)));
    return row?.n ?? 0;
  },

  async list(db: Executor, filter: ListFilter): Promise<{ rows: ItemTemplateView[]; total: number }> {
    const conditions: (SQL | undefined)[] = [isNull(itemTemplates.deletedAt), scopeCondition(filter.scope)];
    if (filter.term)
      conditions.push(textCondition([filter.term, ...(filter.spellings ?? [])].map(spellingQuery)));
    if (filter.tag) conditions.push(tagCondition(filter.tag));
    if (filter.category) conditions.push(categoryCondition(filter.category));
    if (filter.minRating !== undefined) conditions.push(gte(itemTemplates.rating, filter.minRating));
    conditions.push(...rangeConditions(filter));
    const where = and(...conditions);
    const [total] = await db.select({ n: count() }).from(itemTemplates).where(where);
    const rows = await viewQuery(db)
      .where(where)
      .orderBy(...ordered(sortColumn(filter.sort), filter.direction))
      .limit(filter.perPage)
      .offset((filter.page - 1) * filter.perPage);
    return { rows, total: total?.n ?? 0 };
  },

  /**
   * spec/02 §7 search/items over public templates, by the rule item_templates follows too (textCondition):
   * every word of the term in the name, description or tags, without case or accents and in any order, or
   * its full-text query in websearch syntax (words, "phrases", -not, or), or word by word the start of
   * words of the name (`long:*A`). Its other spellings (items.search-terms: "arrow" for "arrows",
   * "shortsword" for "short sword", "gold piece" for "gp") match the same ways, as if typed too. The tsquery
   * uses the GIN index; the words' match scans the public rows. This is the reference of the in-memory
   * index (items.search-index), which answers the requests.
   * Relevance: how the name meets the term or the spelling it meets best (spellingQuery), then the
   * shorter name, then ts_rank.
   */
  async search(db: Executor, filter: SearchFilter): Promise<{ rows: ItemTemplateView[]; total: number }> {
    const conditions: (SQL | undefined)[] = [
      isNull(itemTemplates.deletedAt),
      eq(itemTemplates.visibility, 'public'),
    ];
    let relevance: SQL | undefined;
    let relevanceTail: SQL[] = [];
    if (filter.term) {
      const spellings = [filter.term, ...(filter.spellings ?? [])].map(spellingQuery);
      const query = sql`(${sql.join(
        spellings.map((spelling) => spelling.query),
        sql` || `,
      )})`;
      conditions.push(textCondition(spellings));
      const tier = sql`greatest(${sql.join(
        spellings.map((spelling) => spelling.tier),
        sql`, `,
      )})`;
      relevance = tier;
      // Within a tier that met the name, the shorter name is the likelier one ("Plate Armor" before "Plate
      // Armor of Etherealness"); then the text's own rank.
      relevanceTail = [
        sql`(case when ${tier} > 0 then length(${itemTemplates.name}) else 0 end) asc`,
        sql`ts_rank(${itemTemplates.searchVector}, ${query}) desc`,
      ];
    }
    for (const tag of filter.tags ?? []) conditions.push(tagCondition(tag));
    if (filter.category) conditions.push(categoryCondition(filter.category));
    if (filter.rarity) conditions.push(sql`lower(${itemTemplates.metadata}->>'rarity') = ${filter.rarity}`);
    conditions.push(...rangeConditions(filter));
    const where = and(...conditions);

    const order =
      filter.sort === 'relevance' && relevance
        ? filter.direction === 'desc'
          ? [sql`${relevance} desc`, ...relevanceTail, ...ordered(relevance, 'desc').slice(1)]
          : ordered(relevance, filter.direction)
        : ordered(sortColumn(filter.sort === 'relevance' ? 'name' : filter.sort), filter.direction);
    const page = (total: SQL<number>) =>
      db
        .select({ template: templateColumns, creatorName: users.username, total })
        .from(itemTemplates)
        .leftJoin(users, eq(users.id, itemTemplates.creatorId))
        .where(where)
        .orderBy(...order)
        .limit(filter.perPage)
        .offset((filter.page - 1) * filter.perPage);
    const countAll = async () => {
      const [counted] = await db.select({ n: count() }).from(itemTemplates).where(where);
      return counted?.n ?? 0;
    };
    const strip = (rows: (ItemTemplateView & { total: number })[]) =>
      rows.map(({ template, creatorName }) => ({ template, creatorName }));

    if (filter.term) {
      // A term narrows the rows through the index: the window count rides along in one round trip.
      const rows = await page(sql<number>`(count(*) over ())::int`);
      const total = rows[0]?.total ?? (filter.page > 1 ? await countAll() : 0);
      return { rows: strip(rows), total };
    }
    // Browsing everything: counting apart is cheaper than a window over every public template.
    const total = await countAll();
    const rows = total > (filter.page - 1) * filter.perPage ? await page(sql<number>`0`) : [];
    return { rows: strip(rows), total };
  },

  /** Distinct tags, with counts, over the templates a user can see (their own and public ones). */
  async tags(db: Executor, userId: string): Promise<{ tag: string; count: number }[]> {
    const tagged = db
      .select({ tag: sql<string>`unnest(${itemTemplates.tags})`.as('tag') })
      .from(itemTemplates)
      .where(
        and(
          isNull(itemTemplates.deletedAt),
          or(eq(itemTemplates.creatorId, userId), eq(itemTemplates.visibility, 'public')),
        ),
      )
      .as('tagged');
    return db
      .select({ tag: tagged.tag, count: count() })
      .from(tagged)
      .groupBy(tagged.tag)
      .orderBy(desc(count()), asc(tagged.tag));
  },

  /**
   * The seed: one multi-row upsert per batch keyed by system_key. A row whose content is unchanged is
   * not rewritten, so a restart changes nothing. Returns how many rows were inserted or updated.
   */
  async upsertSystemTemplates(db: Executor, templates: SystemTemplate[], batchSize = 200): Promise<number> {
    let changed = 0;
    for (let start = 0; start < templates.length; start += batchSize) {
      const batch = templates.slice(start, start + batchSize);
      const written = await db
        .insert(itemTemplates)
        .values(batch.map((t) => ({ ...t, creatorId: null })))
        .onConflictDoUpdate({
          target: itemTemplates.systemKey,
          set: {
            name: sql`excluded.name`,
            description: sql`excluded.description`,
            weight: sql`excluded.weight`,
            baseValue: sql`excluded.base_value`,
            currency: sql`excluded.currency`,
            visibility: sql`excluded.visibility`,
            stackSize: sql`excluded.stack_size`,
            metadata: sql`excluded.metadata`,
            tags: sql`excluded.tags`,
            updatedAt: sql`now()`,
          },
          setWhere: sql`(${itemTemplates.name}, ${itemTemplates.description}, ${itemTemplates.weight}, ${itemTemplates.baseValue}, ${itemTemplates.currency}, ${itemTemplates.visibility}, ${itemTemplates.stackSize}, ${itemTemplates.metadata}, ${itemTemplates.tags}) is distinct from (excluded.name, excluded.description, excluded.weight, excluded.base_value, excluded.currency, excluded.visibility, excluded.stack_size, excluded.metadata, excluded.tags)`,
        })
        .returning({ id: itemTemplates.id });
      changed += written.length;
    }
    return changed;
  },
};
