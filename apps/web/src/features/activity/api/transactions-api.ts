import {
  type LedgerTransaction,
  operationKindLabel,
  type PageMeta,
  pageMetaSchema,
  type TransactionOperation,
  type TransactionType,
  transactionOperationSchema,
  transactionSchema,
  transactionTypeLabel,
  transactionTypes,
} from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest, isApiError, refreshSession } from '../../../lib/http-client';
import { saveBlob } from '../../../lib/save-blob';
import { tokenStorage } from '../../../lib/token-storage';

/** spec/02 §9: transactions are fresh for 30 s and retried twice; 20 per page, 50 on the party Activity tab. */
const TRANSACTIONS_STALE_MS = 30_000;
const TRANSACTIONS_RETRIES = 2;
export const HISTORY_PER_PAGE = 20;
export const ACTIVITY_TAB_PER_PAGE = 50;

/** spec/02 §2 Transaction history: date ranges 1d, 7d, 30d and all; 7d by default. */
export const dateRanges = ['1d', '7d', '30d', 'all'] as const;
export type DateRange = (typeof dateRanges)[number];
export const DEFAULT_DATE_RANGE: DateRange = '7d';
const rangeDays: Record<Exclude<DateRange, 'all'>, number> = { '1d': 1, '7d': 7, '30d': 30 };

export type TransactionTypeFilter = TransactionType | 'all';

/** Whose ledger: a party's or a character's. */
export interface HistoryScope {
  kind: 'party' | 'character';
  id: string;
}

export interface HistoryFilters {
  range: DateRange;
  type: TransactionTypeFilter;
  page: number;
  perPage: number;
}

/** The only source of transaction cache keys (DESIGN §2); real-time events invalidate through these. */
export const transactionKeys = {
  all: ['transactions'] as const,
  scope: (scope: HistoryScope) => [...transactionKeys.all, scope.kind, scope.id] as const,
  party: (partyId: string) => transactionKeys.scope({ kind: 'party', id: partyId }),
  character: (characterId: string) => transactionKeys.scope({ kind: 'character', id: characterId }),
  /** Every character's ledger (a party change that concerned several characters). */
  characters: () => [...transactionKeys.all, 'character'] as const,
  list: (scope: HistoryScope, filters: HistoryFilters) => [...transactionKeys.scope(scope), filters] as const,
};

/** A calendar date (YYYY-MM-DD) in the user's own time zone: the CSV file's name. */
export function isoDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const HOUR_MS = 3_600_000;

/**
 * The instant a range starts, its days × 24 hours before now; none for "all". Sent as an ISO instant: a
 * local date was read by the server as UTC midnight, so "1d" covered ~20 h in UTC+14 and ~44 h in UTC−11.
 */
export function startDateFor(range: DateRange, now: Date = new Date()): string | null {
  if (range === 'all') return null;
  return new Date(now.getTime() - rangeDays[range] * 24 * HOUR_MS).toISOString();
}

/** The filters as query parameters; the CSV export takes the same ones (without paging). */
export function historySearch(
  filters: Omit<HistoryFilters, 'page' | 'perPage'> & Partial<Pick<HistoryFilters, 'page' | 'perPage'>>,
  now: Date = new Date(),
): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.page !== undefined) params.set('page', String(filters.page));
  if (filters.perPage !== undefined) params.set('per_page', String(filters.perPage));
  // A page of the list is a page of actions (a deployment's forty rows are one entry); the CSV export,
  // which has no pages, keeps one line per row.
  if (filters.page !== undefined) params.set('group', 'operation');
  if (filters.type !== 'all') params.set('transaction_type', filters.type);
  const start = startDateFor(filters.range, now);
  if (start) params.set('start_date', start);
  return params;
}

export function isTransactionType(value: string): value is TransactionType {
  return (transactionTypes as readonly string[]).includes(value);
}

const scopePath = (scope: HistoryScope) => `${API_V1}/transactions/${scope.kind}/${scope.id}`;

/** One action as the list shows it: its main row and headline, the other rows it wrote behind it. */
export interface HistoryEntry {
  id: string;
  summary: string;
  /**
   * What the action was: its kind's label where the server names one (a deployment, whose main row makes a
   * container: "Shop deployed", not "Container created"), else its main row's type.
   */
  badge: string;
  lead: LedgerTransaction;
  /** The rows behind "Show N more": all of them when the headline does not tell the lead's own. */
  rest: LedgerTransaction[];
  /** The headline tells the whole action (a deployment's stock), not the lead row alone. */
  aggregated: boolean;
}

export interface TransactionPage {
  transactions: LedgerTransaction[];
  /** The rows as entries, one per action. */
  entries: HistoryEntry[];
  meta: PageMeta;
}

/**
 * The rows of one action (the same `operation`) as one entry, led by the first (the server lists the main
 * row first) and headed by the server's headline for it and badged by its kind. A row without an operation
 * is an entry alone.
 */
export function historyEntries(
  transactions: LedgerTransaction[],
  operations: ReadonlyMap<string, Pick<TransactionOperation, 'summary' | 'kind'>> = new Map(),
): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const row of transactions) {
    const last = entries.at(-1);
    if (last && row.operation !== undefined && last.lead.operation === row.operation) {
      last.rest.push(row);
      continue;
    }
    const id = row.operation ?? row.id;
    const operation = row.operation === undefined ? undefined : operations.get(row.operation);
    const summary = operation?.summary || row.transaction_summary;
    const badge = operationKindLabel(operation?.kind) ?? transactionTypeLabel(row.transaction_type);
    entries.push({
      id,
      summary,
      badge,
      lead: row,
      rest: [],
      aggregated: summary !== row.transaction_summary,
    });
  }
  // A headline that starts with the lead's own words ("newgm deployed Ironhand Forge with 10 kinds of
  // items") tells it; one that does not ("Ironhand Forge stocked 10 kinds…") lists the lead behind it too.
  return entries.map((entry) =>
    entry.aggregated && !entry.summary.startsWith(entry.lead.transaction_summary)
      ? { ...entry, rest: [entry.lead, ...entry.rest] }
      : entry,
  );
}

export function transactionsQuery(scope: HistoryScope, filters: HistoryFilters) {
  return queryOptions({
    queryKey: transactionKeys.list(scope, filters),
    queryFn: async ({ signal }): Promise<TransactionPage> => {
      const { data, meta } = await apiRequest(`${scopePath(scope)}?${historySearch(filters)}`, {
        schema: z.object({
          transactions: z.array(transactionSchema),
          operations: z.array(transactionOperationSchema).optional(),
        }),
        signal,
        toast: false,
      });
      const parsed = pageMetaSchema.safeParse(meta);
      const { transactions } = data;
      return {
        transactions,
        entries: historyEntries(transactions, new Map(data.operations?.map((op) => [op.id, op]))),
        meta: parsed.success
          ? parsed.data
          : {
              current_page: filters.page,
              total_pages: 1,
              total_count: transactions.length,
              per_page: filters.perPage,
            },
      };
    },
    staleTime: TRANSACTIONS_STALE_MS,
    // A refusal (4xx) will not change on retry; network and server failures get the spec's two retries.
    retry: (failureCount, error) =>
      failureCount < TRANSACTIONS_RETRIES &&
      !(isApiError(error) && error.status >= 400 && error.status < 500),
    // Paging and filtering keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/** spec/02 §9: transactions-{id}-{date}.csv, unless the server names the file itself. */
export function csvFileName(scopeId: string, contentDisposition: string | null, now = new Date()): string {
  const named = contentDisposition?.match(/filename="?([^";]+)"?/i)?.[1];
  return named ?? `transactions-${scopeId}-${isoDate(now)}.csv`;
}

async function fetchCsv(url: string): Promise<Response> {
  const token = tokenStorage.getAccessToken();
  return fetch(url, {
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'same-origin',
  });
}

/**
 * Download the ledger as CSV with the list's filters. The export needs the bearer header, so it is fetched
 * and handed to the browser as an object URL rather than followed as a plain link. A 401 refreshes the
 * session once, like every other call.
 */
export async function exportTransactionsCsv(
  scope: HistoryScope,
  filters: Pick<HistoryFilters, 'range' | 'type'>,
): Promise<string> {
  const url = `${scopePath(scope)}/export.csv?${historySearch(filters)}`;
  let response = await fetchCsv(url);
  if (response.status === 401 && (await refreshSession())) response = await fetchCsv(url);
  if (!response.ok) throw new Error(`Export failed with status ${response.status}`);
  const fileName = csvFileName(scope.id, response.headers.get('content-disposition'));
  saveBlob(await response.blob(), fileName);
  return fileName;
}
