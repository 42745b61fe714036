import type { DirectStatement } from '../../db/direct.js';
import type { LedgerEntry } from './ledger.repository.js';

/**
 * The ledger's insert as SQL text written once per number of rows (db/direct.ts). Every row sends every
 * column; one the entry leaves unset takes the column's default, as drizzle's `default` would.
 */
const columns: { key: keyof LedgerEntry; name: string; cast: string; fallback?: string }[] = [
  { key: 'id', name: 'id', cast: 'uuid', fallback: 'gen_random_uuid()' },
  { key: 'transactionType', name: 'transaction_type', cast: 'text' },
  { key: 'partyId', name: 'party_id', cast: 'uuid' },
  { key: 'characterId', name: 'character_id', cast: 'uuid' },
  { key: 'actorId', name: 'actor_id', cast: 'uuid' },
  { key: 'actorName', name: 'actor_name', cast: 'text' },
  { key: 'targetName', name: 'target_name', cast: 'text' },
  { key: 'targetId', name: 'target_id', cast: 'uuid' },
  { key: 'itemTemplateId', name: 'item_template_id', cast: 'uuid' },
  { key: 'itemInstanceId', name: 'item_instance_id', cast: 'uuid' },
  { key: 'itemName', name: 'item_name', cast: 'text' },
  { key: 'quantity', name: 'quantity', cast: 'bigint' },
  { key: 'amountCp', name: 'amount_cp', cast: 'bigint' },
  { key: 'currency', name: 'currency', cast: 'text' },
  { key: 'sourceContainerId', name: 'source_container_id', cast: 'uuid' },
  { key: 'sourceName', name: 'source_name', cast: 'text' },
  { key: 'destinationContainerId', name: 'destination_container_id', cast: 'uuid' },
  { key: 'destinationName', name: 'destination_name', cast: 'text' },
  { key: 'scope', name: 'scope', cast: 'text' },
  { key: 'summary', name: 'summary', cast: 'text' },
  { key: 'notes', name: 'notes', cast: 'text' },
  { key: 'details', name: 'details', cast: 'jsonb' },
  { key: 'lootInstanceId', name: 'loot_instance_id', cast: 'uuid' },
  { key: 'gmOnly', name: 'gm_only', cast: 'boolean', fallback: 'false' },
  { key: 'source', name: 'source', cast: 'text', fallback: `'web'` },
  { key: 'transactionDate', name: 'transaction_date', cast: 'timestamptz', fallback: 'now()' },
];

/** The most rows one insert writes (26 parameters each); more are written in several. */
export const LEDGER_INSERT_BATCH = 50;

const statements = new Map<number, DirectStatement>();

/** The insert of `count` rows, answering their ids in the order of the rows. */
export function ledgerInsertStatement(count: number): DirectStatement {
  const known = statements.get(count);
  if (known) return known;
  const statement = { name: `ledger_insert_direct_${count}`, text: ledgerInsertText(count, 1) };
  statements.set(count, statement);
  return statement;
}

/** The insert's text, its parameters numbered from `first`: another statement may own the ones before. */
export function ledgerInsertText(count: number, first: number): string {
  const rows = Array.from({ length: count }, (_, row) => {
    const values = columns.map((column, at) => {
      const parameter = `$${first + row * columns.length + at}::${column.cast}`;
      return column.fallback ? `coalesce(${parameter}, ${column.fallback})` : parameter;
    });
    return `(${values.join(', ')})`;
  });
  // PostgreSQL answers RETURNING rows of a multi-row VALUES insert in the order of the rows (as drizzle's).
  return `insert into transactions (${columns.map((c) => c.name).join(', ')}) values ${rows.join(', ')} returning id`;
}

/** The values of `ledgerInsertStatement(entries.length)`, row after row. */
export function ledgerInsertValues(entries: LedgerEntry[]): unknown[] {
  const values: unknown[] = [];
  for (const entry of entries) {
    for (const column of columns) {
      const value = entry[column.key];
      if (value === undefined || value === null) values.push(null);
      else if (value instanceof Date) values.push(value.toISOString());
      else if (column.cast === 'jsonb') values.push(JSON.stringify(value));
      else values.push(value);
    }
  }
  return values;
}
