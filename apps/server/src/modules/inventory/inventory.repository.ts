import { saturate } from '@haversack/contracts';
import {
  and,
  asc,
  type Column,
  count,
  eq,
  fillPlaceholders,
  getTableColumns,
  ilike,
  inArray,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.js';
import { type DirectStatement, decodeColumn, directRows } from '../../db/direct.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { statementName } from '../../db/statements.js';
import { escapeLike } from '../../lib/like-pattern.js';
import { foldedRegex } from '../../lib/search-fold.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { hasCharacterInParty } from '../parties/parties.repository.js';
import {
  contextForItemsStatement,
  deleteInstanceStatement,
  insertInstanceStatement,
  instanceAt,
  type LocatedRow,
  locatedFrom,
  lockContextsStatement,
  lockMoveStatement,
  moveRowFrom,
  setQuantitiesStatement,
} from './inventory.statements.js';

/** Stacks written by one statement: 500 rows of six values stay well under PostgreSQL's 65,535 parameters. */
export const STACK_INSERT_BATCH = 500;

export type ContainerRow = typeof containers.$inferSelect;
export type InstanceRow = typeof itemInstances.$inferSelect;
/** A template as the inventory reads it: everything but the search vector, which only the search reads. */
export type TemplateRow = Omit<typeof itemTemplates.$inferSelect, 'searchVector'>;

/** Per-unit weight and copper value of a stack, honouring its overrides (DESIGN §4), as SQL. */
export const unitWeight = sql<number>`coalesce((${itemInstances.instanceData}->>'weight_override')::numeric, ${itemTemplates.weight})`;
export const unitValueCp = sql<number>`coalesce((${itemInstances.instanceData}->>'value_override')::numeric, ${itemTemplates.baseValue}) * case coalesce(${itemInstances.instanceData}->>'currency_override', ${itemTemplates.currency}) when 'pp' then 1000 when 'gp' then 100 when 'ep' then 50 when 'sp' then 10 else 1 end`;
/**
 * The per-unit value a value range (min_value, max_value) compares: null for an unpriced item (contracts
 * isUnpricedItem: its template is marked `priced: false`, as the SRD's magic items are, and no
 * value_override prices it), which no range then holds. Stored at 0, it would otherwise pass for the
 * cheapest thing in the bag; the catalogue search leaves unpriced templates out of ranges the same way.
 */
const rangedValueCp = sql<
  number | null
>`(case when ${itemTemplates.metadata}->'priced' = 'false'::jsonb and ${itemInstances.instanceData}->>'value_override' is null then null else ${unitValueCp} end)`;

export interface ContainerContext {
  container: ContainerRow;
  /** The character that owns it, if any. */
  character: { id: string; name: string; userId: string; partyId: string | null } | null;
  /** The party whose rules apply: the owning party, or the owning character's party. */
  party: {
    id: string;
    name: string;
    encumbranceStyle: 'weight' | 'slots' | 'both' | 'none';
    gameMasterId: string;
    isArchived: boolean;
  } | null;
  ownerName: string;
  /** The character, party, shop or loot `ownerName` names (a ledger row's target). */
  ownerId: string | null;
}

export interface ContainerUsage {
  weight: number;
  slots: number;
  /** Exact up to MAX_REPORTED_SUM, that figure past it (a container may hold many of the dearest stacks). */
  valueCp: number;
}

/**
 * Whose containers a list covers (GET /containers, GET /item_instances). The service checks that the
 * user may read the character or the party first; without either, the user's own characters' containers
 * and those of the parties they belong to. Shop and loot containers are never in it.
 */
export interface ContainerScope {
  userId: string;
  characterId?: string;
  partyId?: string;
  containerId?: string;
}

export function containerScopeCondition(scope: ContainerScope): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (scope.containerId) conditions.push(eq(containers.id, scope.containerId));
  if (scope.characterId) conditions.push(eq(containers.characterId, scope.characterId));
  if (scope.partyId) {
    conditions.push(
      or(
        eq(containers.partyId, scope.partyId),
        sql`${containers.characterId} in (select c.id from ${characters} c where c.party_id = ${scope.partyId})`,
      ),
    );
  }
  if (!scope.containerId && !scope.characterId && !scope.partyId) {
    conditions.push(
      or(
        sql`${containers.characterId} in (select c.id from ${characters} c where c.user_id = ${scope.userId})`,
        sql`${containers.partyId} in (select m.party_id from ${partyMemberships} m where m.user_id = ${scope.userId})`,
      ),
    );
  }
  return and(...conditions);
}

/** The template columns of an instance's JSON (inventory.json.ts InstanceTemplate). */
const instanceTemplateColumns = {
  id: itemTemplates.id,
  name: itemTemplates.name,
  weight: itemTemplates.weight,
  baseValue: itemTemplates.baseValue,
  currency: itemTemplates.currency,
  stackSize: itemTemplates.stackSize,
  tags: itemTemplates.tags,
  metadata: itemTemplates.metadata,
  systemKey: itemTemplates.systemKey,
};

// ---- one container's page of items (GET containers/{id}/items), the hot list (issue 13 §3) ------------

type InstanceTemplateRow = Pick<TemplateRow, keyof typeof instanceTemplateColumns>;

interface ItemFilter {
  search?: string;
  rarity?: string;
  minValueCp?: number;
  maxValueCp?: number;
  page: number;
  perPage: number;
}

const pageInstanceFields = Object.entries(getTableColumns(itemInstances));
const pageTemplateFields = Object.entries(instanceTemplateColumns);
/** The page's statement for each set of filters, built once with placeholders (its text never varies). */
const containerPageStatements = new Map<string, DirectStatement & { params: unknown[] }>();

/**
 * What a search of a container's items matches: the item's name (its override too), its notes, and its
 * template's tags ("potion" finds the Oil of Etherealness tagged potion), each as a substring.
 */
function itemSearch(pattern: SQLWrapper): SQL {
  return sql`(${itemTemplates.name} ~ ${pattern} or ${itemInstances.instanceData}->>'name_override' ~ ${pattern} or ${itemInstances.notes} ~ ${pattern} or exists (select 1 from unnest(${itemTemplates.tags}) as tag where tag ~ ${pattern}))`;
}

function isDatabase(db: Executor): db is Database {
  return '$client' in db;
}

function containerPageStatement(db: Database, filter: ItemFilter) {
  const shape = [filter.search, filter.rarity, filter.minValueCp, filter.maxValueCp]
    .map((part) => (part === undefined ? '0' : '1'))
    .join('');
  const known = containerPageStatements.get(shape);
  if (known) return known;
  const pattern = sql.placeholder('pattern');
  const conditions: SQL[] = [eq(itemInstances.containerId, sql.placeholder('containerId'))];
  if (filter.search !== undefined) conditions.push(itemSearch(pattern));
  if (filter.rarity !== undefined)
    conditions.push(sql`${itemTemplates.metadata}->>'rarity' ilike ${sql.placeholder('rarity')}`);
  if (filter.minValueCp !== undefined)
    conditions.push(sql`${rangedValueCp} >= ${sql.placeholder('minValueCp')}`);
  if (filter.maxValueCp !== undefined)
    conditions.push(sql`${rangedValueCp} <= ${sql.placeholder('maxValueCp')}`);
  // Flat and in a fixed order: the row arrays are read by position.
  const selection: Record<string, PgColumn | SQL> = {};
  for (const [key, column] of pageInstanceFields) selection[`i_${key}`] = column;
  for (const [key, column] of pageTemplateFields) selection[`t_${key}`] = column;
  selection.total = sql<number>`count(*) over ()`;
  const built = db
    .select(selection)
    .from(itemInstances)
    .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
    .where(and(...conditions))
    .orderBy(
      asc(sql`coalesce(${itemInstances.instanceData}->>'name_override', ${itemTemplates.name})`),
      asc(itemInstances.createdAt),
      // Stacks of one name made in one statement share their time: the id settles their order, so that
      // pages of any size cut one order and no stack shows twice while another never shows.
      asc(itemInstances.id),
    )
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .toSQL();
  const statement = {
    name: statementName('inventory_container_page', shape),
    text: built.sql,
    params: built.params,
  };
  containerPageStatements.set(shape, statement);
  return statement;
}

/**
 * The page and its total in one named statement, its rows decoded by the columns themselves (exactly as
 * drizzle's select would) without drizzle building the query and walking its selection per request.
 */
async function containerPage(db: Database, containerId: string, filter: ItemFilter) {
  const statement = containerPageStatement(db, filter);
  const params = fillPlaceholders(statement.params, {
    containerId,
    pattern: filter.search === undefined ? undefined : foldedRegex(filter.search),
    rarity: filter.rarity === undefined ? undefined : escapeLike(filter.rarity),
    minValueCp: filter.minValueCp,
    maxValueCp: filter.maxValueCp,
    limit: filter.perPage,
    offset: (filter.page - 1) * filter.perPage,
  });
  const values = await directRows(db, statement, params, { forColumns: true });
  const instanceCount = pageInstanceFields.length;
  const rows = values.map((row) => {
    const instance: Record<string, unknown> = {};
    for (let i = 0; i < instanceCount; i++) {
      const [key, column] = pageInstanceFields[i] as [string, Column];
      instance[key] = decodeColumn(column, row[i]);
    }
    const template: Record<string, unknown> = {};
    for (let i = 0; i < pageTemplateFields.length; i++) {
      const [key, column] = pageTemplateFields[i] as [string, Column];
      template[key] = decodeColumn(column, row[instanceCount + i]);
    }
    return { instance: instance as InstanceRow, template: template as InstanceTemplateRow };
  });
  return { rows, total: Number(values[0]?.at(-1) ?? 0) };
}

type MembershipRole = (typeof partyMemberships.$inferSelect)['role'];

const contextColumns = {
  container: containers,
  characterId: characters.id,
  characterName: characters.name,
  characterUserId: characters.userId,
  characterPartyId: characters.partyId,
  partyId: parties.id,
  partyName: parties.name,
  encumbranceStyle: parties.encumbranceStyle,
  gameMasterId: parties.gameMasterId,
  isArchived: parties.isArchived,
};

interface ContextRow {
  container: ContainerRow;
  characterId: string | null;
  characterName: string | null;
  characterUserId: string | null;
  characterPartyId: string | null;
  partyId: string | null;
  partyName: string | null;
  encumbranceStyle: 'weight' | 'slots' | 'both' | 'none' | null;
  gameMasterId: string | null;
  isArchived: boolean | null;
}

function toContext(row: ContextRow): ContainerContext {
  const character =
    row.characterId && row.characterName !== null && row.characterUserId
      ? {
          id: row.characterId,
          name: row.characterName,
          userId: row.characterUserId,
          partyId: row.characterPartyId,
        }
      : null;
  const party =
    row.partyId && row.partyName !== null && row.encumbranceStyle && row.gameMasterId
      ? {
          id: row.partyId,
          name: row.partyName,
          encumbranceStyle: row.encumbranceStyle,
          gameMasterId: row.gameMasterId,
          isArchived: row.isArchived ?? false,
        }
      : null;
  return {
    container: row.container,
    character,
    party,
    ownerName: character?.name ?? party?.name ?? '',
    ownerId: character?.id ?? party?.id ?? null,
  };
}

/** The containers of the characters and parties named, or undefined when none is. */
function ownersCondition(characterIds: string[], partyIds: string[]): SQL | undefined {
  const owners = [
    ...(characterIds.length > 0 ? [inArray(containers.characterId, characterIds)] : []),
    ...(partyIds.length > 0 ? [inArray(containers.partyId, partyIds)] : []),
  ];
  return owners.length > 0 ? or(...owners) : undefined;
}

/**
 * The weight, stacks and worth of each container with stacks among those `where` picks: a condition on
 * the stacks, or on their containers (`byContainer`, joined for it).
 */
async function usageWhere(db: Executor, where: SQL | undefined, byContainer: boolean) {
  const base = db
    .select({
      containerId: itemInstances.containerId,
      weight: sql<string>`coalesce(sum(${unitWeight} * ${itemInstances.quantity}), 0)`,
      slots: count(),
      valueCp: sql<string>`coalesce(sum(${unitValueCp} * ${itemInstances.quantity}), 0)`,
    })
    .from(itemInstances)
    .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId));
  const rows = await (byContainer
    ? base.innerJoin(containers, eq(containers.id, itemInstances.containerId))
    : base
  )
    .where(where)
    .groupBy(itemInstances.containerId);
  return new Map<string, ContainerUsage>(
    rows.map((r) => [
      r.containerId,
      { weight: Number(r.weight), slots: Number(r.slots), valueCp: saturate(r.valueCp) },
    ]),
  );
}

export const inventoryRepository = {
  /** Locks containers in id order, so two operations on the same pair never deadlock. */
  async lockContainers(db: Executor, ids: string[]): Promise<ContainerRow[]> {
    const unique = [...new Set(ids)].sort();
    if (unique.length === 0) return [];
    // One statement: the rows are sorted before they are locked, so the locks are taken in id order too.
    return db
      .select()
      .from(containers)
      .where(inArray(containers.id, unique))
      .orderBy(asc(containers.id))
      .for('update');
  },

  async context(db: Executor, containerId: string): Promise<ContainerContext | undefined> {
    const [row] = await db
      .select({
        container: containers,
        characterId: characters.id,
        characterName: characters.name,
        characterUserId: characters.userId,
        characterPartyId: characters.partyId,
      })
      .from(containers)
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .where(eq(containers.id, containerId))
      .limit(1);
    if (!row) return undefined;
    const partyId = row.container.partyId ?? row.characterPartyId;
    const [party] = partyId
      ? await db
          .select({
            id: parties.id,
            name: parties.name,
            encumbranceStyle: parties.encumbranceStyle,
            gameMasterId: parties.gameMasterId,
            isArchived: parties.isArchived,
          })
          .from(parties)
          .where(eq(parties.id, partyId))
          .limit(1)
      : [];
    const character =
      row.characterId && row.characterName !== null && row.characterUserId
        ? {
            id: row.characterId,
            name: row.characterName,
            userId: row.characterUserId,
            partyId: row.characterPartyId,
          }
        : null;
    return {
      container: row.container,
      character,
      party: party ?? null,
      ownerName: character?.name ?? party?.name ?? '',
      ownerId: character?.id ?? party?.id ?? null,
    };
  },

  /** `context` for many containers in one query (lists of containers). */
  async contexts(db: Executor, containerIds: string[]): Promise<Map<string, ContainerContext>> {
    if (containerIds.length === 0) return new Map();
    const rows = await db
      .select(contextColumns)
      .from(containers)
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .leftJoin(parties, sql`${parties.id} = coalesce(${containers.partyId}, ${characters.partyId})`)
      .where(inArray(containers.id, containerIds));
    return new Map(rows.map((row) => [row.container.id, toContext(row)]));
  },

  /**
   * `contexts` with what the policy needs to know of one user in each container's party (their role, and
   * whether they have a character there), still in one query: a transfer locates both its containers so.
   */
  async contextsForUser(
    db: Executor,
    userId: string,
    containerIds: string[],
  ): Promise<Map<string, { context: ContainerContext; role: MembershipRole | null; hasCharacter: boolean }>> {
    if (containerIds.length === 0) return new Map();
    const rows = await db
      .select({
        ...contextColumns,
        role: sql<MembershipRole | null>`(select m.role from ${partyMemberships} m where m.party_id = ${parties.id} and m.user_id = ${userId})`,
        hasCharacter: hasCharacterInParty(parties.id, userId),
      })
      .from(containers)
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .leftJoin(parties, sql`${parties.id} = coalesce(${containers.partyId}, ${characters.partyId})`)
      .where(inArray(containers.id, containerIds))
      // Every container read locates its container so: prepared once per connection (db/statements.ts).
      .prepare(statementName('inventory_contexts_for_user', containerIds.length))
      .execute();
    return new Map(
      rows.map((row) => [
        row.container.id,
        { context: toContext(row), role: row.role, hasCharacter: row.hasCharacter },
      ]),
    );
  },

  /**
   * `contextsForUser` of one container, in a statement written once as SQL (every container read starts
   * here), with the fingerprint of its items when asked (`ITEMS_FINGERPRINT_OF`, inventory.statements.ts):
   * a container read checks access and learns whether its kept page is still current at once.
   */
  async contextForItems(db: Executor, userId: string, containerId: string, withFingerprint: boolean) {
    const [row] = await directRows(db, contextForItemsStatement(withFingerprint), [userId, containerId]);
    if (!row) return undefined;
    const { context, role, hasCharacter, extra } = locatedFrom(row);
    return { context, role, hasCharacter, fingerprint: withFingerprint ? String(extra) : undefined };
  },

  /**
   * `lockContainers` and `contextsForUser` in one statement: the containers are locked in id order (the
   * rows are sorted before they are locked), their characters and parties read with them.
   */
  async lockContextsForUser(
    db: Executor,
    userId: string,
    containerIds: string[],
    /** One more column of the caller's, about the user ($1) and each container's party (`p.id`). */
    extraColumn?: string,
  ): Promise<Map<string, LocatedRow>> {
    const unique = [...new Set(containerIds)].sort();
    if (unique.length === 0) return new Map();
    // Every transfer starts here: written once as SQL (inventory.statements.ts), not built per call.
    const rows = await directRows(db, lockContextsStatement(extraColumn), [userId, unique]);
    const located = new Map<string, LocatedRow>();
    for (const row of rows) {
      const found = locatedFrom(row);
      located.set(found.context.container.id, found);
    }
    return located;
  },

  /** A page of the containers in a scope: characters' first (by name, main container first), then parties'. */
  async listInScope(db: Executor, scope: ContainerScope, page: { page: number; perPage: number }) {
    const where = containerScopeCondition(scope);
    const [total] = await db.select({ n: count() }).from(containers).where(where);
    const rows = await db
      .select({ id: containers.id })
      .from(containers)
      .leftJoin(characters, eq(characters.id, containers.characterId))
      .leftJoin(parties, eq(parties.id, containers.partyId))
      .where(where)
      .orderBy(
        sql`${containers.characterId} is null`,
        sql`lower(coalesce(${characters.name}, ${parties.name}))`,
        sql`${containers.isPrimary} desc`,
        asc(containers.createdAt),
        asc(containers.id),
      )
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage);
    return { ids: rows.map((r) => r.id), total: total?.n ?? 0 };
  },

  /** The containers of several characters, each character's main container first. */
  async listForCharacters(db: Executor, characterIds: string[]): Promise<ContainerRow[]> {
    if (characterIds.length === 0) return [];
    return db
      .select()
      .from(containers)
      .where(inArray(containers.characterId, characterIds))
      .orderBy(sql`${containers.isPrimary} desc`, asc(containers.createdAt), asc(containers.id));
  },

  /**
   * The containers of several characters and parties (GET /containers/by_owner), each owner's main first,
   * located for the user as `contextsForUser` locates them, with their usage (`usage`) read alongside: the
   * two statements name the owners rather than each container, so neither waits for a list of ids.
   */
  async locateForOwners(
    db: Executor,
    userId: string,
    characterIds: string[],
    partyIds: string[],
  ): Promise<{
    located: { context: ContainerContext; role: MembershipRole | null; hasCharacter: boolean }[];
    usage: Map<string, ContainerUsage>;
  }> {
    const owners = ownersCondition(characterIds, partyIds);
    if (!owners) return { located: [], usage: new Map() };
    const [rows, usage] = await Promise.all([
      db
        .select({
          ...contextColumns,
          role: sql<MembershipRole | null>`(select m.role from ${partyMemberships} m where m.party_id = ${parties.id} and m.user_id = ${userId})`,
          hasCharacter: hasCharacterInParty(parties.id, userId),
        })
        .from(containers)
        .leftJoin(characters, eq(characters.id, containers.characterId))
        .leftJoin(parties, sql`${parties.id} = coalesce(${containers.partyId}, ${characters.partyId})`)
        .where(owners)
        .orderBy(sql`${containers.isPrimary} desc`, asc(containers.createdAt), asc(containers.id)),
      usageWhere(db, owners, true),
    ]);
    return {
      located: rows.map((row) => ({
        context: toContext(row),
        role: row.role,
        hasCharacter: row.hasCharacter,
      })),
      usage,
    };
  },

  async usage(db: Executor, containerIds: string[]): Promise<Map<string, ContainerUsage>> {
    if (containerIds.length === 0) return new Map();
    return usageWhere(db, inArray(itemInstances.containerId, containerIds), false);
  },

  async listForOwner(
    db: Executor,
    owner: { characterId?: string; partyId?: string },
  ): Promise<ContainerRow[]> {
    const where = owner.characterId
      ? eq(containers.characterId, owner.characterId)
      : eq(containers.partyId, owner.partyId ?? '');
    return db
      .select()
      .from(containers)
      .where(where)
      .orderBy(sql`${containers.isPrimary} desc`, asc(containers.createdAt));
  },

  /**
   * Serialises the creates of one owner's containers, and the deletions of a party's, until the caller's
   * transaction ends, so that the count each one checks (MAX_CONTAINERS_PER_OWNER; a party's last
   * container) includes the others. No row is locked: it cannot wait on, or hold up, a move or an edit.
   */
  async lockOwnerContainers(db: Executor, owner: { characterId?: string; partyId?: string }) {
    const key = owner.characterId ? `character:${owner.characterId}` : `party:${owner.partyId ?? ''}`;
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`new_container:${key}`}))`);
  },

  /** How many containers the owner holds (MAX_CONTAINERS_PER_OWNER). */
  async countForOwner(db: Executor, owner: { characterId?: string; partyId?: string }): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(containers)
      .where(
        owner.characterId
          ? eq(containers.characterId, owner.characterId)
          : eq(containers.partyId, owner.partyId ?? ''),
      );
    return Number(row?.n ?? 0);
  },

  async insertContainer(db: Executor, values: typeof containers.$inferInsert): Promise<ContainerRow> {
    const [row] = await db.insert(containers).values(values).returning();
    if (!row) throw new Error('insert containers returned nothing');
    return row;
  },

  async updateContainer(
    db: Executor,
    id: string,
    changes: Partial<typeof containers.$inferInsert>,
  ): Promise<ContainerRow> {
    const [row] = await db
      .update(containers)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(containers.id, id))
      .returning();
    if (!row) throw new Error(`container ${id} vanished during update`);
    return row;
  },

  async deleteContainer(db: Executor, id: string) {
    await db.delete(containers).where(eq(containers.id, id));
  },

  /** What an item's sheet adds to its row: the template's description, and who may open its page. */
  async templateForSheet(db: Executor, id: string) {
    const [row] = await db
      .select({
        description: itemTemplates.description,
        visibility: itemTemplates.visibility,
        creatorId: itemTemplates.creatorId,
        deletedAt: itemTemplates.deletedAt,
      })
      .from(itemTemplates)
      .where(eq(itemTemplates.id, id))
      .limit(1);
    return row;
  },

  async template(db: Executor, id: string): Promise<TemplateRow | undefined> {
    const [row] = await db.select().from(itemTemplates).where(eq(itemTemplates.id, id)).limit(1);
    return row;
  },

  /** A stack locked (not its template), with its template, in one statement. */
  async lockInstanceWithTemplate(
    db: Executor,
    id: string,
  ): Promise<{ instance: InstanceRow; template: TemplateRow } | undefined> {
    const [row] = await db
      .select({ instance: itemInstances, template: itemTemplates })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(eq(itemInstances.id, id))
      .for('update', { of: itemInstances });
    return row;
  },

  /**
   * What a move reads, in one statement: the stack locked with its template and the character owning its
   * container, and the stacks of the same template already in the target container that still have room
   * (locked too, for topping up, oldest first). The caller holds both containers' locks.
   */
  async lockMove(
    db: Executor,
    id: string,
    targetContainerId: string,
  ): Promise<
    | {
        instance: InstanceRow;
        template: TemplateRow;
        sourceCharacterId: string | null;
        targetStacks: InstanceRow[];
      }
    | undefined
  > {
    const rows = (await directRows(db, lockMoveStatement, [id, targetContainerId])).map(moveRowFrom);
    const moved = rows.find((row) => row.instance.id === id);
    if (!moved) return undefined;
    return {
      instance: moved.instance,
      template: moved.template,
      sourceCharacterId: moved.characterId,
      targetStacks: rows
        .filter((row) => row.instance.id !== id && row.instance.containerId === targetContainerId)
        .map((row) => row.instance),
    };
  },

  /** Sets the quantity of several stacks in one statement; answers the rows as updated. */
  async setQuantities(db: Executor, changes: { id: string; quantity: number }[]): Promise<InstanceRow[]> {
    if (changes.length === 0) return [];
    const rows = await directRows(db, setQuantitiesStatement, [
      new Date().toISOString(),
      changes.map((c) => c.id),
      changes.map((c) => c.quantity),
    ]);
    return rows.map((row) => instanceAt(row));
  },

  /**
   * `setQuantities` and one ledger row in one statement (a transfer's writes): the rows and the row's id.
   * `commits`: the statement is the transaction's last (db/direct.ts).
   */
  async setQuantitiesRecording(
    db: Executor,
    changes: { id: string; quantity: number }[],
    entry: LedgerEntry,
    options: { commits?: boolean } = {},
  ): Promise<{ id: string; rows: InstanceRow[] }> {
    const { id, rows } = await ledgerRepository.recordAlongside(
      db,
      entry,
      setQuantitiesStatement,
      [new Date().toISOString(), changes.map((c) => c.id), changes.map((c) => c.quantity)],
      options,
    );
    return { id, rows: rows.map((row) => instanceAt(row)) };
  },

  async lockInstance(db: Executor, id: string): Promise<InstanceRow | undefined> {
    const [row] = await db.select().from(itemInstances).where(eq(itemInstances.id, id)).for('update');
    return row;
  },

  async instance(db: Executor, id: string): Promise<InstanceRow | undefined> {
    const [row] = await db.select().from(itemInstances).where(eq(itemInstances.id, id)).limit(1);
    return row;
  },

  async instancesWithTemplates(db: Executor, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .select({ instance: itemInstances, template: itemTemplates })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(inArray(itemInstances.id, ids));
  },

  /** Plain stacks (no overrides) of a template in a container, oldest first, locked for topping up. */
  async plainStacks(db: Executor, containerId: string, templateId: string): Promise<InstanceRow[]> {
    const rows = await db
      .select()
      .from(itemInstances)
      .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)))
      .orderBy(asc(itemInstances.createdAt), asc(itemInstances.id))
      .for('update');
    return rows;
  },

  /** `plainStacks` of several templates at once (a purse's five coins), oldest first, in one statement. */
  async stacksOfTemplates(db: Executor, containerId: string, templateIds: string[]): Promise<InstanceRow[]> {
    if (templateIds.length === 0) return [];
    return db
      .select()
      .from(itemInstances)
      .where(
        and(eq(itemInstances.containerId, containerId), inArray(itemInstances.itemTemplateId, templateIds)),
      )
      .orderBy(asc(itemInstances.createdAt), asc(itemInstances.id))
      .for('update');
  },

  /** The seeded coin templates with these system keys (`coinSystemKey`), in one statement. */
  async templatesBySystemKey(db: Executor, systemKeys: string[]): Promise<TemplateRow[]> {
    return db.select().from(itemTemplates).where(inArray(itemTemplates.systemKey, systemKeys));
  },

  async allInstances(db: Executor, containerId: string): Promise<InstanceRow[]> {
    return db.select().from(itemInstances).where(eq(itemInstances.containerId, containerId)).for('update');
  },

  /**
   * New plain stacks in one container, as `insertInstance` writes a placement's (no instance data, no
   * notes, identified), in multi-row inserts of `STACK_INSERT_BATCH`; answers their ids in the given order.
   */
  async insertStacks(
    db: Executor,
    containerId: string,
    stacks: { itemTemplateId: string; quantity: number }[],
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let at = 0; at < stacks.length; at += STACK_INSERT_BATCH) {
      const rows = await db
        .insert(itemInstances)
        .values(
          stacks.slice(at, at + STACK_INSERT_BATCH).map((stack) => ({
            containerId,
            itemTemplateId: stack.itemTemplateId,
            quantity: stack.quantity,
            instanceData: {},
            notes: '',
            isIdentified: true,
          })),
        )
        // PostgreSQL answers a multi-row insert's rows in the order of its values.
        .returning({ id: itemInstances.id });
      for (const row of rows) ids.push(row.id);
    }
    return ids;
  },

  /** Several templates in one statement, by id (a deployment's lines). */
  async templates(db: Executor, ids: string[]): Promise<Map<string, TemplateRow>> {
    if (ids.length === 0) return new Map();
    const rows = await db.select().from(itemTemplates).where(inArray(itemTemplates.id, ids));
    return new Map(rows.map((row) => [row.id, row]));
  },

  async insertInstance(db: Executor, values: typeof itemInstances.$inferInsert): Promise<InstanceRow> {
    // What moves and placements set goes through the statement written once; anything else (an id or a
    // time chosen by the caller) through drizzle.
    if (values.id === undefined && values.createdAt === undefined && values.updatedAt === undefined) {
      const [created] = await directRows(db, insertInstanceStatement, [
        values.containerId,
        values.itemTemplateId,
        values.quantity,
        values.instanceData === undefined ? null : JSON.stringify(values.instanceData),
        values.notes ?? null,
        values.isIdentified ?? null,
      ]);
      if (!created) throw new Error('insert item_instances returned nothing');
      return instanceAt(created);
    }
    const [row] = await db.insert(itemInstances).values(values).returning();
    if (!row) throw new Error('insert item_instances returned nothing');
    return row;
  },

  async updateInstance(
    db: Executor,
    id: string,
    changes: Partial<typeof itemInstances.$inferInsert>,
  ): Promise<InstanceRow> {
    const [row] = await db
      .update(itemInstances)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(itemInstances.id, id))
      .returning();
    if (!row) throw new Error(`item instance ${id} vanished during update`);
    return row;
  },

  async deleteInstance(db: Executor, id: string) {
    await directRows(db, deleteInstanceStatement, [id]);
  },

  /** Items of one container, or of every container of a scope (GET /item_instances). */
  async listItems(db: Executor, scope: string | ContainerScope, filter: ItemFilter) {
    const conditions: (SQL | undefined)[] = [
      typeof scope === 'string'
        ? eq(itemInstances.containerId, scope)
        : sql`${itemInstances.containerId} in (select ${containers.id} from ${containers} where ${containerScopeCondition(scope)})`,
    ];
    if (filter.search) {
      conditions.push(itemSearch(sql`${foldedRegex(filter.search)}`));
    }
    if (filter.rarity)
      conditions.push(ilike(sql`${itemTemplates.metadata}->>'rarity'`, escapeLike(filter.rarity)));
    if (filter.minValueCp !== undefined) conditions.push(sql`${rangedValueCp} >= ${filter.minValueCp}`);
    if (filter.maxValueCp !== undefined) conditions.push(sql`${rangedValueCp} <= ${filter.maxValueCp}`);
    const where = and(...conditions);
    if (typeof scope === 'string' && isDatabase(db)) {
      const page = await containerPage(db, scope, filter);
      if (page.rows.length > 0 || filter.page === 1) return page;
      const [total] = await db
        .select({ n: count() })
        .from(itemInstances)
        .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
        .where(where);
      return { rows: page.rows, total: total?.n ?? 0 };
    }
    // The page and the total in one statement; only a page past the end needs a second one for the total.
    const query = db
      .select({
        instance: itemInstances,
        template: instanceTemplateColumns,
        total: sql<number>`count(*) over ()`,
      })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(where)
      .orderBy(
        asc(sql`coalesce(${itemInstances.instanceData}->>'name_override', ${itemTemplates.name})`),
        asc(itemInstances.createdAt),
        asc(itemInstances.id),
      )
      .limit(filter.perPage)
      .offset((filter.page - 1) * filter.perPage);
    // One container's items (GET containers/{id}/items) is the hot list: its statement is named by which
    // filters it has and whether it skips rows (drizzle leaves `offset 0` out), the only parts of its text
    // that vary (db/statements.ts). A scope's condition varies more; it stays unnamed.
    const page =
      typeof scope === 'string'
        ? await query
            .prepare(
              statementName(
                'inventory_container_items',
                [filter.search, filter.rarity, filter.minValueCp, filter.maxValueCp, filter.page > 1]
                  .map((part) => (part === undefined || part === false ? '0' : '1'))
                  .join(''),
              ),
            )
            .execute()
        : await query;
    const rows = page.map(({ instance, template }) => ({ instance, template }));
    if (page.length > 0 || filter.page === 1) return { rows, total: Number(page[0]?.total ?? 0) };
    const [total] = await db
      .select({ n: count() })
      .from(itemInstances)
      .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /**
   * Locks a character's row: attuning and giving take it first (before any container), so that two
   * attunements of the same character are decided one after the other.
   */
  async lockCharacter(db: Executor, characterId: string) {
    const [row] = await db
      .select({
        id: characters.id,
        name: characters.name,
        userId: characters.userId,
        partyId: characters.partyId,
      })
      .from(characters)
      .where(eq(characters.id, characterId))
      .for('update');
    return row;
  },

  /** How many items a character is attuned to, over all its containers (a stack of n counts n). */
  async attunedCount(db: Executor, characterId: string, exceptInstanceId?: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${itemInstances.quantity}), 0)` })
      .from(itemInstances)
      .innerJoin(containers, eq(containers.id, itemInstances.containerId))
      .where(
        and(
          eq(containers.characterId, characterId),
          sql`(${itemInstances.instanceData}->>'is_attuned')::boolean is true`,
          exceptInstanceId ? sql`${itemInstances.id} <> ${exceptInstanceId}` : undefined,
        ),
      );
    return Number(row?.n ?? 0);
  },

  /** Who owns each of these characters and in which party they are (to decide who may read them). */
  async characters(db: Executor, characterIds: string[]) {
    if (characterIds.length === 0) return [];
    return db
      .select({ id: characters.id, userId: characters.userId, partyId: characters.partyId })
      .from(characters)
      .where(inArray(characters.id, characterIds));
  },

  /**
   * Keeps the character from being deleted until the transaction ends (FOR KEY SHARE, the lock a foreign key
   * check takes, which its other changes allow): a deletion that committed first leaves no row, and one that
   * comes later waits, so what is written pointing at the character never meets it deleted.
   */
  async holdCharacter(db: Executor, characterId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: characters.id })
      .from(characters)
      .where(eq(characters.id, characterId))
      .for('key share');
    return Boolean(row);
  },

  async character(db: Executor, characterId: string) {
    const [row] = await db
      .select({
        id: characters.id,
        name: characters.name,
        userId: characters.userId,
        partyId: characters.partyId,
      })
      .from(characters)
      .where(eq(characters.id, characterId))
      .limit(1);
    return row;
  },

  async containerCharacterId(db: Executor, containerId: string): Promise<string | null | undefined> {
    const [row] = await db
      .select({ characterId: containers.characterId })
      .from(containers)
      .where(eq(containers.id, containerId))
      .limit(1);
    return row?.characterId;
  },

  async primaryContainerId(db: Executor, characterId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ id: containers.id })
      .from(containers)
      .where(and(eq(containers.characterId, characterId), eq(containers.isPrimary, true)))
      .limit(1);
    return row?.id;
  },
};
