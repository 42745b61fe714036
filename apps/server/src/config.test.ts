import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, environmentVariables, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the defaults of DESIGN §7', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      appUrl: 'http://localhost:3000',
      trustProxy: false,
      logLevel: 'info',
    });
  });

  it('reads TRUST_PROXY as a boolean or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8,::1, loopback,192.168.0.0/255.255.0.0' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '::1', 'loopback', '192.168.0.0/255.255.0.0']);
  });

  it('refuses a TRUST_PROXY entry that is no address, range or hop count Fastify honours', () => {
    for (const value of ['yes', '10.0.0.1, nope', '10.0.0.0/33', '1']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must be true, false or a comma-separated list of proxy addresses or CIDR ranges/,
      );
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, nope' })).toThrow(/"nope" is none of these$/);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/hop counts such as "2" are not supported$/);
  });

  it('names every bad setting in its one line, each once', () => {
    expect(() => loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', RATE_LIMIT_SCALE: 'x' })).toThrow(
      /^Invalid configuration: PORT [^;]+; LOG_LEVEL [^;]+; RATE_LIMIT_SCALE [^;]+$/,
    );
  });

  it('takes only PostgreSQL URLs as DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/h' }).databaseUrl).toBe(
      'postgres://u:p@db:5432/h',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/h' }).databaseUrl).toBe('postgresql://db/h');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@127.0.0.1/db' })).toThrow(
      'Invalid configuration: DATABASE_URL must be a URL starting with postgres: or postgresql: (e.g. postgres://user:password@localhost:5432/haversack)',
    );
  });

  it('says to percent-encode a password that breaks its URL, not that the scheme is wrong', () => {
    const encode = (name: string, example: string) =>
      `Invalid configuration: ${name} is not a valid URL (e.g. ${example}): check the host name (no spaces) and the port (1 to 65535), and percent-encode special characters in a user name or password (# as %23, @ as %40, / as %2F)`;
    const postgres = encode('DATABASE_URL', 'postgres://user:password@localhost:5432/haversack');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p#ss@127.0.0.1/db' })).toThrow(postgres);
    // Parses, but the password was cut at the #.
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:12#3@127.0.0.1/db' })).toThrow(postgres);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p%23ss@127.0.0.1/db' }).databaseUrl).toBe(
      'postgres://u:p%23ss@127.0.0.1/db',
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://:pa#ss@localhost:6379' })).toThrow(
      encode('REDIS_URL', 'redis://localhost:6379'),
    );
    expect(() => loadConfig({ SMTP_URL: 'smtps://user:pa' })).toThrow(
      encode('SMTP_URL', 'smtps://user:pass@smtp.example.com'),
    );
    expect(() => loadConfig({ APP_URL: 'https://example.com:99999' })).toThrow(
      encode('APP_URL', 'https://haversack.example.com'),
    );
    expect(() => loadConfig({ APP_URL: 'http://exa mple.com' })).toThrow(
      encode('APP_URL', 'https://haversack.example.com'),
    );
  });

  it('reads numbers as plain decimal digits, and an empty variable as unset', () => {
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(loadConfig({ PORT: '' })).toMatchObject({ port: 3000, appUrl: 'http://localhost:3000' });
    expect(loadConfig({ PORT: '  ', SHUTDOWN_TIMEOUT: '', HOST: '', MAIL_FROM: '' })).toMatchObject({
      port: 3000,
      shutdownTimeoutS: 15,
      host: '127.0.0.1',
      mailFrom: 'Haversack <no-reply@haversack.local>',
    });
    for (const port of ['0x10', '1e3', '0', '80.5', '-80', '65536', ' 80 1']) {
      expect(() => loadConfig({ PORT: port }), port).toThrow(
        'Invalid configuration: PORT must be a whole number from 1 to 65535',
      );
    }
    expect(() => loadConfig({ CABLE_CONNECTIONS_PER_USER: '0x10' })).toThrow(
      'Invalid configuration: CABLE_CONNECTIONS_PER_USER must be a whole number from 1 to 100000',
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: '1e1' })).toThrow(
      'Invalid configuration: SHUTDOWN_TIMEOUT must be a whole number from 1 to 3600',
    );
    expect(() => loadConfig({ CONTAINER_PAGE_CACHE_MB: '0x10' })).toThrow(
      'Invalid configuration: CONTAINER_PAGE_CACHE_MB must be a whole number from 0 to 4096',
    );
  });

  it('reads RATE_LIMIT_SCALE as a positive number', () => {
    expect(loadConfig({}).rateLimitScale).toBe(1);
    expect(loadConfig({ RATE_LIMIT_SCALE: '20' }).rateLimitScale).toBe(20);
    expect(loadConfig({ RATE_LIMIT_SCALE: '0.5' }).rateLimitScale).toBe(0.5);
    for (const value of ['abc', '-5', '0', '1e3']) {
      expect(() => loadConfig({ RATE_LIMIT_SCALE: value }), value).toThrow(
        'Invalid configuration: RATE_LIMIT_SCALE must be a positive number (e.g. 1, 0.5, 20)',
      );
    }
  });

  it('refuses URLs of schemes the Redis, SMTP and Stripe clients cannot use', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/7' }).redisUrl).toBe('redis://127.0.0.1:6379/7');
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.example.com' }).redisUrl).toBe(
      'rediss://:pw@cache.example.com',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://example.com' })).toThrow(
      'Invalid configuration: REDIS_URL must be a URL starting with redis: or rediss: (e.g. redis://localhost:6379)',
    );
    expect(loadConfig({ SMTP_URL: 'smtps://user:pass@smtp.example.com' }).smtpUrl).toBe(
      'smtps://user:pass@smtp.example.com',
    );
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).smtpUrl).toBe('smtp://127.0.0.1:2525');
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(
      'Invalid configuration: SMTP_URL must be a URL starting with smtp: or smtps: (e.g. smtps://user:pass@smtp.example.com)',
    );
    const hook = { STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc', ...hook }).stripeSecretKey).toBe('sk_live_abc');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'rk_test_abc', ...hook }).stripeSecretKey).toBe('rk_test_abc');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'garbage' })).toThrow(
      "Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…, from Stripe's API keys page)",
    );
  });

  it('refuses BILLING_PROVIDER=stripe without a Stripe key, which would refuse every upgrade', () => {
    expect(() => loadConfig({ BILLING_PROVIDER: 'stripe' })).toThrow(
      'Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (card billing is on whenever the key is set)',
    );
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(loadConfig({ BILLING_PROVIDER: 'stripe', ...stripe }).stripeSecretKey).toBe('sk_test_abc');
  });

  it('needs the webhook signing secret with a Stripe key, or no payment would ever reach a plan', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (without it no payment reaches a plan)',
    );
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'abc' })).toThrow(
      "Invalid configuration: STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…, from Stripe's webhook endpoint page)",
    );
  });

  it('takes APP_URL and DISCORD_API_BASE_URL as http or https addresses only', () => {
    expect(loadConfig({ APP_URL: 'https://haversack.example.com/' }).appUrl).toBe(
      'https://haversack.example.com',
    );
    expect(loadConfig({ APP_URL: 'http://192.168.1.20:3000' }).appUrl).toBe('http://192.168.1.20:3000');
    for (const value of ['javascript:alert(1)', 'ftp://example.com', 'example.com', 'garbage']) {
      expect(() => loadConfig({ APP_URL: value }), value).toThrow(
        'Invalid configuration: APP_URL must be a URL starting with http: or https: (e.g. https://haversack.example.com)',
      );
    }
    // The web app loads its assets from the root: under a path it would not load at all.
    for (const value of [
      'https://example.com/haversack',
      'https://example.com/haversack/',
      'https://example.com/?a=1',
      'https://example.com/#x',
    ]) {
      expect(() => loadConfig({ APP_URL: value }), value).toThrow(
        'Invalid configuration: APP_URL must be the site address without a path, query or fragment (e.g. https://haversack.example.com): Haversack is served only at the root of an address',
      );
    }
    expect(loadConfig({ APP_URL: 'https://example.com:8443//' }).appUrl).toBe('https://example.com:8443');
    expect(() => loadConfig({ DISCORD_API_BASE_URL: 'ftp://x' })).toThrow(
      'Invalid configuration: DISCORD_API_BASE_URL must be a URL starting with http: or https: (e.g. https://discord.com)',
    );
  });

  it('names the words an enumerated setting takes, as the other settings do', () => {
    expect(
      loadConfig({ BILLING_PROVIDER: 'local', LOG_FORMAT: 'json', NODE_ENV: 'production' }),
    ).toMatchObject({ billingProvider: 'local', logFormat: 'json', nodeEnv: 'production' });
    expect(() => loadConfig({ BILLING_PROVIDER: 'paypal' })).toThrow(
      'Invalid configuration: BILLING_PROVIDER must be stripe or local',
    );
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      'Invalid configuration: LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent',
    );
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(
      'Invalid configuration: LOG_FORMAT must be pretty or json',
    );
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrow(
      'Invalid configuration: NODE_ENV must be development, production or test',
    );
  });

  it('takes MAIL_FROM as an address, alone or with a name', () => {
    expect(loadConfig({ MAIL_FROM: 'no-reply@example.com' }).mailFrom).toBe('no-reply@example.com');
    expect(loadConfig({ MAIL_FROM: '"Haversack, Inc." <no-reply@example.com>' }).mailFrom).toBe(
      '"Haversack, Inc." <no-reply@example.com>',
    );
    for (const value of ['notanaddress', 'Haversack', 'Haversack <>', 'a@b c@d']) {
      expect(() => loadConfig({ MAIL_FROM: value }), value).toThrow(
        /^Invalid configuration: MAIL_FROM must be an email address, alone or as Name <address>/,
      );
    }
  });

  it('takes the Discord client id and secret together or not at all', () => {
    expect(loadConfig({ DISCORD_CLIENT_ID: 'id', DISCORD_CLIENT_SECRET: 'secret' })).toMatchObject({
      discordClientId: 'id',
      discordClientSecret: 'secret',
    });
    expect(() => loadConfig({ DISCORD_CLIENT_ID: 'id' })).toThrow(
      'Invalid configuration: DISCORD_CLIENT_SECRET must be set with DISCORD_CLIENT_ID (both or neither)',
    );
    expect(() => loadConfig({ DISCORD_CLIENT_SECRET: 'secret' })).toThrow(
      'Invalid configuration: DISCORD_CLIENT_ID must be set with DISCORD_CLIENT_SECRET (both or neither)',
    );
    // npm run discord:register registers the commands with the id and the bot token alone.
    expect(loadConfig({ DISCORD_CLIENT_ID: 'id' }, { discordClientIdAlone: true }).discordClientId).toBe(
      'id',
    );
  });

  it('reads CONTAINER_PAGE_CACHE_MB in megabytes, 32 unless set, 0 to keep no pages', () => {
    expect(loadConfig({}).containerPageCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadConfig({ CONTAINER_PAGE_CACHE_MB: '0' }).containerPageCacheBytes).toBe(0);
    expect(loadConfig({ CONTAINER_PAGE_CACHE_MB: '8' }).containerPageCacheBytes).toBe(8 * 1024 * 1024);
    expect(() => loadConfig({ CONTAINER_PAGE_CACHE_MB: '-1' })).toThrow(/CONTAINER_PAGE_CACHE_MB/);
  });

  it('stops with one clear line on a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32 characters/);
  });
});

describe('the README', () => {
  it('lists every variable the server reads in its Configuration table', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const listed = new Set(
      rows.flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1])),
    );
    expect(environmentVariables.filter((name) => !listed.has(name))).toEqual([]);
  });
});
