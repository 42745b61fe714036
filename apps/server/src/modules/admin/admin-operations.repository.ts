import type { TemplateBulkFilter, UserBulkFilter } from '@haversack/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { adminOperations } from '../../db/schema/back-office.js';
import { itemTemplates } from '../../db/schema/items.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { shopTemplates } from '../../db/schema/shops.js';
import { subscriptions, subscriptionTiers } from '../../db/schema/subscriptions.js';
import { likeContaining } from '../../lib/like-pattern.js';

export type AdminOperationRow = typeof adminOperations.$inferSelect;
export type NewAdminOperationRow = typeof adminOperations.$inferInsert;

const tierOfUser = sql<string>`(select t.identifier from ${subscriptions} s join ${subscriptionTiers} t
  on t.id = s.tier_id where s.user_id = ${users.id})`;

/** The users a bulk operation or a mass mail acts on: signed up before a day, or on or after one. */
function userConditions(filter: UserBulkFilter): SQL | undefined {
  return and(
    filter.tier ? sql`${tierOfUser} = ${filter.tier}` : undefined,
    filter.status === 'suspended' ? isNotNull(users.suspendedAt) : undefined,
    filter.status === 'active' ? isNull(users.suspendedAt) : undefined,
    filter.signed_up_before
      ? lt(users.createdAt, new Date(`${filter.signed_up_before}T00:00:00Z`))
      : undefined,
    filter.signed_up_after
      ? gte(users.createdAt, new Date(`${filter.signed_up_after}T00:00:00Z`))
      : undefined,
    filter.email_contains ? ilike(users.email, likeContaining(filter.email_contains)) : undefined,
  );
}

/**
 * `suspendable`: only those a bulk suspension acts on, neither admins nor already suspended.
 * `mailable`: only confirmed addresses, so a mass mail never goes to an address its owner never proved.
 * `wantsAnnouncements`: only users who have not turned announcement emails off (preferences
 * `announcementEmails`; anything but `false` stored reads as its default, on).
 * `signedUpBy`: only accounts that existed when the operation was queued, so the run acts on the set the
 * admin saw counted, never on someone who signed up (and matched) afterwards.
 */
export interface UserScope {
  suspendable?: boolean;
  mailable?: boolean;
  wantsAnnouncements?: boolean;
  signedUpBy?: Date;
}

function scopeConditions(options: UserScope): SQL | undefined {
  return and(
    options.suspendable ? and(eq(users.admin, false), isNull(users.suspendedAt)) : undefined,
    options.mailable ? isNotNull(users.emailVerifiedAt) : undefined,
    options.wantsAnnouncements
      ? sql`${users.preferences} -> 'announcementEmails' is distinct from 'false'::jsonb`
      : undefined,
    options.signedUpBy ? lte(users.createdAt, options.signedUpBy) : undefined,
  );
}

const templateTables = {
  item_template: itemTemplates,
  shop_template: shopTemplates,
  loot_template: lootTemplates,
};

/**
 * Public templates of one kind, optionally of one owner (a user id or part of the owner's email). Never
 * Haversack's own catalogue (system_key set: coins, the SRD items, the system shops and loot): they have no
 * owner, so unpublishing them would hide them from everyone for good (moderation refuses them as well).
 */
/** A user id exactly; anything else (36 dashes too, which the column would refuse) is a piece of an email. */
const userIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function templateConditions(filter: TemplateBulkFilter) {
  const table = templateTables[filter.kind];
  const owner = filter.owner
    ? userIdPattern.test(filter.owner)
      ? eq(table.creatorId, filter.owner.toLowerCase())
      : sql`${table.creatorId} in (select id from ${users} where ${ilike(users.email, likeContaining(filter.owner))})`
    : undefined;
  const live = filter.kind === 'item_template' ? isNull(itemTemplates.deletedAt) : undefined;
  return { table, where: and(eq(table.visibility, 'public'), isNull(table.systemKey), owner, live) };
}

/** JSON with every object's keys sorted, so that equal params always give the same text (and lock). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const adminOperationsRepository = {
  /**
   * Serialises the starts of operations with these params until the caller's transaction ends, so that of
   * two identical submissions the second sees the first's row (findUnfinished) and is refused. A hash
   * collision only makes two different starts wait for each other, never refuses one.
   */
  async lockParams(db: Executor, params: Record<string, unknown>): Promise<void> {
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`admin_operation:${canonicalJson(params)}`}))`,
    );
  },

  /** A queued or running operation of this kind with exactly these params (jsonb equality ignores key order). */
  async findUnfinished(db: Executor, kind: AdminOperationRow['kind'], params: Record<string, unknown>) {
    const [row] = await db
      .select({ id: adminOperations.id })
      .from(adminOperations)
      .where(
        and(
          eq(adminOperations.kind, kind),
          inArray(adminOperations.status, ['queued', 'running']),
          sql`${adminOperations.params} = ${JSON.stringify(params)}::jsonb`,
        ),
      )
      .limit(1);
    return row;
  },

  async insert(db: Executor, row: NewAdminOperationRow): Promise<AdminOperationRow> {
    const [inserted] = await db.insert(adminOperations).values(row).returning();
    if (!inserted) throw new Error('insert admin_operations returned nothing');
    return inserted;
  },

  async find(db: Executor, id: string, options: { lock?: boolean } = {}) {
    const query = db.select().from(adminOperations).where(eq(adminOperations.id, id)).limit(1);
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  async listRecent(db: Executor, kinds: AdminOperationRow['kind'][], limit: number) {
    return db
      .select()
      .from(adminOperations)
      .where(
        sql`${adminOperations.kind} in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`,
      )
      .orderBy(desc(adminOperations.createdAt))
      .limit(limit);
  },

  async update(db: Executor, id: string, changes: Partial<NewAdminOperationRow>) {
    await db.update(adminOperations).set(changes).where(eq(adminOperations.id, id));
  },

  /** Whether the operation's admin still holds the flag (and an account that can sign in). */
  async isActiveAdmin(db: Executor, userId: string | null): Promise<boolean> {
    if (!userId) return false;
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.admin, true), isNull(users.suspendedAt)))
      .limit(1);
    return row !== undefined;
  },

  async countUsers(db: Executor, filter: UserBulkFilter, options: UserScope = {}): Promise<number> {
    const [row] = await db
      .select({ total: count() })
      .from(users)
      .where(and(userConditions(filter), scopeConditions(options)));
    return row?.total ?? 0;
  },

  /**
   * Whether the user matches still: a batch reads its users unlocked, so one may have changed since (bought
   * a plan, say) by the time their rows are locked, and is checked again then.
   */
  async userMatches(db: Executor, filter: UserBulkFilter, userId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), userConditions(filter)))
      .limit(1);
    return row !== undefined;
  },

  /** The next batch after `cursor`, in id order, so a restarted job carries on where it stopped. */
  async usersAfter(
    db: Executor,
    filter: UserBulkFilter,
    cursor: string | null,
    limit: number,
    options: UserScope = {},
  ) {
    return db
      .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
      .from(users)
      .where(and(userConditions(filter), scopeConditions(options), cursor ? gt(users.id, cursor) : undefined))
      .orderBy(asc(users.id))
      .limit(limit);
  },

  async countTemplates(db: Executor, filter: TemplateBulkFilter): Promise<number> {
    const { table, where } = templateConditions(filter);
    const [row] = await db.select({ total: count() }).from(table).where(where);
    return row?.total ?? 0;
  },

  /** Locked: a row that gained a system_key since the count is left out, as the filter is checked under the lock. */
  async templatesAfter(db: Executor, filter: TemplateBulkFilter, cursor: string | null, limit: number) {
    const { table, where } = templateConditions(filter);
    return db
      .select({ id: table.id })
      .from(table)
      .where(and(where, cursor ? gt(table.id, cursor) : undefined))
      .orderBy(asc(table.id))
      .limit(limit)
      .for('update');
  },
};
