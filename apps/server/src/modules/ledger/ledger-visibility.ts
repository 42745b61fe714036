import { type SQL, sql } from 'drizzle-orm';
import { transactions } from '../../db/schema/inventory.js';
import { lootInstances } from '../../db/schema/loot.js';
import { partyMemberships } from '../../db/schema/parties.js';

/**
 * spec/02 §6 "Non-GMs see only revealed loot", in the ledger too: a row about a loot that is hidden now,
 * or that was written while it was hidden (`gm_only`: its deployment, its deletion), is for the GMs of
 * the row's party only. Rows about no loot are untouched.
 */
export const lootRowPublic = sql`(${transactions.lootInstanceId} is null or (not ${transactions.gmOnly} and not exists (select 1 from ${lootInstances} li where li.id = ${transactions.lootInstanceId} and not li.is_revealed)))`;

/** The same rule for a reader whose role differs from row to row (a character's ledger, one row, a person's data export). */
export function lootRowVisibleTo(userId: string): SQL {
  return sql`(${lootRowPublic} or exists (select 1 from ${partyMemberships} m where m.party_id = ${transactions.partyId} and m.user_id = ${userId} and m.role = 'gm'))`;
}
