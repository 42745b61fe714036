import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { authSessions, users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { transactions } from '../../db/schema/inventory.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { subscriptions, subscriptionTiers } from '../../db/schema/subscriptions.js';
import { userWritten } from '../../db/user-writes.js';
import { likeContaining } from '../../lib/like-pattern.js';
import { ledgerNewestFirst } from '../ledger/ledger.repository.js';

export type UserRow = typeof users.$inferSelect;

/** The only place that builds the back office's queries on users. */
export const adminUsersRepository = {
  async lockUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1)
      .for('update');
    return row;
  },

  async setAdmin(db: Executor, userId: string, admin: boolean, at: Date): Promise<void> {
    await db.update(users).set({ admin, updatedAt: at }).where(eq(users.id, userId));
    userWritten(userId);
  },

  async listAdmins(db: Executor) {
    return db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        createdAt: users.createdAt,
        suspendedAt: users.suspendedAt,
      })
      .from(users)
      .where(eq(users.admin, true))
      .orderBy(asc(users.email));
  },
};

export interface AdminUserListFilter {
  search?: string;
  tier?: string;
  status?: 'active' | 'suspended';
  admin?: boolean;
}

const tierIdentifier = sql<string>`coalesce(${subscriptionTiers.identifier}, 'tier_free')`;
const lastSeenAt = sql<Date | null>`(select max(${authSessions.lastUsedAt}) from ${authSessions} where ${authSessions.userId} = ${users.id})`;

function listWhere(filter: AdminUserListFilter) {
  const search = filter.search?.trim();
  return and(
    search
      ? or(ilike(users.email, likeContaining(search)), ilike(users.username, likeContaining(search)))
      : undefined,
    filter.tier ? eq(tierIdentifier, filter.tier) : undefined,
    filter.status === 'suspended' ? isNotNull(users.suspendedAt) : undefined,
    filter.status === 'active' ? isNull(users.suspendedAt) : undefined,
    filter.admin === undefined ? undefined : eq(users.admin, filter.admin),
  );
}

export const adminUserListRepository = {
  async list(db: Executor, filter: AdminUserListFilter, page: { limit: number; offset: number }) {
    const where = listWhere(filter);
    const base = () =>
      db
        .select({
          user: users,
          tier: tierIdentifier,
          status: sql<string>`coalesce(${subscriptions.status}, 'active')`,
          lastSeenAt,
        })
        .from(users)
        .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
        .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptions.tierId))
        .where(where);
    const [rows, totals] = await Promise.all([
      base().orderBy(desc(users.createdAt), desc(users.id)).limit(page.limit).offset(page.offset),
      db
        .select({ total: count() })
        .from(users)
        .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
        .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptions.tierId))
        .where(where),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  },

  async summary(db: Executor, userId: string) {
    const [row] = await db
      .select({
        user: users,
        tier: tierIdentifier,
        status: sql<string>`coalesce(${subscriptions.status}, 'active')`,
        lastSeenAt,
      })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
      .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptions.tierId))
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  },

  async lockUser(db: Executor, userId: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
    return row;
  },

  async setSuspension(
    db: Executor,
    userId: string,
    values: { suspendedAt: Date | null; suspendedReason: string | null },
  ): Promise<void> {
    await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, userId));
    userWritten(userId);
  },

  async parties(db: Executor, userId: string) {
    return db
      .select({
        id: parties.id,
        name: parties.name,
        role: partyMemberships.role,
        isArchived: parties.isArchived,
      })
      .from(partyMemberships)
      .innerJoin(parties, eq(parties.id, partyMemberships.partyId))
      .where(eq(partyMemberships.userId, userId))
      .orderBy(asc(parties.name));
  },

  async characters(db: Executor, userId: string) {
    return db
      .select({ id: characters.id, name: characters.name, partyId: characters.partyId })
      .from(characters)
      .where(eq(characters.userId, userId))
      .orderBy(asc(characters.name));
  },

  async sessions(db: Executor, userId: string, limit: number) {
    return db
      .select()
      .from(authSessions)
      .where(eq(authSessions.userId, userId))
      .orderBy(desc(authSessions.lastUsedAt))
      .limit(limit);
  },

  async recentTransactions(db: Executor, userId: string, limit: number) {
    return db
      .select({
        id: transactions.id,
        transactionType: transactions.transactionType,
        summary: transactions.summary,
        source: transactions.source,
        transactionDate: transactions.transactionDate,
      })
      .from(transactions)
      .where(eq(transactions.actorId, userId))
      .orderBy(...ledgerNewestFirst)
      .limit(limit);
  },
};
