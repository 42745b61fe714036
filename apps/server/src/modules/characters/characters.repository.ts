import type { CharacterSortKey, SortDirection } from '@haversack/contracts';
import { type AnyColumn, and, asc, count, desc, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { parties } from '../../db/schema/parties.js';
import { escapeLike } from '../../lib/like-pattern.js';
import { foldedRegex } from '../../lib/search-fold.js';

export type CharacterRow = typeof characters.$inferSelect;

export interface CharacterView {
  character: CharacterRow;
  partyName: string | null;
  playerName: string | null;
  primaryContainerId: string | null;
}

function viewQuery(db: Executor) {
  return db
    .select({
      character: characters,
      partyName: parties.name,
      playerName: users.username,
      primaryContainerId: containers.id,
    })
    .from(characters)
    .leftJoin(parties, eq(parties.id, characters.partyId))
    .leftJoin(users, eq(users.id, characters.userId))
    .leftJoin(containers, and(eq(containers.characterId, characters.id), eq(containers.isPrimary, true)));
}

export interface CharacterFilter {
  userId: string;
  search?: string;
  race?: string;
  characterClass?: string;
  minLevel?: number;
  maxLevel?: number;
  partyId?: string;
  sort?: CharacterSortKey;
  direction?: SortDirection;
  page: number;
  perPage: number;
}

const sortColumns = {
  name: sql`lower(${characters.name})`,
  level: characters.level,
  race: sql`lower(${characters.race})`,
  character_class: sql`lower(${characters.characterClass})`,
  created_at: characters.createdAt,
  updated_at: characters.updatedAt,
} satisfies Record<CharacterSortKey, unknown>;

/** spec/01 §3 sort and direction (ascending unless told); by name without `sort`; the id breaks ties. */
function characterOrder(filter: CharacterFilter): SQL[] {
  const column: SQL | AnyColumn = filter.sort ? sortColumns[filter.sort] : characters.name;
  const ordered = filter.direction === 'desc' ? desc(column) : asc(column);
  return filter.sort && filter.sort !== 'name'
    ? [ordered, asc(characters.name), asc(characters.id)]
    : [ordered, asc(characters.id)];
}

export const charactersRepository = {
  async insert(db: Executor, values: typeof characters.$inferInsert): Promise<CharacterRow> {
    const [row] = await db.insert(characters).values(values).returning();
    if (!row) throw new Error('insert characters returned nothing');
    return row;
  },

  async update(
    db: Executor,
    id: string,
    changes: Partial<typeof characters.$inferInsert>,
  ): Promise<CharacterRow> {
    const [row] = await db
      .update(characters)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(characters.id, id))
      .returning();
    if (!row) throw new Error(`character ${id} vanished during update`);
    return row;
  },

  /**
   * Locks the character's containers, as a move or an add into them does first: a check of what they hold
   * then waits for the moves under way, and the moves after it see the character as it is now.
   */
  async lockContainersOf(db: Executor, id: string): Promise<void> {
    await db
      .select({ id: containers.id })
      .from(containers)
      .where(eq(containers.characterId, id))
      .orderBy(containers.id)
      .for('update');
  },

  /** Whether any of the character's containers holds an item (coins included). */
  async holdsItems(db: Executor, id: string): Promise<boolean> {
    const [row] = await db
      .select({ id: itemInstances.id })
      .from(itemInstances)
      .innerJoin(containers, eq(containers.id, itemInstances.containerId))
      .where(eq(containers.characterId, id))
      .limit(1);
    return row !== undefined;
  },

  async delete(db: Executor, id: string) {
    await db.delete(characters).where(eq(characters.id, id));
  },

  /**
   * `lock: 'no key update'` serialises the changes of one character as `true` does, without making wait the
   * rows that merely refer to it (a foreign key's check takes a key share lock, which that lock allows):
   * a purchase approved meanwhile writes rows naming the character.
   */
  async find(
    db: Executor,
    id: string,
    options: { lock?: boolean | 'no key update' } = {},
  ): Promise<CharacterRow | undefined> {
    const query = db.select().from(characters).where(eq(characters.id, id)).limit(1);
    const [row] = options.lock
      ? await query.for(options.lock === true ? 'update' : options.lock)
      : await query;
    return row;
  },

  async view(db: Executor, id: string): Promise<CharacterView | undefined> {
    const [row] = await viewQuery(db).where(eq(characters.id, id)).limit(1);
    return row;
  },

  /** A user's own characters, or those of a party when partyId is given (the caller checks membership). */
  async list(db: Executor, filter: CharacterFilter): Promise<{ rows: CharacterView[]; total: number }> {
    const conditions: (SQL | undefined)[] = [
      filter.partyId ? eq(characters.partyId, filter.partyId) : eq(characters.userId, filter.userId),
    ];
    if (filter.search) {
      const pattern = foldedRegex(filter.search);
      conditions.push(
        or(
          sql`${characters.name} ~ ${pattern}`,
          sql`${characters.race} ~ ${pattern}`,
          sql`${characters.characterClass} ~ ${pattern}`,
        ),
      );
    }
    if (filter.race) conditions.push(ilike(characters.race, escapeLike(filter.race)));
    if (filter.characterClass)
      conditions.push(ilike(characters.characterClass, escapeLike(filter.characterClass)));
    if (filter.minLevel !== undefined) conditions.push(gte(characters.level, filter.minLevel));
    if (filter.maxLevel !== undefined) conditions.push(lte(characters.level, filter.maxLevel));
    const where = and(...conditions);
    const [total] = await db.select({ n: count() }).from(characters).where(where);
    const rows = await viewQuery(db)
      .where(where)
      .orderBy(...characterOrder(filter))
      .limit(filter.perPage)
      .offset((filter.page - 1) * filter.perPage);
    return { rows, total: total?.n ?? 0 };
  },

  async countOwnedBy(db: Executor, userId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(characters).where(eq(characters.userId, userId));
    return row?.n ?? 0;
  },
};
