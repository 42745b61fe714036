import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type DirectRow, type DirectStatement, directRows } from '../../db/direct.js';
import { transactions } from '../../db/schema/inventory.js';
import { currentChangeSource } from '../../lib/change-source.js';
import {
  LEDGER_INSERT_BATCH,
  ledgerInsertStatement,
  ledgerInsertText,
  ledgerInsertValues,
} from './ledger-insert.js';

export type LedgerEntry = typeof transactions.$inferInsert;

/** Newest first, and the rows one database transaction wrote (one date) in the reverse of their writing. */
export const ledgerNewestFirst = [desc(transactions.transactionDate), desc(transactions.writeOrder)];

/**
 * For a row of the ledger being read: the hold of a purchase request that its approval dropped, where the row
 * does not say so itself. Holds dropped before 2026-11-29 carry no `details.outcome`; an approval's is told by
 * the purchase written with it (the same action: same instant, same actor) naming the same request, which is
 * how the grouped history badges it. Only such rows look (by the actor and date index); all others are false.
 * Written out in full: drizzle leaves a column of a single-table select unqualified, which inside the
 * subquery would name the approval's own.
 */
export const droppedByAnApproval = sql<boolean>`case when "transactions"."transaction_type" = 'container_deletion'
  and "transactions"."details"->>'reason' = 'shop_request' and "transactions"."details"->'outcome' is null
  then exists (select 1 from "transactions" as "approval"
    where "approval"."actor_id" = "transactions"."actor_id"
    and "approval"."transaction_date" = "transactions"."transaction_date"
    and "approval"."transaction_type" = 'purchase'
    and "approval"."details"->>'shop_request_id' = "transactions"."details"->>'shop_request_id')
  else false end`;

/** Every row says where its change came from (DESIGN §4), unless the use case named it already. */
function withSource(entry: LedgerEntry): LedgerEntry {
  return entry.source ? entry : { ...entry, source: currentChangeSource() };
}

/** The only writer of the ledger: always inside the caller's transaction, with name snapshots. */
export const ledgerRepository = {
  async record(db: Executor, entries: LedgerEntry | LedgerEntry[]) {
    const rows = Array.isArray(entries) ? entries : [entries];
    if (rows.length === 0) return;
    await db.insert(transactions).values(rows.map(withSource));
  },

  /**
   * The newest purchase that took (the last of) this stack out of this shop container: what it was and at
   * what price each, so a buyer too late for that stack can be offered the rest of its shelf line.
   */
  async soldFrom(
    db: Executor,
    shopContainerId: string,
    itemInstanceId: string,
  ): Promise<{ itemTemplateId: string | null; itemName: string | null; details: unknown } | undefined> {
    const [row] = await db
      .select({
        itemTemplateId: transactions.itemTemplateId,
        itemName: transactions.itemName,
        details: transactions.details,
      })
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, shopContainerId),
          // A sale, or goods held for a purchase request (a `transfer` into the request's hold; not the GM
          // taking stock back, which has no price).
          or(
            eq(transactions.transactionType, 'purchase'),
            and(
              eq(transactions.transactionType, 'transfer'),
              sql`${transactions.details} @> ${JSON.stringify({ reason: 'shop_request', hold: 'held' })}::jsonb`,
            ),
          ),
          sql`${transactions.details} @> ${JSON.stringify({ source_instance_ids: [itemInstanceId] })}::jsonb`,
        ),
      )
      .orderBy(...ledgerNewestFirst)
      .limit(1);
    return row;
  },

  /**
   * What each character has received so far from the party's split sales (issue 11 §8), in copper, in the
   * order of the ids given: the payment rows marked `split_share`, whose amounts add up to each share.
   */
  async splitSaleShares(db: Executor, partyId: string, characterIds: string[]): Promise<number[]> {
    if (characterIds.length === 0) return [];
    const rows = await db
      .select({
        characterId: transactions.characterId,
        cp: sql<string>`coalesce(sum(${transactions.amountCp}), 0)`,
      })
      .from(transactions)
      .where(
        and(
          eq(transactions.partyId, partyId),
          eq(transactions.transactionType, 'sale'),
          inArray(transactions.characterId, characterIds),
          sql`${transactions.details} @> ${JSON.stringify({ role: 'payment', split_share: true })}::jsonb`,
        ),
      )
      .groupBy(transactions.characterId);
    const byId = new Map(rows.map((row) => [row.characterId, Number(row.cp)]));
    return characterIds.map((id) => byId.get(id) ?? 0);
  },

  /**
   * DESIGN §4 Undo: the entry, locked so that two undos of it take turns, when it is the actor's own: the
   * rows are never updated, the lock only orders the undos.
   */
  async lockOwnEntry(db: Executor, id: string, actorId: string) {
    const [row] = await db
      .select()
      .from(transactions)
      .where(and(eq(transactions.id, id), eq(transactions.actorId, actorId)))
      .for('update');
    return row;
  },

  /** Whether an undo already moved the entry back: its rows leave the entry's destination, naming it. */
  async isReverted(db: Executor, entry: { id: string; destinationContainerId: string }) {
    const [row] = await db
      .select({ id: transactions.id })
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, entry.destinationContainerId),
          sql`${transactions.details} ->> 'reverts' = ${entry.id}`,
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  /** Which of these entries an undo moved back already (isReverted for a page of them, in one statement). */
  async revertedAmong(db: Executor, entries: { id: string; destinationContainerId: string }[]) {
    if (entries.length === 0) return new Set<string>();
    const rows = await db
      .select({ reverts: sql<string>`${transactions.details} ->> 'reverts'` })
      .from(transactions)
      .where(
        and(
          inArray(transactions.sourceContainerId, [...new Set(entries.map((e) => e.destinationContainerId))]),
          inArray(
            sql`${transactions.details} ->> 'reverts'`,
            entries.map((e) => e.id),
          ),
        ),
      );
    return new Set(rows.map((row) => row.reverts));
  },

  /** Rows by id, in the order of the ids given (a use case answering with the rows it wrote). */
  async byIds(db: Executor, ids: string[]) {
    if (ids.length === 0) return [];
    const rows = await db.select().from(transactions).where(inArray(transactions.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  },

  async recordReturningIds(db: Executor, entries: LedgerEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    // Every inventory action writes its rows here: the statement is written once per number of rows
    // (ledger-insert.ts), not built by drizzle on every call.
    const ids: string[] = [];
    // Batches keep the number of statement shapes (and of parameters) bounded.
    for (let at = 0; at < entries.length; at += LEDGER_INSERT_BATCH) {
      const batch = entries.slice(at, at + LEDGER_INSERT_BATCH).map(withSource);
      const rows = await directRows(db, ledgerInsertStatement(batch.length), ledgerInsertValues(batch));
      for (const row of rows) ids.push(row[0] as string);
    }
    return ids;
  },

  /**
   * One row written in the same statement as another change of the caller's (issue 13 §2: one round trip
   * less per action). `write` is a data-modifying statement with RETURNING that answers at least one row;
   * its rows are answered as it returns them, with the ledger row's id. `commits`: the statement is the
   * transaction's last (db/direct.ts).
   */
  async recordAlongside(
    db: Executor,
    entry: LedgerEntry,
    write: DirectStatement,
    values: unknown[],
    options: { commits?: boolean } = {},
  ): Promise<{ id: string; rows: DirectRow[] }> {
    const rows = await directRows(
      db,
      alongside(write, values.length),
      [...values, ...ledgerInsertValues([withSource(entry)])],
      options,
    );
    const id = rows[0]?.at(-1);
    if (typeof id !== 'string')
      throw new Error(`${write.name} answered no row: the ledger row went unwritten`);
    return { id, rows: rows.map((row) => row.slice(0, -1)) };
  },
};

const alongsideStatements = new Map<string, DirectStatement>();

/** `write` (its parameters first) and the insert of one ledger row, in one statement. */
function alongside(write: DirectStatement, parameters: number): DirectStatement {
  let statement = alongsideStatements.get(write.name);
  if (!statement) {
    statement = {
      name: `${write.name}_with_ledger`,
      text: `with written as (${write.text}), ledger as (${ledgerInsertText(1, parameters + 1)})
select written.*, (select id from ledger) from written`,
    };
    alongsideStatements.set(write.name, statement);
  }
  return statement;
}
