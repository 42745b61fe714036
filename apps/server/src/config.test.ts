import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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

  it('takes only PostgreSQL URLs as DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/h' }).databaseUrl).toBe(
      'postgres://u:p@db:5432/h',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/h' }).databaseUrl).toBe('postgresql://db/h');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@127.0.0.1/db' })).toThrow(
      'Invalid configuration: DATABASE_URL must be a URL starting with postgres: or postgresql: (e.g. postgres://user:password@localhost:5432/haversack)',
    );
  });

  it('stops with one clear line on a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32 characters/);
  });
});
