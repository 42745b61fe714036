import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  formatEnUs,
  type LedgerTransaction,
  type OperationKind,
  operationKindLabels,
  type TransactionFilters,
  type TransactionListQuery,
  type TransactionOperation,
  transactionTypeLabel,
  undoableTransactionTypes,
} from '@haversack/contracts';
import { and, count, desc, eq, gte, lt, lte, max, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { characters } from '../../db/schema/characters.js';
import { transactions } from '../../db/schema/inventory.js';
import { partyMemberships } from '../../db/schema/parties.js';
import { AppError } from '../../lib/app-error.js';
import { CSV_BOM, csvSafeText } from '../../lib/csv.js';
import { containerAccess } from '../inventory/inventory.policy.js';
import { inventoryRepository } from '../inventory/inventory.repository.js';
import { partiesRepository } from '../parties/parties.repository.js';
import { droppedByAnApproval, ledgerNewestFirst, ledgerRepository } from './ledger.repository.js';
import { lootRowPublic, lootRowVisibleTo } from './ledger-visibility.js';

type Row = typeof transactions.$inferSelect;

/**
 * spec/02 history: an amount means money changed hands, so only these types carry one (moves and
 * additions once recorded the goods' value; that is hidden, not shown as a price). Amounts are copper
 * (`amount_cp`), so the label is always cp, whatever an older row wrote next to it.
 */
/** A date filter without a time (YYYY-MM-DD), as opposed to an ISO instant. */
const isBareDate = (value: string) => !value.includes('T');

const moneyTypes: ReadonlySet<string> = new Set(['purchase', 'sale', 'currency_conversion']);

/**
 * The rows of one trade or exchange carry the money once, so a spreadsheet's sum of Amount is what was
 * paid: a purchase's or sale's price stands on its goods row, not again on the coin rows that paid it or
 * came back as change, and an exchange's value on the coins given, not again on the coins received.
 */
function carriesTheMoney(row: Row): boolean {
  const role = (row.details as { role?: unknown } | null)?.role;
  if (role === 'payment' || role === 'change') return false;
  // The coins received name only where they went (by name: a deleted container leaves its rows without an
  // id, never without a name).
  if (row.transactionType === 'currency_conversion')
    return !(row.sourceName === null && row.destinationName !== null);
  return true;
}

function money(row: Row): { amount: number | null; currency: 'cp' | null } {
  if (row.amountCp === null || !moneyTypes.has(row.transactionType) || !carriesTheMoney(row)) {
    return { amount: null, currency: null };
  }
  return { amount: row.amountCp, currency: 'cp' };
}

/**
 * The action a row belongs to: the rows one database transaction wrote share its `transaction_date` (now()
 * is the transaction's start, to the microsecond) and, for one action, its actor. Written as text by the
 * database, which keeps the microseconds a JS Date would drop.
 */
const operationKey = sql<string>`to_char(${transactions.transactionDate} at time zone 'UTC', 'YYYYMMDD"T"HH24MISS.US') || '~' || coalesce(${transactions.actorId}::text, '')`;

const isCoinsOfATrade = (row: Row) => {
  const role = (row.details as { role?: unknown } | null)?.role;
  return role === 'payment' || role === 'change';
};

const reasonOf = (row: Row) => (row.details as { reason?: unknown } | null)?.reason;

/** The hold a purchase request makes for its goods: how the request is kept, not what the buyer did. */
const isRequestHold = (row: Row) =>
  row.transactionType === 'container_creation' && reasonOf(row) === 'shop_request';

/**
 * A row a purchase request's asking wrote: its hold made, or the goods set aside in it. A character's history
 * lists only the goods' row (the hold names no character), so that row alone must say what the action was,
 * as the party's Activity tab says it with both.
 */
const isRequestAsking = (row: Row) =>
  isRequestHold(row) ||
  (reasonOf(row) === 'shop_request' && (row.details as { hold?: unknown } | null)?.hold === 'held');

const plural = (n: number, one: string, many: string) => `${formatEnUs(n)} ${n === 1 ? one : many}`;

/**
 * A shop's or a loot's stock written by one action (a deployment, a restock), one row per line, told as one:
 * "Ironhand Forge stocked 10 kinds of items (42 items)", or after the row of the deployment that made the
 * shop, "gm deployed Ironhand Forge with 10 kinds of items (42 items)". Null when the action wrote no stock
 * of one shop or loot, or a single line (its own row says it).
 */
function stockHeadline(lead: Row | undefined, written: Row[]): string | null {
  const stock = written.filter((row) => row.transactionType === 'create');
  const [first] = stock;
  if (!first || stock.length < 2) return null;
  const target = first.targetName;
  if (!target || stock.some((row) => row.targetName !== target)) return null;
  const kinds = new Set(stock.map((row) => row.itemTemplateId ?? row.itemName)).size;
  const items = stock.reduce((sum, row) => sum + (row.quantity ?? 0), 0);
  const what =
    kinds === 1 && first.itemName
      ? `${formatEnUs(items)} × ${first.itemName}`
      : `${plural(kinds, 'kind', 'kinds')} of items (${plural(items, 'item', 'items')})`;
  const others = written.filter((row) => row.transactionType !== 'create');
  if (others.length === 0) {
    const reason = (first.details as { reason?: unknown } | null)?.reason;
    if (reason === 'restock') return `${target} was restocked with ${what}`;
    if (reason === 'loot_deployment') return `${target} holds ${what}`;
    return `${target} stocked ${what}`;
  }
  // The deployment: its one other row made the shop or loot (its container).
  if (lead && others.length === 1 && lead === others[0] && lead.transactionType === 'container_creation')
    return `${lead.summary} with ${what}`;
  return null;
}

const requestOutcomeKinds = {
  approved: 'shop_request_approved',
  declined: 'shop_request_declined',
  cancelled: 'shop_request_cancelled',
} as const satisfies Record<string, OperationKind>;

/**
 * What became of a purchase request, by one of the rows its decision wrote: an approval's purchase names the
 * request it completes; the goods going back and the hold dropped carry the outcome (rows written before
 * they did are named by their type alone).
 */
function requestOutcome(row: Row): OperationKind | undefined {
  const details = row.details as { shop_request_id?: unknown; outcome?: unknown } | null;
  if (row.transactionType === 'purchase' && details?.shop_request_id !== undefined)
    return requestOutcomeKinds.approved;
  if (reasonOf(row) !== 'shop_request') return undefined;
  const outcome = details?.outcome;
  return outcome === 'approved' || outcome === 'declined' || outcome === 'cancelled'
    ? requestOutcomeKinds[outcome]
    : undefined;
}

/**
 * What the action was, where its main row's type does not say it: the rows of a deployment (the shop's or the
 * loot's container made, then its stock, or only some of them under a Type filter) carry its reason; a
 * purchase request's, its asking or its outcome (the approval's main row reads "Purchase", a decline's or a
 * cancellation's "Transfer").
 */
function operationKind(written: Row[]): OperationKind | undefined {
  const reasons = new Set(written.map(reasonOf));
  if (reasons.has('shop_deployment')) return 'shop_deployment';
  if (reasons.has('loot_deployment')) return 'loot_deployment';
  if (written.some(isRequestAsking)) return 'shop_request';
  if (reasons.has('joined_party')) return 'joined_party';
  if (reasons.has('left_party')) return 'left_party';
  for (const row of written) {
    const outcome = requestOutcome(row);
    if (outcome) return outcome;
  }
  return undefined;
}

/** The names as a sentence says them: "Pip", "Pip and Nyx", "Pip, Nyx and Tam". */
const listed = (names: string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/**
 * Characters coming into a party or going out of it with several stacks (character-party-ledger.ts), told
 * as one: "Nyx joined the party carrying 2 kinds of items (1,002 items)". Null for any other action, and for
 * one stack (its own row says it).
 */
function partyChangeHeadline(kind: OperationKind | undefined, written: Row[]): string | null {
  if (kind !== 'joined_party' && kind !== 'left_party') return null;
  const gear = written.filter((row) => reasonOf(row) === kind && row.itemTemplateId !== null);
  const [first] = gear;
  if (!first || gear.length < 2) return null;
  const kinds = new Set(gear.map((row) => row.itemTemplateId)).size;
  const items = gear.reduce((sum, row) => sum + (row.quantity ?? 0), 0);
  const what =
    kinds === 1 && first.itemName
      ? `${formatEnUs(items)} × ${first.itemName}`
      : `${plural(kinds, 'kind', 'kinds')} of items (${plural(items, 'item', 'items')})`;
  const who = listed([...new Set(gear.map((row) => row.targetName ?? ''))]);
  return kind === 'joined_party'
    ? `${who} joined the party carrying ${what}`
    : `${who} left the party with ${what}`;
}

/**
 * One action's rows (in the order they were written) as one entry: its main row first (the goods of a
 * trade, not the coins that paid for them or came back, nor the hold a purchase request made for them;
 * else the first written: the coins given in an
 * exchange, the loot before its contents, the character before its backpack), then the others.
 */
export function operationOf(id: string, written: Row[]): { operation: TransactionOperation; rows: Row[] } {
  const lead =
    written.find((row) => !isCoinsOfATrade(row) && !isRequestHold(row)) ??
    written.find((row) => !isCoinsOfATrade(row)) ??
    written[0];
  const rows = lead ? [lead, ...written.filter((row) => row !== lead)] : written;
  const kind = operationKind(written);
  return {
    operation: {
      id,
      summary: stockHeadline(lead, written) ?? partyChangeHeadline(kind, written) ?? lead?.summary ?? '',
      size: written.length,
      ...(kind === undefined ? {} : { kind }),
    },
    rows,
  };
}

export function toTransactionJson(row: Row, operation?: string): LedgerTransaction {
  return {
    ...(operation === undefined ? {} : { operation }),
    id: row.id,
    transaction_type: row.transactionType,
    transaction_date: row.transactionDate.toISOString(),
    transaction_summary: row.summary,
    actor_data: { id: row.actorId, name: row.actorName },
    // Rows from before migration 0021 have no target id: their row's character or party stands in.
    target_data: { id: row.targetId ?? row.characterId ?? row.partyId, name: row.targetName },
    transactable_data: { id: row.itemTemplateId, name: row.itemName, item_instance_id: row.itemInstanceId },
    quantity: row.quantity,
    ...money(row),
    notes: row.notes,
    source_location_data: { id: row.sourceContainerId, name: row.sourceName },
    destination_location_data: { id: row.destinationContainerId, name: row.destinationName },
    party_id: row.partyId,
    character_id: row.characterId,
    source: row.source,
    reverts_transaction_id: revertedBy(row),
    undoable: isMoveOfItems(row),
  };
}

const movesOfItems: ReadonlySet<string> = new Set(undoableTransactionTypes);

/**
 * A row Undo may move back (DESIGN §4): a move between two containers, not an undo, and not about a shop
 * (its rows carry `details.shop_instance_id`: stocking, requests) or a loot, whose contents change by
 * their own rules.
 */
export function isMoveOfItems(
  row: Pick<
    Row,
    | 'transactionType'
    | 'details'
    | 'lootInstanceId'
    | 'sourceContainerId'
    | 'destinationContainerId'
    | 'itemTemplateId'
    | 'quantity'
  >,
): boolean {
  return (
    movesOfItems.has(row.transactionType) &&
    row.sourceContainerId !== null &&
    row.destinationContainerId !== null &&
    row.itemTemplateId !== null &&
    Boolean(row.quantity) &&
    row.lootInstanceId === null &&
    row.details?.shop_instance_id === undefined &&
    revertedBy(row) === null
  );
}

/** The entry an undo's row moved back (DESIGN §4: linked through `details.reverts`), else null. */
export function revertedBy(row: Pick<Row, 'details'>): string | null {
  const reverts = row.details?.reverts;
  return typeof reverts === 'string' ? reverts : null;
}

export const csvColumns = [
  'Date',
  'Type',
  'Actor',
  'Target',
  'Item',
  'Quantity',
  'Amount',
  'Currency',
  'From Location',
  'To Location',
  'Notes',
  // Issue 16 §6: after the spec's eleven columns (spec/02 §9), where the change came from.
  'Source',
  // The code Type's label is named by (a ledger type, `container_creation`, or an action's kind,
  // `shop_request`), which does not change with the wording: for scripts, as Type was before it had labels.
  'Type code',
];

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = csvSafeText(String(value));
  // Quote what needs it, and defuse spreadsheet formulas (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * What a row is in the CSV's Type column, where its ledger type is only how the action was kept: a character
 * joining or leaving a party (`adjust` rows that move nothing, beside a GM's real adjustments) and a purchase
 * request's rows (its hold made, the goods set aside in it, then what became of it) are written as the
 * history's badge names them. Rows that are what their type says keep it: the purchase an approval makes, and
 * the coins that paid for it, are purchases, so a spreadsheet summing a Type counts only its own. A decision's
 * row from before decisions recorded their outcome is an approval's where its purchase says so
 * (`approvedHold`), else what its type says, as the history badges such a decline or cancellation; never the
 * request itself, which only the asking is.
 */
function csvKind(row: Row, approvedHold: boolean): OperationKind | undefined {
  const reason = reasonOf(row);
  if (reason === 'joined_party' || reason === 'left_party') return reason;
  if (reason !== 'shop_request') return undefined;
  if (isRequestAsking(row)) return 'shop_request';
  return requestOutcome(row) ?? (approvedHold ? requestOutcomeKinds.approved : undefined);
}

function toCsvLine(row: Row, approvedHold: boolean): string {
  const { amount, currency } = money(row);
  const kind = csvKind(row, approvedHold);
  return `${[
    row.transactionDate.toISOString(),
    // As the transaction history names it ("Transfer", "Loot distribution", "Joined the party"); its code
    // is the last column.
    kind ? operationKindLabels[kind] : transactionTypeLabel(row.transactionType),
    row.actorName,
    row.targetName,
    row.itemName,
    row.quantity,
    amount,
    currency,
    row.sourceName,
    row.destinationName,
    row.notes,
    row.source,
    kind ?? row.transactionType,
  ]
    .map(csvField)
    .join(',')}\r\n`;
}

/** Reading the ledger (spec/02 §7 Transactions): only for those who may see that party or character. */
/**
 * Rows the CSV export reads at once: the file streams, a whole ledger never sits in memory. On the embedded
 * database a read holds the process: 1,000 rows held it 0.25–0.5 s (health answered in 0.55–0.78 s during a
 * 25,000-row export), 500 rows with a turn of the event loop between pages let it answer 3–4 times sooner for
 * an export about a fifth slower (docs/decisions.md).
 */
export const CSV_PAGE_ROWS = 500;

/**
 * A character's history: the rows that name it (its own moves, its deletion, what it bought) and the rows
 * of others' moves that brought it something or took from it (a gift names the giver's character, and the
 * receiver as its target).
 */
function characterRows(characterId: string) {
  return sql`(${eq(transactions.characterId, characterId)} or ${eq(transactions.targetId, characterId)})`;
}

export class LedgerService {
  constructor(private readonly db: Database) {}

  async forParty(userId: string, partyId: string, query: TransactionListQuery) {
    return this.#list(userId, await this.#partyScope(userId, partyId), query);
  }

  async forCharacter(userId: string, characterId: string, query: TransactionListQuery) {
    return this.#list(userId, await this.#characterScope(userId, characterId), query);
  }

  /**
   * The reader's own moves Undo would be refused on for want of access: a gift moved back must come out of
   * the other character's container, which only its player and the party's GM may change (DESIGN §4 Who
   * may act). Marked not undoable, so that the history offers no button that can only fail; so are
   * other people's moves, which only their maker may undo ("Only the one who made a move can undo it.").
   */
  async #withUndoAccess(userId: string, rows: LedgerTransaction[]): Promise<LedgerTransaction[]> {
    const listed = rows.map((row) =>
      row.undoable && row.actor_data.id !== userId ? { ...row, undoable: false } : row,
    );
    const own = listed.filter((row) => row.undoable);
    const undone = await ledgerRepository.revertedAmong(
      this.db,
      own.flatMap((row) =>
        row.destination_location_data.id
          ? [{ id: row.id, destinationContainerId: row.destination_location_data.id }]
          : [],
      ),
    );
    const ids = [
      ...new Set(own.flatMap((row) => [row.source_location_data.id, row.destination_location_data.id])),
    ].filter((id): id is string => id !== null);
    if (ids.length === 0) return listed;
    const marked = listed.map((row) =>
      undone.has(row.id) ? { ...row, undoable: false, undone: true } : row,
    );
    const contexts = await inventoryRepository.contextsForUser(this.db, userId, ids);
    const mayChange = (id: string | null) => {
      const found = id === null ? undefined : contexts.get(id);
      if (!found) return false;
      const membership = found.context.party && found.role ? { role: found.role } : undefined;
      const access = containerAccess(
        found.context,
        userId,
        membership,
        Boolean(membership) && found.hasCharacter,
      );
      return access.canAct && !access.archived;
    };
    return marked.map((row) =>
      row.undoable &&
      row.actor_data.id === userId &&
      !(mayChange(row.source_location_data.id) && mayChange(row.destination_location_data.id))
        ? { ...row, undoable: false }
        : row,
    );
  }

  /** A party's rows a member may read: all of them for its GMs, none about hidden loot for the others. */
  async #partyScope(userId: string, partyId: string): Promise<SQL> {
    const membership = await partiesRepository.membership(this.db, partyId, userId);
    if (!membership) throw AppError.notFound('Party not found.');
    const party = eq(transactions.partyId, partyId);
    return membership.role === 'gm' ? party : sql`${party} and ${lootRowPublic}`;
  }

  async one(userId: string, id: string): Promise<LedgerTransaction> {
    const [row] = await this.db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
    if (!row) throw AppError.notFound('Transaction not found.');
    // As the lists show it: the party's members read its rows, a character's player all of its own.
    const visible =
      row.actorId === userId ||
      (row.partyId !== null && Boolean(await partiesRepository.membership(this.db, row.partyId, userId))) ||
      (row.characterId !== null && (await this.#ownsCharacter(userId, row.characterId))) ||
      // A row a character's history lists as brought to it (characterRows) opens on its own too.
      (row.targetId !== null && (await this.#ownsCharacter(userId, row.targetId)));
    if (!visible) throw AppError.notFound('Transaction not found.');
    if (row.lootInstanceId !== null) {
      const [allowed] = await this.db
        .select({ id: transactions.id })
        .from(transactions)
        .where(and(eq(transactions.id, id), lootRowVisibleTo(userId)))
        .limit(1);
      if (!allowed) throw AppError.notFound('Transaction not found.');
    }
    const [json] = await this.#withUndoAccess(userId, [toTransactionJson(row)]);
    return json as LedgerTransaction;
  }

  /** Checks access first, then streams (see #csv). */
  async exportForParty(userId: string, partyId: string, query: TransactionFilters) {
    return this.#csv(await this.#partyScope(userId, partyId), query);
  }

  async exportForCharacter(userId: string, characterId: string, query: TransactionFilters) {
    return this.#csv(await this.#characterScope(userId, characterId), query);
  }

  /**
   * spec/02 §9 CSV columns, newest first. Rows are read in keyset pages of 1,000 and written as they come,
   * so a ledger of 100,000 rows never sits in memory at once.
   */
  async *#csv(scope: SQL, query: TransactionFilters): AsyncGenerator<string> {
    yield `${CSV_BOM}${csvColumns.join(',')}\r\n`;
    const filters = this.#filters(scope, query);
    // The cursor keeps the timestamp as PostgreSQL's text: a JS Date holds milliseconds, and the rows of one
    // change share a microsecond timestamp that is neither before nor equal to its millisecond rounding.
    let cursor: { date: string; writeOrder: number } | undefined;
    for (;;) {
      const page = await this.db
        .select({
          row: transactions,
          date: sql<string>`${transactions.transactionDate}::text`,
          approvedHold: droppedByAnApproval,
        })
        .from(transactions)
        .where(
          and(
            filters,
            cursor
              ? sql`(${transactions.transactionDate}, ${transactions.writeOrder}) < (${cursor.date}::timestamptz, ${cursor.writeOrder})`
              : undefined,
          ),
        )
        .orderBy(...ledgerNewestFirst)
        .limit(CSV_PAGE_ROWS);
      if (page.length === 0) return;
      yield page.map(({ row, approvedHold }) => toCsvLine(row, approvedHold)).join('');
      const last = page[page.length - 1];
      if (!last || page.length < CSV_PAGE_ROWS) return;
      cursor = { date: last.date, writeOrder: last.row.writeOrder };
      // Other requests go first between pages.
      await nextTurn();
    }
  }

  #filters(scope: SQL, query: TransactionFilters) {
    const conditions: (SQL | undefined)[] = [scope];
    if (query.transaction_type) conditions.push(eq(transactions.transactionType, query.transaction_type));
    // spec/02 §7 start_date YYYY-MM-DD is a whole day in UTC; an instant (the web's "last 24 hours") is exact.
    if (query.start_date)
      conditions.push(
        gte(
          transactions.transactionDate,
          new Date(isBareDate(query.start_date) ? `${query.start_date}T00:00:00Z` : query.start_date),
        ),
      );
    if (query.end_date) {
      if (isBareDate(query.end_date)) {
        const end = new Date(`${query.end_date}T00:00:00Z`);
        end.setUTCDate(end.getUTCDate() + 1);
        conditions.push(lt(transactions.transactionDate, end));
      } else {
        conditions.push(lte(transactions.transactionDate, new Date(query.end_date)));
      }
    }
    return and(...conditions);
  }

  async #list(userId: string, scope: SQL, query: TransactionListQuery) {
    if (query.group === 'operation') return this.#listOperations(userId, scope, query);
    const where = this.#filters(scope, query);
    const [total] = await this.db.select({ n: count() }).from(transactions).where(where);
    const rows = await this.db
      .select({ row: transactions, operation: operationKey })
      .from(transactions)
      .where(where)
      .orderBy(...ledgerNewestFirst)
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page);
    const totalCount = total?.n ?? 0;
    return {
      transactions: await this.#withUndoAccess(
        userId,
        rows.map(({ row, operation }) => toTransactionJson(row, operation)),
      ),
      operations: undefined as TransactionOperation[] | undefined,
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: totalCount,
        total_pages: Math.max(1, Math.ceil(totalCount / query.per_page)),
      },
    };
  }

  /**
   * Paged by action (`group=operation`): per_page actions, newest first, each with every row of it that the
   * filters select, its main row first; the meta counts actions. The ledger keeps its rows as they are.
   */
  async #listOperations(userId: string, scope: SQL, query: TransactionListQuery) {
    const where = this.#filters(scope, query);
    const groups = this.db
      .select({ date: transactions.transactionDate })
      .from(transactions)
      .where(where)
      .groupBy(transactions.transactionDate, transactions.actorId)
      .as('operations');
    const [total] = await this.db.select({ n: count() }).from(groups);
    const page = await this.db
      .select({
        operation: operationKey,
        date: sql<string>`${transactions.transactionDate}::text`,
      })
      .from(transactions)
      .where(where)
      .groupBy(transactions.transactionDate, transactions.actorId)
      .orderBy(desc(transactions.transactionDate), desc(max(transactions.writeOrder)))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page);
    const newest = page[0];
    const oldest = page[page.length - 1];
    const byOperation = new Map<string, Row[]>(page.map((op) => [op.operation, []]));
    if (newest && oldest) {
      // The rows dated within the page's actions, oldest written first; those of another actor at the same
      // instant (not on this page) are left out by their key.
      const rows = await this.db
        .select({ row: transactions, operation: operationKey })
        .from(transactions)
        .where(
          and(
            where,
            sql`${transactions.transactionDate} between ${oldest.date}::timestamptz and ${newest.date}::timestamptz`,
          ),
        )
        .orderBy(transactions.writeOrder);
      for (const { row, operation } of rows) byOperation.get(operation)?.push(row);
    }
    const operations: TransactionOperation[] = [];
    const listed: LedgerTransaction[] = [];
    for (const [id, written] of byOperation) {
      const { operation, rows } = operationOf(id, written);
      operations.push(operation);
      listed.push(...rows.map((row) => toTransactionJson(row, id)));
    }
    const totalCount = total?.n ?? 0;
    return {
      transactions: await this.#withUndoAccess(userId, listed),
      operations,
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: totalCount,
        total_pages: Math.max(1, Math.ceil(totalCount / query.per_page)),
      },
    };
  }

  async #ownsCharacter(userId: string, characterId: string): Promise<boolean> {
    const [character] = await this.db
      .select({ userId: characters.userId })
      .from(characters)
      .where(eq(characters.id, characterId))
      .limit(1);
    return character?.userId === userId;
  }

  /**
   * The rows of a character's history this reader may see. Its player sees all of them, wherever it was;
   * a member of the party it is in now sees those written in parties they belong to: a character brought
   * from another party does not carry that party's ledger (its members, its GM's secrets) along with it.
   */
  async #characterScope(userId: string, characterId: string): Promise<SQL> {
    const [character] = await this.db
      .select({ userId: characters.userId, partyId: characters.partyId })
      .from(characters)
      .where(eq(characters.id, characterId))
      .limit(1);
    const visible =
      character !== undefined &&
      (character.userId === userId ||
        (character.partyId !== null &&
          Boolean(await partiesRepository.membership(this.db, character.partyId, userId))));
    if (!character || !visible) throw AppError.notFound('Character not found.');
    const rows = sql`${characterRows(characterId)} and ${lootRowVisibleTo(userId)}`;
    if (character.userId === userId) return rows;
    return sql`${rows} and exists (select 1 from ${partyMemberships} m where m.party_id = ${transactions.partyId} and m.user_id = ${userId})`;
  }
}
