import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import type { AdminJob, HealthStatus, JobStatus, PageMeta, SystemHealth } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type JobRow, jobsRepository } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import type { CableStats } from '../../realtime/cable-server.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import type { AuditLog } from './audit-log.js';

/** A ping slower than this is worth a look; a dependency that does not answer within the timeout is down. */
const SLOW_MS = 500;
const PING_TIMEOUT_MS = 2_000;

/** Set by the bundler (scripts/bundle-server.mjs): the commit built and when; absent under tsx. */
declare const __HAVERSACK_BUILD__: { commit: string | null; builtAt: string } | undefined;

/**
 * The version, and for a build the commit and the day it was built ("0.1.0 (3e7d3a8c1f, built
 * 2026-11-27)"): the version alone stays the same from one upgrade to the next.
 */
function readAppVersion(): string {
  const version = readPackageVersion();
  if (typeof __HAVERSACK_BUILD__ === 'undefined') return version;
  const { commit, builtAt } = __HAVERSACK_BUILD__;
  return `${version} (${commit ? `${commit}, ` : ''}built ${builtAt.slice(0, 10)})`;
}

/** apps/server/package.json, from src/modules/admin or dist/modules/admin alike. */
function readPackageVersion(): string {
  try {
    const raw: unknown = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    if (raw && typeof raw === 'object' && 'version' in raw && typeof raw.version === 'string')
      return raw.version;
  } catch {
    // A packaging without package.json still answers the rest of the page.
  }
  return 'unknown';
}

async function timed(ping: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), PING_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return Math.round((performance.now() - started) * 10) / 10;
}

async function probe(
  ping: () => Promise<unknown>,
): Promise<{ status: HealthStatus; latency_ms: number | null }> {
  try {
    const latency = await timed(ping);
    return { status: latency > SLOW_MS ? 'warn' : 'ok', latency_ms: latency };
  } catch {
    return { status: 'down', latency_ms: null };
  }
}

function toJobJson(row: JobRow): AdminJob {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    run_at: row.runAt.toISOString(),
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
  };
}

export interface SystemHealthDeps {
  db: Database;
  audit: AuditLog;
  now: () => Date;
  databaseEngine: 'pglite' | 'postgres';
  /** Set when REDIS_URL is: the client the broadcaster shares. */
  redis?: { ping(): Promise<unknown> };
  mailTransport: 'smtp' | 'file';
  billingProvider: 'stripe' | 'local' | 'none';
  /** Read at call time: the cable registers after the services are made. */
  cable: () => CableStats;
  /** DATA_DIR, whose disk's free room the page shows. */
  dataDir: string;
}

/** Under these the disk card warns, then says down (PGlite's first start alone writes about 40 MB). */
const DISK_WARN_BYTES = 1024 ** 3;
const DISK_DOWN_BYTES = 64 * 1024 ** 2;

/** The room left on the disk holding `dataDir`, or null when it cannot be read. */
async function freeBytes(dataDir: string): Promise<number | null> {
  try {
    const stats = await statfs(dataDir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** Issue 15 item 4: the System Health page and the Background Jobs page. */
export class SystemHealthService {
  readonly #deps: SystemHealthDeps;
  readonly #version = readAppVersion();

  constructor(deps: SystemHealthDeps) {
    this.#deps = deps;
  }

  async health(): Promise<SystemHealth> {
    const { db, redis, now } = this.#deps;
    const [database, redisProbe, jobs, free] = await Promise.all([
      probe(() => db.execute(sql`select 1`)),
      redis ? probe(() => redis.ping()) : Promise.resolve(undefined),
      jobsRepository.counts(db, now()).catch(() => undefined),
      freeBytes(this.#deps.dataDir),
    ]);
    const cable = this.#deps.cable();
    const mail = this.#deps.mailTransport;
    const billing = this.#deps.billingProvider;
    return {
      checked_at: now().toISOString(),
      database: { ...database, engine: this.#deps.databaseEngine === 'pglite' ? 'pglite' : 'postgresql' },
      // Without Redis one process fans out in memory: a fine set-up, not a fault.
      redis: redisProbe
        ? { ...redisProbe, configured: true }
        : { status: 'ok', configured: false, latency_ms: null },
      // Mail written to files reaches nobody; billing that is off or free is a choice worth seeing.
      mail: { status: mail === 'smtp' ? 'ok' : 'warn', transport: mail },
      billing: { status: billing === 'stripe' ? 'ok' : 'warn', provider: billing },
      realtime: { status: 'ok', connections: cable.connections, streams: cable.streams },
      jobs: jobs
        ? { status: jobs.failed > 0 ? 'warn' : 'ok', ...jobs }
        : { status: 'down', queued: 0, scheduled: 0, failed: 0 },
      disk: {
        status:
          free === null ? 'warn' : free < DISK_DOWN_BYTES ? 'down' : free < DISK_WARN_BYTES ? 'warn' : 'ok',
        free_bytes: free,
      },
      app: {
        version: this.#version,
        node_version: process.version,
        uptime_s: Math.round(process.uptime()),
        memory_rss_bytes: process.memoryUsage.rss(),
      },
    };
  }

  async listJobs(
    status: JobStatus,
    page: number,
    perPage: number,
  ): Promise<{ jobs: AdminJob[]; meta: PageMeta }> {
    const { rows, total } = await jobsRepository.list(this.#deps.db, status, this.#deps.now(), {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      jobs: rows.map(toJobJson),
      meta: {
        current_page: page,
        per_page: perPage,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / perPage)),
      },
    };
  }

  /**
   * Runs the job at the next poll: run_at becomes now. Attempts and the last error stay, so the job
   * stays on the failed list until a try succeeds (the queue then deletes or resets it).
   */
  async retryJob(caller: AdminCaller, jobId: string): Promise<AdminJob> {
    return this.#deps.db.transaction(async (tx) => {
      const job = await jobsRepository.findForUpdate(tx, jobId);
      if (!job) throw AppError.notFound('That job could not be found; it may have run already.');
      const runAt = this.#deps.now();
      await jobsRepository.moveRunAt(tx, job.id, runAt);
      await this.#deps.audit.record(tx, {
        ...auditActor(caller),
        action: 'job_retried',
        targetType: 'job',
        targetId: job.id,
        before: { run_at: job.runAt.toISOString() },
        after: { run_at: runAt.toISOString() },
        details: { kind: job.kind, key: job.key, attempts: job.attempts, last_error: job.lastError },
      });
      return toJobJson({ ...job, runAt });
    });
  }
}
