import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { transactions } from '../../db/schema/inventory.js';
import { statementName } from '../../db/statements.js';
import { currentChangeSource } from '../../lib/change-source.js';

export type LedgerEntry = typeof transactions.$inferInsert;

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

  /** Rows by id, in the order of the ids given (a use case answering with the rows it wrote). */
  async byIds(db: Executor, ids: string[]) {
    if (ids.length === 0) return [];
    const rows = await db.select().from(transactions).where(inArray(transactions.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  },

  async recordReturningIds(db: Executor, entries: LedgerEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const values = entries.map(withSource);
    // The statement's text depends on which columns each row sets (the others are `default`).
    const shape = values
      .map((row) =>
        Object.keys(row)
          .filter((key) => row[key as keyof LedgerEntry] !== undefined)
          .sort()
          .join(','),
      )
      .join('|');
    const rows = await db
      .insert(transactions)
      .values(values)
      .returning({ id: transactions.id })
      .prepare(statementName('ledger_insert', shape))
      .execute();
    return rows.map((r) => r.id);
  },
};
