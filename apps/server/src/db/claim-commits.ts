import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * This server process, as an Idempotency-Key's claim records it (`idempotency_keys.claimed_by`). On
 * PostgreSQL its connections carry it as their `application_name` (`processName`), so another process can
 * tell whether the claimant still runs (plugins/idempotency.ts).
 */
export const BOOT_ID = randomUUID();

/** The `application_name` of the connections of the process `bootId` (63 characters at most). */
export const processName = (bootId: string) => `haversack ${bootId}`;

/**
 * A request's claim of an Idempotency-Key (plugins/idempotency.ts): whatever the request commits marks the
 * claim's row `committed` in the same transaction, just before its COMMIT, so that a claim left without an
 * answer (the process died) says whether its change may have been made. A retry takes over a claim only
 * while it is not marked; the mark of a claim taken over raises (the row is gone) and rolls the late
 * transaction back: a change is made once whoever commits it.
 */
export interface CommitClaim {
  /** The claim's row in `idempotency_keys`. */
  readonly rowId: string;
  /** False once the request's answer is kept or dropped: work it left running marks nothing. */
  open: boolean;
  /** Marked by a committed statement already: the row stays marked, nothing more to send. */
  marked: boolean;
}

const claims = new AsyncLocalStorage<CommitClaim>();

/** Runs `work` (a route's handler) with what it commits marking `claim`. */
export function withCommitClaim<T>(claim: CommitClaim, work: () => T): T {
  return claims.run(claim, work);
}

/**
 * The claim what runs now must mark before it commits, if any. Requests without an Idempotency-Key have
 * none: their statements and transactions only pay this look-up.
 */
export function claimToMark(): CommitClaim | undefined {
  const claim = claims.getStore();
  return claim?.open && !claim.marked ? claim : undefined;
}

/** The statement that marks a claim, sent in the transaction that commits its change (migration 0028). */
export const MARK_CLAIM_SQL = 'select idempotency_key_committed($1)';

/**
 * Makes every drizzle transaction of `db` that runs for a claim mark it as its last statement (the
 * pipelined ones on PostgreSQL do the same in db/postgres-pipeline.ts). A transaction inside another,
 * on its own connection, marks too: the claim is marked by whichever commits first.
 */
export function markClaimsInTransactions(db: Database): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => {
    const claim = claimToMark();
    if (!claim) return transaction(work, config);
    return transaction(async (tx) => {
      const result = await work(tx);
      if (claim.open && !claim.marked)
        await tx.execute(sql`select idempotency_key_committed(${claim.rowId})`);
      return result;
    }, config).then((result) => {
      claim.marked = true;
      return result;
    });
  }) as Database['transaction'];
}

/**
 * A statement that certainly changes nothing: a SELECT, or a WITH without a data-modifying part. Anything
 * else run outside a transaction for a claim is taken for a change (erring towards "may have committed").
 */
export function onlyReads(text: string): boolean {
  if (/^\s*select\b/i.test(text)) return true;
  return /^\s*with\b/i.test(text) && !/\b(insert|update|delete|merge)\b/i.test(text);
}

type Query = (...args: unknown[]) => Promise<unknown>;

/**
 * Makes the statements a driver's client (the pool of node-postgres, or PGlite outside its transactions)
 * runs on their own, each committing as it ends, mark the claim they run for first when they may change
 * something: such a change has no transaction to carry the mark, so the claim is marked before it is sent,
 * in a statement of its own. Dying between the two leaves a claim marked for a change not made (held,
 * never made twice). `methods` take the statement's text, or a config with `text`, first.
 */
export function markClaimsBeforeOwnStatements(client: object, methods: string[]): void {
  const target = client as Record<string, Query>;
  const query = target.query?.bind(client);
  if (!query) throw new Error('markClaimsBeforeOwnStatements: the client has no query');
  for (const name of methods) {
    const original = target[name]?.bind(client);
    if (!original) continue;
    target[name] = (...args: unknown[]) => {
      const claim = claimToMark();
      if (!claim) return original(...args);
      const [statement] = args;
      const text =
        typeof statement === 'string' ? statement : (statement as { text?: unknown } | undefined)?.text;
      if (typeof text === 'string' && onlyReads(text)) return original(...args);
      return query(MARK_CLAIM_SQL, [claim.rowId]).then(() => {
        claim.marked = true;
        return original(...args);
      });
    };
  }
}
