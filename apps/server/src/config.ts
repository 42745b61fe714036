import { compile as compileProxyTrust } from '@fastify/proxy-addr';
import { numberInput } from '@haversack/contracts';
import { z } from 'zod';

/**
 * DESIGN §7: every setting comes from the environment, parsed once at start-up. A bad value stops the
 * process with one clear line (see main.ts), never with a stack trace. A variable set to nothing (`PORT=`
 * in an env file) or to spaces reads as unset: its default applies.
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

/** A whole number as the environment holds it: plain decimal digits, like a number in a request body. */
function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return numberInput(
    z
      .number({ error: message })
      .int({ error: message })
      .min(min, { error: message })
      .max(max, { error: message }),
  );
}

/**
 * A URL of one of `schemes`. A wrong scheme and a URL that does not parse get different messages: the
 * second is most often a generated password with a `#`, `@` or `/` in it, which must be percent-encoded.
 * Where a URL carries credentials (`withCredentials`), any `#` is refused: none of these clients reads a
 * fragment, so a `#` there is a password cut short, even when what is left still parses.
 */
function urlWithScheme(schemes: string[], example: string, { withCredentials = false } = {}) {
  const schemeMessage = `must be a URL starting with ${schemes.map((s) => `${s}:`).join(' or ')} (e.g. ${example})`;
  const encodeMessage = `is not a valid URL (e.g. ${example}): check the host name (no spaces) and the port (1 to 65535), and percent-encode special characters in a user name or password (# as %23, @ as %40, / as %2F)`;
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
      if (!scheme || !schemes.includes(scheme)) {
        ctx.addIssue({ code: 'custom', message: schemeMessage });
        return;
      }
      if (!URL.canParse(value) || (withCredentials && value.includes('#'))) {
        ctx.addIssue({ code: 'custom', message: encodeMessage });
      }
    })
    .optional();
}

/**
 * A URL with nothing after its host and port but trailing slashes (which loadConfig drops). zod runs this
 * refinement on a value its URL check refused too: that one says what is wrong with it.
 */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return true;
  return /^\/*$/.test(new URL(value).pathname) && !/[?#]/.test(value);
}

/** `addr@host` or `Name <addr@host>`, as nodemailer reads a sender. */
const mailbox = /^(?:[^<>]*<\s*[^\s<>@]+@[^\s<>@]+\s*>|[^\s<>@]+@[^\s<>@]+)$/;

/** One of a few words, refused in the words of the other settings ("must be stripe or local"). */
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const words = values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  return z.enum(values, { error: `must be ${words}` });
}

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z.object({
  NODE_ENV: oneOf(['development', 'production', 'test']).default('development'),
  // Port 0 would listen on a random port while every link said :0.
  PORT: wholeNumber(1, 65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: urlWithScheme(
    ['postgres', 'postgresql'],
    'postgres://user:password@localhost:5432/haversack',
    {
      withCredentials: true,
    },
  ),
  // ioredis reads only these two schemes as URLs; anything else becomes a host name that never resolves.
  REDIS_URL: urlWithScheme(['redis', 'rediss'], 'redis://localhost:6379', { withCredentials: true }),
  // Pasted into mailed and shared links: a typo or another scheme would send people nowhere. Only an
  // origin: the web app loads its assets from absolute paths, so it works at the root of an address alone.
  APP_URL: urlWithScheme(['http', 'https'], 'https://haversack.example.com').refine(
    (value) => value === undefined || isOrigin(value),
    {
      error:
        'must be the site address without a path, query or fragment (e.g. https://haversack.example.com): Haversack is served only at the root of an address',
    },
  ),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  // The schemes nodemailer's SMTP transport takes from a URL.
  SMTP_URL: urlWithScheme(['smtp', 'smtps'], 'smtps://user:pass@smtp.example.com', {
    withCredentials: true,
  }),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      mailbox,
      'must be an email address, alone or as Name <address> (e.g. Haversack <no-reply@example.com>)',
    )
    .default('Haversack <no-reply@haversack.local>'),
  STRIPE_SECRET_KEY: optionalString.pipe(
    z
      .string()
      .regex(
        /^(sk|rk)_\S+$/,
        "must be a Stripe secret or restricted key (sk_… or rk_…, from Stripe's API keys page)",
      )
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalString.pipe(
    z
      .string()
      .regex(/^whsec_\S+$/, "must be a webhook signing secret (whsec_…, from Stripe's webhook endpoint page)")
      .optional(),
  ),
  // Empty reads as unset, like the other optional settings (`BILLING_PROVIDER=` in an env file).
  BILLING_PROVIDER: optionalString.pipe(oneOf(['stripe', 'local']).optional()),
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
  DISCORD_API_BASE_URL: urlWithScheme(['http', 'https'], 'https://discord.com'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: optionalString.pipe(oneOf(['pretty', 'json']).optional()),
  TRUST_PROXY: trustProxySchema.optional(),
  WEB_DIST_DIR: optionalString,
  CABLE_CONNECTIONS_PER_USER: wholeNumber(1, 100_000).default(12),
  SHUTDOWN_TIMEOUT: wholeNumber(1, 3600).default(15),
  // Serialized container pages kept per process (issue 13 §3); 0 turns the cache off.
  CONTAINER_PAGE_CACHE_MB: wholeNumber(0, 4096).default(32),
  // Multiplies the per-address budgets of sign-in, registration and the like (tests and benches raise it).
  RATE_LIMIT_SCALE: numberInput(
    z.number({ error: 'must be a positive number (e.g. 1, 0.5, 20)' }).positive({
      error: 'must be a positive number (e.g. 1, 0.5, 20)',
    }),
  ).default(1),
});

export type Env = z.infer<typeof envSchema>;

/** Every variable the server reads (the README's Configuration table lists each: config.test.ts). */
export const environmentVariables = Object.keys(envSchema.shape);

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
  /** Multiplies the per-address rate limits of sign-in, registration and recovery (RATE_LIMIT_SCALE). */
  rateLimitScale: number;
}

export class ConfigError extends Error {}

export interface LoadConfigOptions {
  /**
   * `npm run discord:register` needs DISCORD_CLIENT_ID (with the bot token) but not the OAuth secret that
   * the server's sign-in needs; only that command sets this.
   */
  discordClientIdAlone?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim()));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    // Every bad setting at once, the first word of each: three typos are one restart, not three.
    const said = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.') || 'environment';
      if (!said.has(name)) said.set(name, `${name} ${issue.message}`);
    }
    throw new ConfigError(`Invalid configuration: ${[...said.values()].join('; ')}`);
  }
  const e = parsed.data;
  // Discord sign-in (and linking accounts, which every slash command needs) takes both; one alone is a
  // mistake that would otherwise show no Discord button and no error.
  if (e.DISCORD_CLIENT_SECRET && !e.DISCORD_CLIENT_ID) {
    throw new ConfigError(
      'Invalid configuration: DISCORD_CLIENT_ID must be set with DISCORD_CLIENT_SECRET (both or neither)',
    );
  }
  if (e.DISCORD_CLIENT_ID && !e.DISCORD_CLIENT_SECRET && !options.discordClientIdAlone) {
    throw new ConfigError(
      'Invalid configuration: DISCORD_CLIENT_SECRET must be set with DISCORD_CLIENT_ID (both or neither)',
    );
  }
  // Without the signing secret every webhook is refused, so a paid checkout would never change a plan.
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (without it no payment reaches a plan)',
    );
  }
  // Card billing comes from the key, not from this switch: alone it would start with upgrades refused.
  if (e.BILLING_PROVIDER === 'stripe' && !e.STRIPE_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (card billing is on whenever the key is set)',
    );
  }
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
    rateLimitScale: e.RATE_LIMIT_SCALE,
  };
}
