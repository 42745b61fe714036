import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { type AppDeps, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type DatabaseHandle, openPglite, openPostgres } from '../db/client.js';
import { MailQueue } from '../lib/mail-queue.js';
import { createMailer, type Mailer } from '../lib/mailer.js';
import { type AuthRateLimits, defaultAuthRateLimits } from '../plugins/rate-limit.js';

/** A fresh database cloned from the migrated template (see global-setup.ts). */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const postgres = inject('postgresTemplate');
  if (postgres) {
    const name = `haversack_t_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.database}`);
    await admin.end();
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    const handle = await openPostgres(url.toString(), { max: 10 });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const dropper = new pg.Client({ connectionString: postgres.url });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const template = readFileSync(inject('pgliteTemplatePath'));
  return openPglite({ loadDataDir: new Blob([template]) });
}

/**
 * One database for all the tests of a file: opened before them, closed after them. For files whose tests
 * each build their own app on it (`buildTestApp({ database })`, their own limits and settings) and make
 * their own users, so that no test sees another's data: opening a database (a PGlite instance from the
 * template, or a PostgreSQL clone) costs several times what building the app on it does.
 */
export function fileDatabase(): () => DatabaseHandle {
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error('the file database is opened in beforeAll: use it in a test');
    return database;
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  mail: MailQueue;
  dataDir: string;
  config: Config;
  /** The app's JWT secret (which also keys the Idempotency-Key fingerprints). */
  jwtSecret?: string;
  close(): Promise<void>;
}

export async function buildTestApp(
  options: {
    rateLimits?: Partial<AuthRateLimits>;
    env?: Record<string, string>;
    now?: () => Date;
    stripeApi?: AppDeps['stripeApi'];
    requestTimeoutMs?: number;
    /** The app's logger, for tests that read what it logs; silent unless given. */
    logger?: AppDeps['logger'];
    /**
     * Another app's database, as a process started again on it would find it (a restart). The context's
     * close() leaves it open: its owner closes it.
     */
    database?: DatabaseHandle;
    /** Instead of the .eml files in the context's DATA_DIR (a mail server that never answers, say). */
    mailer?: Mailer;
    /** The server's secret: a restart keeps it (DATA_DIR/jwt-secret); a random one otherwise. */
    jwtSecret?: string;
    /** The prefix of the app's Redis channels, shared by the apps of a test that act as one deployment. */
    redisNamespace?: string;
  } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://haversack.test',
    LOG_LEVEL: 'silent',
    // The factories upgrade users through checkout, so tests run the demo billing unless they say
    // otherwise (`BILLING_PROVIDER: ''` for none, `'stripe'` with a key).
    BILLING_PROVIDER: 'local',
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase());
  const log = pino({ level: 'silent' });
  const mail = new MailQueue(options.mailer ?? createMailer({ from: config.mailFrom, dataDir, log }));
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    database,
    mail,
    jwtSecret,
    logger: options.logger ?? false,
    rateLimits: { ...defaultAuthRateLimits, ...options.rateLimits },
    ...(options.now ? { now: options.now } : {}),
    ...(options.stripeApi ? { stripeApi: options.stripeApi } : {}),
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.redisNamespace ? { redisNamespace: options.redisNamespace } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    mail,
    dataDir,
    config,
    jwtSecret,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Mails written by the file transport, oldest first, decoded enough to find links in them. */
export async function readMails(ctx: TestContext): Promise<{ to: string; subject: string; raw: string }[]> {
  // Account mails are jobs this process sends after the answer (account-mails.ts).
  await ctx.app.services.jobs.settled();
  const dir = path.join(ctx.dataDir, 'mail');
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
    // The header is never quoted-printable: decoding it would turn a List-Unsubscribe URL's `=f9` into a byte.
    const headerEnd = raw.search(/\r?\n\r?\n/);
    const head = headerEnd === -1 ? raw : raw.slice(0, headerEnd);
    return {
      to: header('To'),
      subject: header('Subject'),
      raw: head + decodeQuotedPrintable(raw.slice(head.length)),
    };
  });
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The link to `route` in the newest mail to `to` that carries one. */
export async function linkFromMail(ctx: TestContext, to: string, route: string): Promise<string> {
  const pattern = new RegExp(`${ctx.config.appUrl.replace(/[.]/g, '\\.')}/${route}[^\\s"<]*`);
  const links = (await readMails(ctx))
    .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()))
    .map((m) => pattern.exec(m.raw)?.[0])
    .filter((link): link is string => link !== undefined);
  const link = links.at(-1);
  if (!link) throw new Error(`no ${route} link in any mail to ${to}`);
  return link;
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request to /api/v1 through app.inject, as a signed-in user or anonymously. */
export function callApi(
  ctx: TestContext,
  method: ApiMethod,
  url: string,
  user?: { auth: { authorization: string } },
  payload?: unknown,
) {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    ...(user ? { headers: user.auth } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}
