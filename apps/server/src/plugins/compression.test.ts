import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../test/helper.js';

// issue 13 §1: the web app's files go out precompressed with long caching, and API answers above the
// threshold are compressed for clients that ask.
describe('compressed delivery', () => {
  let ctx: TestContext;
  let distDir: string;
  const script = `console.log(${JSON.stringify('a tabletop bundle '.repeat(400))});\n`;

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-dist-'));
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Haversack</title>');
    const file = path.join(distDir, 'assets', 'index-AbC123.js');
    writeFileSync(file, script);
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.gz`, gzipSync(script));
    ctx = await buildTestApp({ env: { WEB_DIST_DIR: distDir } });
  });

  afterAll(async () => {
    await ctx?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for good', async () => {
    const res = await ctx.app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy when brotli is not accepted, and the file itself when nothing is', async () => {
    const gzipped = await ctx.app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(script);

    const plain = await ctx.app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses a large API answer for a client that asks, and leaves small ones and other clients alone', async () => {
    const large = await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    const document = JSON.parse(brotliDecompressSync(large.rawPayload).toString()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');

    const gzipped = await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');

    const uncompressed = await ctx.app.inject({ url: '/api/docs/json' });
    expect(uncompressed.headers['content-encoding']).toBeUndefined();
    expect(uncompressed.json()).toMatchObject({ openapi: '3.1.0' });

    const small = await ctx.app.inject({ url: '/api/v1/health', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'success' });
  });

  it('keeps errors in the envelope, compressed or not', async () => {
    const res = await ctx.app.inject({
      url: '/api/v1/no-such-route',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(404);
    const body =
      res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
    expect(JSON.parse(body)).toMatchObject({ status: 'error', error: { code: 'RESOURCE_NOT_FOUND' } });
  });
});
