import type { PartySortKey, SortDirection } from '@haversack/contracts';
import {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { parties, partyInvitations, partyMemberships } from '../../db/schema/parties.js';
import { foldedRegex } from '../../lib/search-fold.js';

export type PartyRow = typeof parties.$inferSelect;
export type MembershipRow = typeof partyMemberships.$inferSelect;
export type InvitationRow = typeof partyInvitations.$inferSelect;

export interface PartyCounts {
  memberCount: number;
  playerCount: number;
  characterCount: number;
  gmName: string | null;
}

const memberCount = sql<number>`(select count(*)::int from ${partyMemberships} m where m.party_id = ${parties.id})`;
const playerCount = sql<number>`(select count(*)::int from ${partyMemberships} m where m.party_id = ${parties.id} and m.role = 'player')`;
const characterCount = sql<number>`(select count(*)::int from ${characters} c where c.party_id = ${parties.id})`;

export interface PartyListFilter {
  userId: string;
  publicOnly: boolean;
  search?: string;
  owned?: boolean;
  member?: boolean;
  role?: MembershipRow['role'];
  isArchived?: boolean;
  gameSystem?: string;
  sort?: PartySortKey;
  direction?: SortDirection;
  page: number;
  perPage: number;
}

const sortColumns = {
  name: sql`lower(${parties.name})`,
  created_at: parties.createdAt,
  updated_at: parties.updatedAt,
  game_system: sql`lower(${parties.gameSystem})`,
  member_count: memberCount,
} satisfies Record<PartySortKey, unknown>;

/**
 * spec/01 §3 sort and direction. Without `sort`: archived last, most recently changed first, and
 * `direction` turns the date round. The id breaks ties, so pages never overlap.
 */
function partyOrder(filter: PartyListFilter): SQL[] {
  const by = (column: SQL | AnyColumn, direction: SortDirection) =>
    direction === 'desc' ? desc(column) : asc(column);
  if (!filter.sort) {
    return [asc(parties.isArchived), by(parties.updatedAt, filter.direction ?? 'desc'), asc(parties.id)];
  }
  return [by(sortColumns[filter.sort], filter.direction ?? 'asc'), asc(parties.id)];
}

/** Members of the parties with their characters in the party, GM first, then by joining date. */
async function memberRows(db: Executor, partyIds: string[]) {
  const rows = await db
    .select({ membership: partyMemberships, username: users.username, email: users.email })
    .from(partyMemberships)
    .innerJoin(users, eq(users.id, partyMemberships.userId))
    .where(inArray(partyMemberships.partyId, partyIds))
    .orderBy(
      sql`case ${partyMemberships.role} when 'gm' then 0 when 'manager' then 1 when 'player' then 2 else 3 end`,
      asc(partyMemberships.createdAt),
    );
  const partyCharacters = await db
    .select({
      id: characters.id,
      name: characters.name,
      userId: characters.userId,
      partyId: characters.partyId,
      primaryContainerId: containers.id,
    })
    .from(characters)
    .leftJoin(containers, and(eq(containers.characterId, characters.id), eq(containers.isPrimary, true)))
    .where(inArray(characters.partyId, partyIds))
    .orderBy(asc(characters.name));
  return rows.map((row) => ({
    ...row,
    characters: partyCharacters
      .filter((c) => c.userId === row.membership.userId && c.partyId === row.membership.partyId)
      .map(({ partyId: _partyId, ...c }) => c),
  }));
}

/**
 * What a lock of a party's shop or loot reads in its own statement (issue 13 §2): the party's name, GM and
 * archived flag, the user's role there and whether they play a character in it. The caller joins `parties`
 * on `partyId`.
 */
export function partyAccessColumns(partyId: AnyColumn | SQL, userId: string) {
  return {
    party: {
      name: parties.name,
      gameMasterId: parties.gameMasterId,
      isArchived: parties.isArchived,
      itemConjuring: parties.itemConjuring,
    },
    role: sql<
      MembershipRow['role'] | null
    >`(select m.role from party_memberships m where m.party_id = ${partyId} and m.user_id = ${userId})`,
    hasCharacter: hasCharacterInParty(partyId, userId),
  };
}

/**
 * DESIGN §4 "has a character in this party", the half of who may act on a party's own containers that
 * the role does not decide (inventory.policy `mayActOnPartyContainers`): the one SQL of it. Every path
 * that asks (create, reads, moves, shops and loot) reads it through here, with the rest of what it reads;
 * the statements written once as SQL text take it as `hasCharacterInPartyText`.
 */
export function hasCharacterInParty(
  partyId: SQLWrapper | AnyColumn,
  userId: SQLWrapper | string,
): SQL<boolean> {
  return sql<boolean>`exists (select 1 from characters pc where pc.party_id = ${partyId} and pc.user_id = ${userId})`;
}

/** `hasCharacterInParty` as SQL text, given the SQL expressions of the party's and the user's ids. */
export function hasCharacterInPartyText(partyId: string, userId: string): string {
  return new PgDialect().sqlToQuery(hasCharacterInParty(sql.raw(partyId), sql.raw(userId))).sql;
}

export const partiesRepository = {
  async insertParty(db: Executor, values: typeof parties.$inferInsert): Promise<PartyRow> {
    const [row] = await db.insert(parties).values(values).returning();
    if (!row) throw new Error('insert parties returned nothing');
    return row;
  },

  async updateParty(
    db: Executor,
    id: string,
    changes: Partial<typeof parties.$inferInsert>,
  ): Promise<PartyRow> {
    const [row] = await db
      .update(parties)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(parties.id, id))
      .returning();
    if (!row) throw new Error(`party ${id} vanished during update`);
    return row;
  },

  async deleteParty(db: Executor, id: string) {
    await db.delete(parties).where(eq(parties.id, id));
  },

  /**
   * The party with the user's role in it and whether they have a character there (`hasCharacterInParty`),
   * in one statement: what a create of a party container, or a list of a party's shops or loot, decides by.
   */
  async findPartyWithAccess(
    db: Executor,
    partyId: string,
    userId: string,
    options: { lock?: 'share' } = {},
  ): Promise<{ party: PartyRow; role: MembershipRow['role'] | null; hasCharacter: boolean } | undefined> {
    // Qualified by hand: drizzle names a column of a one-table select bare, which the subqueries would
    // read as their own table's.
    const { role, hasCharacter } = partyAccessColumns(sql`${parties}.id`, userId);
    const query = db
      .select({ party: parties, role, hasCharacter })
      .from(parties)
      .where(eq(parties.id, partyId))
      .limit(1);
    // `lock: 'share'` as findParty takes it (what brings new holdings into the party).
    const [row] = options.lock ? await query.for(options.lock) : await query;
    return row;
  },

  /**
   * `lock: 'no key update'` serialises the party's changes as `true` does, without making wait the rows
   * that merely refer to it (a foreign key's check takes a key share lock, which that lock allows): a move
   * that meanwhile tells a member what it brought them writes a notice naming the party. `lock: 'share'`
   * is for what brings new holdings into the party (a shop or a loot deployed): its deletion, which holds
   * the party as `'no key update'` before it gathers what it destroys, takes turns with it.
   */
  async findParty(
    db: Executor,
    id: string,
    options: { lock?: boolean | 'no key update' | 'share' } = {},
  ): Promise<PartyRow | undefined> {
    const query = db.select().from(parties).where(eq(parties.id, id)).limit(1);
    const [row] = options.lock
      ? await query.for(options.lock === true ? 'update' : options.lock)
      : await query;
    return row;
  },

  /**
   * Parties about to change, held as `lock: 'no key update'` holds one, in id order (an account's
   * deletion, before what it destroys of them, as a party's deletion does).
   */
  async lockPartiesForChange(db: Executor, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await db
      .select({ id: parties.id })
      .from(parties)
      .where(inArray(parties.id, ids))
      .orderBy(asc(parties.id))
      .for('no key update');
  },

  /** The containers of the party's characters, unlocked (the caller locks them in id order). */
  async characterContainerIds(db: Executor, partyId: string): Promise<string[]> {
    const rows = await db
      .select({ id: containers.id })
      .from(containers)
      .innerJoin(characters, eq(characters.id, containers.characterId))
      .where(eq(characters.partyId, partyId));
    return rows.map((row) => row.id);
  },

  async findPartyByCode(db: Executor, joinCode: string): Promise<PartyRow | undefined> {
    const [row] = await db.select().from(parties).where(eq(parties.joinCode, joinCode)).limit(1);
    return row;
  },

  async joinCodeTaken(db: Executor, joinCode: string): Promise<boolean> {
    const [row] = await db
      .select({ id: parties.id })
      .from(parties)
      .where(eq(parties.joinCode, joinCode))
      .limit(1);
    return Boolean(row);
  },

  async counts(db: Executor, partyIds: string[]): Promise<Map<string, PartyCounts>> {
    if (partyIds.length === 0) return new Map();
    const rows = await db
      .select({ id: parties.id, memberCount, playerCount, characterCount, gmName: users.username })
      .from(parties)
      .leftJoin(users, eq(users.id, parties.gameMasterId))
      .where(inArray(parties.id, partyIds));
    return new Map(
      rows.map((r) => [
        r.id,
        {
          memberCount: r.memberCount,
          playerCount: r.playerCount,
          characterCount: r.characterCount,
          gmName: r.gmName,
        },
      ]),
    );
  },

  async memberships(db: Executor, userId: string, partyIds: string[]): Promise<Map<string, MembershipRow>> {
    if (partyIds.length === 0) return new Map();
    const rows = await db
      .select()
      .from(partyMemberships)
      .where(and(eq(partyMemberships.userId, userId), inArray(partyMemberships.partyId, partyIds)));
    return new Map(rows.map((r) => [r.partyId, r]));
  },

  async list(db: Executor, filter: PartyListFilter): Promise<{ rows: PartyRow[]; total: number }> {
    const conditions: (SQL | undefined)[] = [];
    const myMembership = sql`exists (select 1 from ${partyMemberships} m where m.party_id = ${parties.id} and m.user_id = ${filter.userId}${
      filter.role ? sql` and m.role = ${filter.role}` : sql``
    })`;
    if (filter.publicOnly) {
      conditions.push(eq(parties.isPublic, true), eq(parties.isArchived, false));
      if (filter.role) conditions.push(myMembership);
    } else {
      conditions.push(myMembership);
    }
    if (filter.owned === true) conditions.push(eq(parties.gameMasterId, filter.userId));
    if (filter.owned === false || filter.member === true)
      conditions.push(ne(parties.gameMasterId, filter.userId));
    if (filter.isArchived !== undefined && !filter.publicOnly)
      conditions.push(eq(parties.isArchived, filter.isArchived));
    if (filter.gameSystem) conditions.push(eq(parties.gameSystem, filter.gameSystem));
    if (filter.search) {
      const pattern = foldedRegex(filter.search);
      conditions.push(
        or(
          sql`${parties.name} ~ ${pattern}`,
          sql`${parties.description} ~ ${pattern}`,
          sql`${parties.gameSystem} ~ ${pattern}`,
          sql`${parties.setting} ~ ${pattern}`,
        ),
      );
    }
    const where = and(...conditions);
    const [totalRow] = await db.select({ total: count() }).from(parties).where(where);
    const rows = await db
      .select()
      .from(parties)
      .where(where)
      .orderBy(...partyOrder(filter))
      .limit(filter.perPage)
      .offset((filter.page - 1) * filter.perPage);
    return { rows, total: totalRow?.total ?? 0 };
  },

  async membership(db: Executor, partyId: string, userId: string, options: { lock?: boolean } = {}) {
    const query = db
      .select()
      .from(partyMemberships)
      .where(and(eq(partyMemberships.partyId, partyId), eq(partyMemberships.userId, userId)))
      .limit(1);
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async insertMembership(db: Executor, values: typeof partyMemberships.$inferInsert): Promise<MembershipRow> {
    const [row] = await db.insert(partyMemberships).values(values).returning();
    if (!row) throw new Error('insert party_memberships returned nothing');
    return row;
  },

  async updateRole(db: Executor, membershipId: string, role: MembershipRow['role']): Promise<MembershipRow> {
    const [row] = await db
      .update(partyMemberships)
      .set({ role })
      .where(eq(partyMemberships.id, membershipId))
      .returning();
    if (!row) throw new Error(`membership ${membershipId} vanished during update`);
    return row;
  },

  /**
   * The member a party is being handed to, locked for the hand-over. Their account is key-share locked
   * first: an admin deleting it at the same moment then either finishes before (no member: refused) or
   * waits until the party is theirs (and hands it on again), instead of the cascade on
   * `parties.game_master_id` deleting the party, or the two transactions deadlocking on their rows.
   */
  async lockHandOverTarget(db: Executor, partyId: string, userId: string) {
    const [account] = await db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
      .for('key share');
    const membership = account ? await this.membership(db, partyId, userId, { lock: true }) : undefined;
    return account && membership ? { membership, username: account.username } : undefined;
  },

  /**
   * The party becomes the member's: their role becomes gm and they are its `game_master_id`. The caller
   * holds the party's row lock. A GM's hand-over and the admin's deletion of an owner's account both use it.
   */
  async handOver(db: Executor, partyId: string, successor: { membershipId: string; userId: string }) {
    await db
      .update(partyMemberships)
      .set({ role: 'gm' })
      .where(eq(partyMemberships.id, successor.membershipId));
    await db
      .update(parties)
      .set({ gameMasterId: successor.userId, updatedAt: new Date() })
      .where(eq(parties.id, partyId));
  },

  async deleteMembership(db: Executor, membershipId: string) {
    await db.delete(partyMemberships).where(eq(partyMemberships.id, membershipId));
  },

  async members(db: Executor, partyId: string) {
    return (await this.membersOf(db, [partyId])).get(partyId) ?? [];
  },

  /** The member lists of several parties in two queries (the party list's `include=members`). */
  async membersOf(db: Executor, partyIds: string[]) {
    const lists = new Map<string, Awaited<ReturnType<typeof memberRows>>>();
    if (partyIds.length === 0) return lists;
    for (const row of await memberRows(db, partyIds)) {
      const list = lists.get(row.membership.partyId) ?? [];
      list.push(row);
      lists.set(row.membership.partyId, list);
    }
    return lists;
  },

  /**
   * A member's characters in a party, locked in id order, as they are about to leave it with them; held as
   * a change of the character holds it (no key update), not `for update`: a purchase request filed
   * meanwhile names the character, and its foreign key's check would wait for this lock while the purchase
   * holds the containers the leaving waits for (a deadlock on PostgreSQL).
   */
  async lockCharactersOf(db: Executor, partyId: string, userId: string) {
    return db
      .select({ id: characters.id, name: characters.name })
      .from(characters)
      .where(and(eq(characters.partyId, partyId), eq(characters.userId, userId)))
      .orderBy(asc(characters.id))
      .for('no key update');
  },

  /** Characters leave a party with their player. */
  async unassignCharacters(db: Executor, partyId: string, userId: string) {
    await db
      .update(characters)
      .set({ partyId: null, updatedAt: new Date() })
      .where(and(eq(characters.partyId, partyId), eq(characters.userId, userId)));
  },

  async countCreatedBy(db: Executor, userId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(parties).where(eq(parties.gameMasterId, userId));
    return row?.n ?? 0;
  },

  /** Parties the user joined, not counting the ones they run. */
  async countJoinedBy(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(partyMemberships)
      .innerJoin(parties, eq(parties.id, partyMemberships.partyId))
      .where(and(eq(partyMemberships.userId, userId), ne(parties.gameMasterId, userId)));
    return row?.n ?? 0;
  },

  async insertInvitation(db: Executor, values: typeof partyInvitations.$inferInsert): Promise<InvitationRow> {
    const [row] = await db.insert(partyInvitations).values(values).returning();
    if (!row) throw new Error('insert party_invitations returned nothing');
    return row;
  },

  async findInvitation(db: Executor, id: string, options: { lock?: boolean } = {}) {
    const query = db.select().from(partyInvitations).where(eq(partyInvitations.id, id)).limit(1);
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async pendingInvitation(db: Executor, partyId: string, userId: string) {
    const [row] = await db
      .select()
      .from(partyInvitations)
      .where(
        and(
          eq(partyInvitations.partyId, partyId),
          eq(partyInvitations.invitedUserId, userId),
          eq(partyInvitations.status, 'pending'),
        ),
      )
      .limit(1);
    return row;
  },

  async setInvitationStatus(db: Executor, id: string, status: InvitationRow['status']) {
    await db
      .update(partyInvitations)
      .set({ status, respondedAt: new Date() })
      .where(eq(partyInvitations.id, id));
  },

  async invitations(
    db: Executor,
    where: { id?: string; partyId?: string; invitedUserId?: string; pendingOnly?: boolean },
  ) {
    const rows = await db
      .select({ invitation: partyInvitations, partyName: parties.name })
      .from(partyInvitations)
      .innerJoin(parties, eq(parties.id, partyInvitations.partyId))
      .where(
        and(
          where.id ? eq(partyInvitations.id, where.id) : undefined,
          where.partyId ? eq(partyInvitations.partyId, where.partyId) : undefined,
          where.invitedUserId ? eq(partyInvitations.invitedUserId, where.invitedUserId) : undefined,
          where.pendingOnly ? eq(partyInvitations.status, 'pending') : undefined,
        ),
      )
      .orderBy(desc(partyInvitations.createdAt));
    const userIds = [...new Set(rows.flatMap((r) => [r.invitation.invitedUserId, r.invitation.invitedById]))];
    const names = userIds.length
      ? await db
          .select({ id: users.id, username: users.username })
          .from(users)
          .where(inArray(users.id, userIds))
      : [];
    const nameOf = new Map(names.map((n) => [n.id, n.username]));
    return rows.map((r) => ({
      ...r,
      invitedName: nameOf.get(r.invitation.invitedUserId) ?? '',
      inviterName: nameOf.get(r.invitation.invitedById) ?? '',
    }));
  },

  async findUserByUsernameOrEmail(db: Executor, value: { username?: string; email?: string }) {
    const condition = value.username
      ? sql`lower(${users.username}) = lower(${value.username})`
      : sql`lower(${users.email}) = lower(${value.email ?? ''})`;
    const [row] = await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(condition)
      .limit(1);
    return row;
  },
};
