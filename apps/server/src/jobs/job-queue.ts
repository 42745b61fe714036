import { and, asc, count, eq, gt, isNotNull, isNull, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { jobs } from '../db/schema/jobs.js';
import { withChangeSource } from '../lib/change-source.js';

export type JobRow = typeof jobs.$inferSelect;

/** The Background Jobs page's three lists; a job is in exactly one of them. */
export type JobListStatus = 'queued' | 'scheduled' | 'failed';

/** Failed: tried at least once and the last try threw (it waits for its next retry, or an admin's). */
const failedJob = and(gt(jobs.attempts, 0), isNotNull(jobs.lastError));
const notFailed = or(eq(jobs.attempts, 0), isNull(jobs.lastError));

function jobStatusFilter(status: JobListStatus, now: Date): SQL | undefined {
  if (status === 'failed') return failedJob;
  if (status === 'queued') return and(notFailed, lte(jobs.runAt, now));
  return and(notFailed, gt(jobs.runAt, now));
}

/** What the admin back office reads and does to the queue (issue 15, System Health and Background Jobs). */
export const jobsRepository = {
  async counts(db: Executor, now: Date): Promise<Record<JobListStatus, number>> {
    const [row] = await db
      .select({
        queued: sql<number>`count(*) filter (where ${jobStatusFilter('queued', now)})`.mapWith(Number),
        scheduled: sql<number>`count(*) filter (where ${jobStatusFilter('scheduled', now)})`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${failedJob})`.mapWith(Number),
      })
      .from(jobs);
    return { queued: row?.queued ?? 0, scheduled: row?.scheduled ?? 0, failed: row?.failed ?? 0 };
  },

  /** Oldest run_at first: the job that should have run longest ago leads. */
  async list(
    db: Executor,
    status: JobListStatus,
    now: Date,
    page: { limit: number; offset: number },
  ): Promise<{ rows: JobRow[]; total: number }> {
    const where = jobStatusFilter(status, now);
    const rows = await db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await db.select({ n: count() }).from(jobs).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /** Locks the job so a retry and a worker claiming it do not cross. */
  async findForUpdate(tx: Executor, id: string): Promise<JobRow | undefined> {
    const [row] = await tx.select().from(jobs).where(eq(jobs.id, id)).limit(1).for('update');
    return row;
  },

  async moveRunAt(tx: Executor, id: string, runAt: Date): Promise<void> {
    await tx.update(jobs).set({ runAt }).where(eq(jobs.id, id));
  },
};
/**
 * Runs inside the transaction that claimed the job; throwing rolls the work back and retries later.
 * Returning a date runs the same job again then (a recurring restock); otherwise the job is done.
 */
export type JobHandler = (
  tx: Executor,
  job: JobRow,
  afterCommit: (fn: () => void) => void,
) => Promise<Date | undefined>;

/**
 * A job whose work must not run inside a transaction: mails handed to an SMTP server (account mails, a
 * batch of mass mail). On PGlite a transaction holds the only connection, so a slow mail server would hold
 * every request (see JobQueue).
 */
export interface DetachedJobHandler<Work> {
  /**
   * Runs in the claiming transaction: answers the work to do, or undefined when nothing is left to do (the
   * job is then done). Throwing fails the job as any job's handler does.
   */
  prepare(tx: Executor, job: JobRow): Promise<Work | undefined>;
  /**
   * Runs after the claim committed, outside any transaction; throwing fails the job (retried). Returning a
   * date runs the same job again then (the next batch of a mass mail); otherwise the job is done.
   */
  run(work: Work): Promise<Date | undefined>;
  /**
   * With several processes on the database, how long the claim keeps the job from their polls while `run`
   * works; one that dies meanwhile leaves the job to be claimed again when the lease ends. `run` is given up
   * (failed) at half of it, in every case.
   */
  leaseMs: number;
}

/** A failed job is tried again after 1, 2, 4 … minutes, at most an hour apart. */
function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * DESIGN §10: the durable job queue, a table in the application's own database (see docs/decisions.md:
 * pg-boss and graphile-worker both need a real PostgreSQL server, PGlite has no LISTEN across
 * processes). A job is claimed with `FOR UPDATE SKIP LOCKED` and done in the same transaction as its
 * work, so two processes never run it twice and a crash leaves it to be claimed again. A detached job
 * (registerDetached) is worked outside the transaction, at least once: this process skips it while it
 * works on it; other processes on the same database (PostgreSQL) are kept off by a lease. On PGlite no
 * other process can poll (the DATA_DIR lock), so there is no lease, and what a process that died was
 * sending is sent again as soon as the next one starts.
 */
export class JobQueue {
  readonly #handlers = new Map<string, JobHandler>();
  readonly #detached = new Map<string, DetachedJobHandler<unknown>>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;
  /** Jobs started by runSoon, awaited by stop() and settled(). */
  readonly #soon = new Set<Promise<unknown>>();
  /** Detached jobs this process is working on outside a transaction: its polls pass them by. */
  readonly #working = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly log?: FastifyBaseLogger,
    /** `true` when no other process polls this database (PGlite): detached jobs need no lease. */
    private readonly alone = false,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.#handlers.set(kind, handler);
  }

  registerDetached<Work>(kind: string, handler: DetachedJobHandler<Work>): void {
    this.#detached.set(kind, handler as DetachedJobHandler<unknown>);
  }

  /**
   * Runs the job of `key` now in this process, without waiting for the next poll; call it after the commit
   * that scheduled the job. Not awaited by the caller: what it does and how it fails is the job's, and a
   * process that dies first leaves the job to the next poll (of this process restarted, or of another).
   */
  runSoon(key: string): void {
    const running = withChangeSource('system', () => this.#runOne(eq(jobs.key, key))).catch(
      (error: unknown) => {
        this.log?.error({ err: error, key }, 'job could not be run');
      },
    );
    this.#soon.add(running);
    void running.finally(() => this.#soon.delete(running));
  }

  /** Waits for the jobs runSoon started (graceful shutdown, tests). */
  async settled(): Promise<void> {
    while (this.#soon.size > 0) await Promise.all([...this.#soon]);
  }

  /** Schedules (or moves) the one job of `key`, inside the caller's transaction. */
  async schedule(
    tx: Executor,
    job: { kind: string; key: string; runAt: Date; payload?: Record<string, unknown> },
  ) {
    await tx
      .insert(jobs)
      .values({ kind: job.kind, key: job.key, runAt: job.runAt, payload: job.payload ?? {} })
      .onConflictDoUpdate({
        target: jobs.key,
        set: { kind: job.kind, runAt: job.runAt, payload: job.payload ?? {}, attempts: 0, lastError: null },
      });
  }

  async cancel(tx: Executor, key: string) {
    await tx.delete(jobs).where(eq(jobs.key, key));
  }

  async find(db: Executor, key: string): Promise<JobRow | undefined> {
    const [row] = await db.select().from(jobs).where(eq(jobs.key, key)).limit(1);
    return row;
  }

  /** Runs every job due now, one transaction each; returns how many ran. */
  async runDue(limit = 100): Promise<number> {
    // DESIGN §4: what a scheduled job changes comes from the system, not from whoever scheduled it.
    return withChangeSource('system', () => this.#runDueNow(limit));
  }

  async #runDueNow(limit: number): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      const outcome = await this.#runOne();
      if (outcome === 'none') break;
      ran += 1;
    }
    return ran;
  }

  /** `only`: the one job runSoon asked for (when due and not claimed elsewhere). */
  async #runOne(only?: SQL): Promise<'ran' | 'failed' | 'none'> {
    let claimed: JobRow | undefined;
    const committed: (() => void)[] = [];
    try {
      let detached: { handler: DetachedJobHandler<unknown>; work: unknown } | undefined;
      const outcome = await this.db.transaction(async (tx): Promise<'ran' | 'none'> => {
        const now = this.now();
        const [job] = await tx
          .select()
          .from(jobs)
          .where(
            and(
              lte(jobs.runAt, now),
              only,
              this.#working.size > 0 ? notInArray(jobs.id, [...this.#working]) : undefined,
            ),
          )
          .orderBy(asc(jobs.runAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!job) return 'none';
        claimed = job;
        const outside = this.#detached.get(job.kind);
        if (outside) {
          const work = await outside.prepare(tx, job);
          if (work === undefined) {
            await tx.delete(jobs).where(eq(jobs.id, job.id));
            return 'ran';
          }
          if (!this.alone) {
            // The lease: no other process claims the job until it ends, unless this one dies first.
            await tx
              .update(jobs)
              .set({ runAt: new Date(now.getTime() + outside.leaseMs) })
              .where(eq(jobs.id, job.id));
          }
          this.#working.add(job.id);
          detached = { handler: outside, work };
          return 'ran';
        }
        const handler = this.#handlers.get(job.kind);
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        const next = await handler(tx, job, (fn) => committed.push(fn));
        if (next)
          await tx.update(jobs).set({ runAt: next, attempts: 0, lastError: null }).where(eq(jobs.id, job.id));
        else await tx.delete(jobs).where(eq(jobs.id, job.id));
        return 'ran';
      });
      for (const fn of committed) fn();
      if (detached && claimed) {
        const next = await withTimeout(detached.handler.run(detached.work), detached.handler.leaseMs / 2);
        if (next)
          await this.db
            .update(jobs)
            .set({ runAt: next, attempts: 0, lastError: null })
            .where(eq(jobs.id, claimed.id));
        else await this.db.delete(jobs).where(eq(jobs.id, claimed.id));
      }
      return outcome;
    } catch (error) {
      if (!claimed) throw error;
      const job = claimed;
      this.log?.warn({ err: error, job: job.kind, key: job.key }, 'job failed; it will be retried');
      await this.db
        .update(jobs)
        .set({
          attempts: job.attempts + 1,
          lastError: error instanceof Error ? error.message.slice(0, 1000) : String(error),
          runAt: new Date(this.now().getTime() + retryDelayMs(job.attempts + 1)),
        })
        .where(eq(jobs.id, job.id));
      return 'failed';
    } finally {
      // Only once its row says what happened (gone, or failed until its retry), for this process's polls.
      if (claimed) this.#working.delete(claimed.id);
    }
  }

  /**
   * Polls at once, then every `intervalMs` until stop(); one poll at a time in this process. At once: what
   * a process that died left due (an account mail it had not sent) goes as soon as the next one is up.
   */
  start(intervalMs: number): void {
    if (this.#timer) return;
    const poll = () => {
      if (this.#running) return;
      this.#running = this.runDue().catch((error: unknown) => {
        this.log?.error({ err: error }, 'job poll failed');
        return 0;
      });
      void this.#running.finally(() => {
        this.#running = undefined;
      });
    };
    this.#timer = setInterval(poll, intervalMs);
    this.#timer.unref();
    poll();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
    await this.settled();
  }
}

/** Fails after `ms` if `work` has not settled by then (the work itself is not stopped). */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
