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
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
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
