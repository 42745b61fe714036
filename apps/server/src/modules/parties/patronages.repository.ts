import { aliasedTable, and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { parties, patronages } from '../../db/schema/parties.js';
import { subscriptionTiers } from '../../db/schema/subscriptions.js';

export type PatronageRow = typeof patronages.$inferSelect;

const patron = aliasedTable(users, 'patron');
const beneficiary = aliasedTable(users, 'beneficiary');

export const patronagesRepository = {
  async insert(db: Executor, values: typeof patronages.$inferInsert): Promise<PatronageRow> {
    const [row] = await db.insert(patronages).values(values).returning();
    if (!row) throw new Error('insert patronages returned nothing');
    return row;
  },

  async find(db: Executor, id: string, options: { lock?: boolean } = {}) {
    const query = db.select().from(patronages).where(eq(patronages.id, id)).limit(1);
    const [row] = options.lock ? await query.for('update') : await query;
    return row;
  },

  /** The grant that applies: active, and its patron not suspended (staff's suspension pauses it). */
  async activeFor(db: Executor, partyId: string, beneficiaryId: string) {
    const [row] = await db
      .select({ patronage: patronages, tierIdentifier: subscriptionTiers.identifier })
      .from(patronages)
      .innerJoin(subscriptionTiers, eq(subscriptionTiers.id, patronages.grantedTierId))
      .innerJoin(patron, eq(patron.id, patronages.patronId))
      .where(
        and(
          eq(patronages.partyId, partyId),
          eq(patronages.beneficiaryId, beneficiaryId),
          eq(patronages.active, true),
          isNull(patron.suspendedAt),
        ),
      )
      .limit(1);
    return row;
  },

  /** `activeFor` for several members of one party in one query (at most one each: patronages_active_idx). */
  async activeForMany(db: Executor, partyId: string, beneficiaryIds: readonly string[]) {
    if (beneficiaryIds.length === 0) return [];
    return db
      .select({ patronage: patronages, tierIdentifier: subscriptionTiers.identifier })
      .from(patronages)
      .innerJoin(subscriptionTiers, eq(subscriptionTiers.id, patronages.grantedTierId))
      .innerJoin(patron, eq(patron.id, patronages.patronId))
      .where(
        and(
          eq(patronages.partyId, partyId),
          inArray(patronages.beneficiaryId, [...beneficiaryIds]),
          eq(patronages.active, true),
          isNull(patron.suspendedAt),
        ),
      );
  },

  /**
   * Whether the user holds an active patronage in the party, as SQL text (the entitlements' probe), given
   * the SQL expressions of the user's and the party's ids (parameters, or a column of the caller's).
   */
  activeProbe: (user: string, party: string) =>
    `exists (select 1 from patronages pat where pat.party_id = ${party} and pat.beneficiary_id = ${user} and pat.active)`,

  async end(db: Executor, id: string, reason: string) {
    await db
      .update(patronages)
      .set({ active: false, endedAt: new Date(), endReason: reason })
      .where(and(eq(patronages.id, id), eq(patronages.active, true)));
  },

  async endForMember(db: Executor, partyId: string, userId: string, reason: string) {
    await db
      .update(patronages)
      .set({ active: false, endedAt: new Date(), endReason: reason })
      .where(
        and(
          eq(patronages.partyId, partyId),
          eq(patronages.active, true),
          or(eq(patronages.patronId, userId), eq(patronages.beneficiaryId, userId)),
        ),
      );
  },

  /** Patronages with the names the screens show. */
  async listDetailed(
    db: Executor,
    where: { patronId?: string; beneficiaryId?: string; partyId?: string; activeOnly?: boolean },
  ) {
    return db
      .select({
        patronage: patronages,
        partyName: parties.name,
        tierIdentifier: subscriptionTiers.identifier,
        patronName: patron.username,
        beneficiaryName: beneficiary.username,
        patronSuspendedAt: patron.suspendedAt,
      })
      .from(patronages)
      .innerJoin(parties, eq(parties.id, patronages.partyId))
      .innerJoin(subscriptionTiers, eq(subscriptionTiers.id, patronages.grantedTierId))
      .innerJoin(patron, eq(patron.id, patronages.patronId))
      .innerJoin(beneficiary, eq(beneficiary.id, patronages.beneficiaryId))
      .where(
        and(
          where.patronId ? eq(patronages.patronId, where.patronId) : undefined,
          where.beneficiaryId ? eq(patronages.beneficiaryId, where.beneficiaryId) : undefined,
          where.partyId ? eq(patronages.partyId, where.partyId) : undefined,
          // A suspended patron's grants are paused: listed as applying again once the suspension is lifted.
          where.activeOnly ? and(eq(patronages.active, true), isNull(patron.suspendedAt)) : undefined,
        ),
      )
      .orderBy(desc(patronages.createdAt));
  },
};
