import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { directRows } from '../../db/direct.js';
import { transactions } from '../../db/schema/inventory.js';
import { currentChangeSource } from '../../lib/change-source.js';
import { LEDGER_INSERT_BATCH, ledgerInsertStatement, ledgerInsertValues } from './ledger-insert.js';

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
};
