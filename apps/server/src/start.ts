import { createServer } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { type DatabaseHandle, openPostgres } from './db/client.js';
import { diagnoseDataDir } from './db/data-dir-diagnosis.js';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.js';
import { checkJwtSecret, recordJwtSecret } from './db/jwt-secret-fingerprint.js';
import { MigrationFailedError, NewerDatabaseError } from './db/migration-journal.js';
import { keepPlannerStatistics } from './db/planner-statistics.js';
import {
  compilePgliteForSmallMemory,
  openPreparedPglite,
  type Preparation,
  prepareDatabase,
} from './db/prepare.js';
import { describeSeedChanges } from './db/seed-changes.js';
import { appUrlAdvice } from './lib/app-url-advice.js';
import { reasonOf } from './lib/error-reason.js';
import { fail } from './lib/fail.js';
import { prettyLines, resolveLogFormat } from './lib/log-format.js';
import { LogDestination, loggerOptions } from './lib/logger.js';
import { MailQueue } from './lib/mail-queue.js';
import { createMailer } from './lib/mailer.js';
import { withoutPassword } from './lib/redacted-url.js';
import { loadOrCreateJwtSecret } from './lib/secrets.js';
import { defaultAuthRateLimits, scaleRateLimits } from './plugins/rate-limit.js';

/** Whether the server could listen there now: a probe opened and closed at once; the error when not. */
function cannotListen(host: string, port: number): Promise<Error | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(error));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/**
 * Opens (creates or upgrades) the database, builds the app and listens: everything a start does once the
 * arguments and the configuration passed (main.ts). main.ts imports this module only then, so a --help or a
 * bad setting answers without loading the app, the database drivers and everything they import.
 */
export async function start(config: Config): Promise<void> {
  const logDestination = new LogDestination(1);
  const pretty =
    resolveLogFormat(config.logFormat, { isTty: Boolean(process.stdout.isTTY), nodeEnv: config.nodeEnv }) ===
    'pretty';
  const log = pino(
    loggerOptions(config.logLevel),
    pretty ? await prettyLines(logDestination, Boolean(process.stdout.isTTY)) : logDestination,
  );
  const dataDir = path.resolve(config.dataDir);
  let releaseLock = () => {};
  // process.exit waits for every write pending in libuv's thread pool: with the log stuck on a pipe that
  // nobody reads it would never return. Then only a signal ends the process, and SIGTERM's default action
  // (our handler removed) does it at once; SIGKILL if even that returned. The lock goes first: a process
  // that ends holds no files, and the next start must not find it held.
  const exitNow = (code: number): never => {
    releaseLock();
    if (logDestination.busy) {
      process.removeAllListeners('SIGTERM');
      process.kill(process.pid, 'SIGTERM');
      process.kill(process.pid, 'SIGKILL');
    }
    process.exit(code);
  };

  // Whatever stops the start (the database, the app, the port) ends the process with one line, after
  // releasing DATA_DIR and closing what was opened.
  let database: DatabaseHandle | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const failStart = async (message: string, error: unknown): Promise<never> => {
    log.debug({ err: error }, 'start failed');
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
    releaseLock();
    fail(message);
  };

  let preparation: Preparation;
  try {
    // The address before the database: a typo in HOST or a port already taken would otherwise be found
    // only after the database was created or upgraded (a start that fails would have migrated it anyway).
    // After the lock, which names the Haversack process already running here.
    const listenable = async () => {
      const unusable = await cannotListen(config.host, config.port);
      if (unusable) {
        releaseLock();
        fail(`cannot listen on ${config.host}:${config.port}: ${reasonOf(unusable)}`);
      }
    };
    if (config.databaseUrl) {
      await listenable();
      database = await openPostgres(config.databaseUrl);
      preparation = await prepareDatabase(database);
    } else {
      releaseLock = lockDataDir(dataDir, (message) => log.warn(message));
      await listenable();
      compilePgliteForSmallMemory();
      // Migrated and seeded, by a child process when there is work to do (issue 13 §6).
      const prepared = await openPreparedPglite(path.join(dataDir, 'pglite'), {
        // Seconds with nothing else said: the operator learns the start is busy, not stuck.
        onPreparing: (created) =>
          log.info(
            created
              ? `creating the database in ${dataDir} (the first start takes a minute or less)…`
              : `updating the database in ${dataDir} (migrations and seed data)…`,
          ),
      });
      ({ database, ...preparation } = prepared);
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    // Not a failure to open: the database is fine, for the build that upgraded it.
    if (error instanceof NewerDatabaseError) return failStart(error.message, error);
    // Nor is this: the database opened, and a migration said why it could not apply.
    if (error instanceof MigrationFailedError) return failStart(error.message, error);
    const where = config.databaseUrl ? ` at ${withoutPassword(config.databaseUrl)}` : ` in ${dataDir}`;
    // PGlite's own words seldom name the cause ("Aborted()"): a file this user cannot write, a full disk.
    const cause = config.databaseUrl ? null : diagnoseDataDir(dataDir);
    return failStart(`cannot open the database${where}: ${cause ?? reasonOf(error)}`, error);
  }
  // What an upgrade changed in the database, once, where the operator looks for it.
  const { appliedMigrations, seedChanges } = preparation;
  if (appliedMigrations.length > 0) {
    log.info(
      { migrations: appliedMigrations },
      `applied ${appliedMigrations.length} database migration${appliedMigrations.length === 1 ? '' : 's'}: ${appliedMigrations.join(', ')}`,
    );
  }
  // Items carried follow their template: a corrected SRD item changes weight in every inventory at once.
  const seedLine = seedChanges && describeSeedChanges(seedChanges);
  if (seedLine) log.info({ seedChanges }, seedLine);

  let jwtSecret: string;
  try {
    jwtSecret = config.jwtSecret ?? loadOrCreateJwtSecret(dataDir);
    const check = await checkJwtSecret(database.db, jwtSecret);
    if (check.status === 'different' && database.kind === 'postgres') {
      // Refused, not warned: behind a load balancer this process would answer 401 to the sessions the
      // others made and mail links they refuse, at random for each user, which no one traces back to it.
      const recordedAt = check.recordedAt.toISOString();
      return failStart(
        `JWT_SECRET is not the one this database's other processes use (recorded at ${recordedAt})${config.jwtSecret ? '' : '; it is not set, so this process would sign with its own DATA_DIR/jwt-secret'}: set the same JWT_SECRET on every process; to replace it on purpose, stop every process and run node apps/server/dist/cli/admin.js forget-jwt-secret first (every session ends)`,
        null,
      );
    }
    if (check.status === 'different') {
      // PGlite: one process at a time (the DATA_DIR lock), so a new secret is a replacement, not a stranger.
      await recordJwtSecret(database.db, jwtSecret);
      log.warn(
        'JWT_SECRET changed since the last start: every session and every mailed link made before is no longer valid',
      );
    }
  } catch (error) {
    // A file of DATA_DIR another user owns (the generated jwt-secret): named with how to give it back.
    const code = (error as NodeJS.ErrnoException).code;
    const cause = code === 'EACCES' || code === 'EPERM' ? diagnoseDataDir(dataDir) : null;
    return failStart(`cannot start: ${cause ?? reasonOf(error)}`, error);
  }
  if (database.kind === 'postgres' && !config.jwtSecret)
    log.warn(
      `JWT_SECRET is not set: this process signs sessions with the secret in its own DATA_DIR (${path.join(dataDir, 'jwt-secret')}); set JWT_SECRET, the same on every process, before starting another one on this database`,
    );

  const mail = new MailQueue(
    createMailer({
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      from: config.mailFrom,
      dataDir,
      log,
      // Someone reading the terminal gets the mailed link on a line of its own (never in JSON logs).
      ...(pretty ? { showLink: (line: string) => logDestination.write(`${line}\n`) } : {}),
    }),
  );
  try {
    app = await buildApp({
      config,
      database,
      mail,
      jwtSecret,
      logger: log,
      rateLimits: scaleRateLimits(defaultAuthRateLimits, config.rateLimitScale),
    });
  } catch (error) {
    // A file of DATA_DIR another user owns (the generated jwt-secret): named with how to give it back.
    const code = (error as NodeJS.ErrnoException).code;
    const cause = code === 'EACCES' || code === 'EPERM' ? diagnoseDataDir(dataDir) : null;
    return failStart(`cannot start: ${cause ?? reasonOf(error)}`, error);
  }
  const running = { app, database };

  let closing = false;
  let statistics: { stop(): Promise<void> } | undefined;
  const shutdownMs = config.shutdownTimeoutS * 1000;
  // Part of the deadline is kept for the last log lines; past it they are dropped, not waited for.
  const flushAllowanceMs = Math.min(1000, shutdownMs / 4);
  const shutdown = async (signal: string) => {
    if (closing) {
      log.warn({ signal }, 'second signal: exiting now');
      exitNow(1);
    }
    closing = true;
    const startedAt = Date.now();
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Not unref'd: this timer is what guarantees the end, whatever else still holds the event loop.
    // SHUTDOWN_TIMEOUT bounds the whole stop, so the work is given up the flush allowance before it.
    const giveUpMs = shutdownMs - flushAllowanceMs;
    setTimeout(() => {
      log.error(
        `shutdown not finished after ${giveUpMs / 1000} s; exiting to end within SHUTDOWN_TIMEOUT (${config.shutdownTimeoutS} s; the rest is kept for the last log lines)`,
      );
      void logDestination.drained(flushAllowanceMs).then(() => exitNow(1));
    }, giveUpMs);
    let code = 0;
    try {
      await statistics?.stop();
      await running.app.close();
      mail.close();
      await running.database.close();
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      code = 1;
    } finally {
      releaseLock();
      log.info('stopped');
      const left = shutdownMs - (Date.now() - startedAt);
      await logDestination.drained(Math.max(0, Math.min(flushAllowanceMs, left)));
      exitNow(code);
    }
  };
  // Diagnostics: SIGUSR2 logs memory use (after a full GC when started with --expose-gc).
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    log.warn({ memory: process.memoryUsage() }, 'memory usage');
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await running.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    return failStart(`cannot listen on ${config.host}:${config.port}: ${reasonOf(error)}`, error);
  }
  // Scheduled restocks and other background jobs (DESIGN §10); every process polls, each job runs once.
  running.app.services.jobs.start(15_000);
  // PGlite runs no autovacuum: the planner's statistics are kept up here (db/planner-statistics.ts).
  if (running.database.kind === 'pglite') {
    statistics = keepPlannerStatistics(running.database.db, (err) =>
      log.warn({ err }, 'could not update the database planner statistics'),
    );
  }
  log.info(`Haversack is ready at ${config.appUrl} (database: ${running.database.kind})`);
  const advice = appUrlAdvice(config);
  if (advice) log.warn(advice);
}
