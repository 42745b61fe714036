import { compile as compileProxyTrust } from '@fastify/proxy-addr';
import { z } from 'zod';

/**
 * DESIGN §7: every setting comes from the environment, parsed once at start-up. A bad value stops the
 * process with one clear line (see main.ts), never with a stack trace.
 */
const trustProxyMessage =
  'must be true, false or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.1, 10.0.0.0/8, loopback)';

const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): boolean | string[] => {
    if (value === 'false') return false;
    if (value === 'true') return true;
    const list = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    // Fastify hands the list to proxy-addr when it builds the app: the same check here refuses a bad entry
    // with one line instead of a stack trace from buildApp. A bare number is refused too: meant as a hop
    // count (which Fastify would not honour: it trusts no proxy when given a number), proxy-addr would
    // read it as an address ("1" as 0.0.0.1).
    for (const entry of list) {
      if (/^\d+$/.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `${trustProxyMessage}; hop counts such as "${entry}" are not supported`,
        });
        return z.NEVER;
      }
      try {
        compileProxyTrust(entry);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${trustProxyMessage}; "${entry}" is none of these` });
        return z.NEVER;
      }
    }
    return list;
  });

function urlWithScheme(schemes: string[], example: string) {
  const protocol = new RegExp(`^(${schemes.join('|')})$`);
  return z
    .string()
    .trim()
    .pipe(
      z.url({
        protocol,
        error: `must be a URL starting with ${schemes.map((s) => `${s}:`).join(' or ')} (e.g. ${example})`,
      }),
    )
    .optional();
}

const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional());

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: urlWithScheme(
    ['postgres', 'postgresql'],
    'postgres://user:password@localhost:5432/haversack',
  ),
  REDIS_URL: optionalUrl.optional(),
  APP_URL: optionalUrl.optional(),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalUrl.optional(),
  MAIL_FROM: z.string().trim().min(3).default('Haversack <no-reply@haversack.local>'),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  // Empty reads as unset, like the other optional settings (`BILLING_PROVIDER=` in an env file).
  BILLING_PROVIDER: optionalString.pipe(z.enum(['stripe', 'local']).optional()),
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  // Hex of the application's Ed25519 public key (Discord developer portal, General Information).
  DISCORD_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of the Discord public key')
      .optional(),
  ),
  DISCORD_BOT_TOKEN: optionalString,
  // Tests point every Discord call (OAuth, the API) at a local stand-in; no network here.
  DISCORD_API_BASE_URL: optionalUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: optionalString.pipe(z.enum(['pretty', 'json']).optional()),
  TRUST_PROXY: trustProxySchema.optional(),
  WEB_DIST_DIR: optionalString,
  CABLE_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(12),
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(15),
  // Serialized container pages kept per process (issue 13 §3); 0 turns the cache off.
  CONTAINER_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  appUrl: string;
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  billingProvider: 'stripe' | 'local' | undefined;
  discordClientId: string | undefined;
  discordClientSecret: string | undefined;
  discordPublicKey: string | undefined;
  discordBotToken: string | undefined;
  /** Origin of Discord's OAuth pages and API, without a trailing slash: https://discord.com unless overridden. */
  discordApiBaseUrl: string;
  logLevel: Env['LOG_LEVEL'];
  /** Unset: readable lines on a terminal in development, JSON otherwise (lib/log-format.ts). */
  logFormat: 'pretty' | 'json' | undefined;
  trustProxy: boolean | string[];
  webDistDir: string | undefined;
  cableConnectionsPerUser: number;
  /** Seconds a SIGTERM may take before the process ends anyway. */
  shutdownTimeoutS: number;
  /** Bytes of serialized container pages one process may keep (0: none). */
  containerPageCacheBytes: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}`);
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    billingProvider: e.BILLING_PROVIDER,
    discordClientId: e.DISCORD_CLIENT_ID,
    discordClientSecret: e.DISCORD_CLIENT_SECRET,
    discordPublicKey: e.DISCORD_PUBLIC_KEY?.toLowerCase(),
    discordBotToken: e.DISCORD_BOT_TOKEN,
    discordApiBaseUrl: (e.DISCORD_API_BASE_URL ?? 'https://discord.com').replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY ?? false,
    webDistDir: e.WEB_DIST_DIR,
    cableConnectionsPerUser: e.CABLE_CONNECTIONS_PER_USER,
    shutdownTimeoutS: e.SHUTDOWN_TIMEOUT,
    containerPageCacheBytes: e.CONTAINER_PAGE_CACHE_MB * 1024 * 1024,
  };
}
