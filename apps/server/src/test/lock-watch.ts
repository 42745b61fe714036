import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { TestContext } from './helper.js';

export type Sent = {
  answer: Promise<LightMyRequestResponse>;
  /** 'answered first': done before the caller's transaction let go; 'waited': blocked on a lock it holds. */
  outcome: 'answered first' | 'waited';
};

/**
 * A connection of the test's own to its PostgreSQL database, outside the app's pool, that watches for
 * sessions waiting on a lock (pg_stat_activity): a race test sends a second request while the first holds
 * its locks, and learns whether the second had to wait for them. PostgreSQL only.
 */
export async function watchLocks(ctx: TestContext) {
  const current = await ctx.database.db.execute(sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${(current as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
  const watcher = new pg.Client({ connectionString: url.toString() });
  await watcher.connect();

  async function someoneWaits(): Promise<boolean> {
    const result = await watcher.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    return (result.rows[0]?.n ?? 0) > 0;
  }

  /** Sends the request and returns once it has answered, or waits on a lock (one the caller holds). */
  async function sendUntilAnsweredOrWaiting(send: () => Promise<LightMyRequestResponse>): Promise<Sent> {
    const answer = send();
    let answered = false;
    void answer.then(() => {
      answered = true;
    });
    while (!answered && !(await someoneWaits())) await new Promise((resolve) => setTimeout(resolve, 10));
    return { answer, outcome: answered ? 'answered first' : 'waited' };
  }

  return { sendUntilAnsweredOrWaiting, close: () => watcher.end() };
}
