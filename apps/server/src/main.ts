import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { type DatabaseHandle, openPglite, openPostgres } from './db/client.js';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock.js';
import { seedDatabase } from './db/seed.js';
import { MailQueue } from './lib/mail-queue.js';
import { createMailer } from './lib/mailer.js';
import { loadOrCreateJwtSecret } from './lib/secrets.js';
import { defaultAuthRateLimits, scaleRateLimits } from './plugins/rate-limit.js';

function fail(message: string): never {
  process.stderr.write(`haversack: ${message}\n`);
  process.exit(1);
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const log = pino({ level: config.logLevel });
  const dataDir = path.resolve(config.dataDir);

  let releaseLock = () => {};
  let database: DatabaseHandle;
  try {
    if (config.databaseUrl) {
      database = await openPostgres(config.databaseUrl);
    } else {
      releaseLock = lockDataDir(dataDir);
      database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    fail(`cannot open the database: ${(error as Error).message}`);
  }
  await database.migrate();
  await seedDatabase(database.db);

  const mail = new MailQueue(
    createMailer({
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      from: config.mailFrom,
      dataDir,
      log,
    }),
    log,
  );
  const scale = Number(process.env.RATE_LIMIT_SCALE ?? '1');
  const app = await buildApp({
    config,
    database,
    mail,
    jwtSecret: config.jwtSecret ?? loadOrCreateJwtSecret(dataDir),
    logger: log,
    rateLimits: scaleRateLimits(defaultAuthRateLimits, Number.isFinite(scale) && scale > 0 ? scale : 1),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const forced = setTimeout(() => {
      log.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000);
    forced.unref();
    try {
      await app.close();
      await mail.drain();
      mail.close();
      await database.close();
    } finally {
      releaseLock();
      log.info('stopped');
      process.exit(0);
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
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    releaseLock();
    await database.close();
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  log.info(`Haversack is ready at ${config.appUrl} (database: ${database.kind})`);
}

void main();
