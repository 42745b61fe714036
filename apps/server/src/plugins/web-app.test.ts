import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../test/helper.js';

// The pages name /favicon.svg (apps/web/index.html), but a browser showing an answer that is no page (a JSON
// link opened in a tab) still asks for /favicon.ico: it is sent on to the SVG rather than answered 404.
describe('the favicon', () => {
  let ctx: TestContext;
  let distDir: string;
  const icon =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg>';

  beforeAll(async () => {
    distDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-dist-'));
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Haversack</title>');
    writeFileSync(path.join(distDir, 'favicon.svg'), icon);
    ctx = await buildTestApp({ env: { WEB_DIST_DIR: distDir } });
  });

  afterAll(async () => {
    await ctx?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it.each(['GET', 'HEAD'] as const)(
    'answers %s /favicon.ico with a permanent redirect to /favicon.svg',
    async (method) => {
      const res = await ctx.app.inject({ method, url: '/favicon.ico' });
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe('/favicon.svg');
    },
  );

  it('serves /favicon.svg, where it leads, as an SVG image', async () => {
    const res = await ctx.app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'identity' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toBe(icon);
  });

  it('leaves other missing files a 404', async () => {
    const res = await ctx.app.inject({ url: '/apple-touch-icon.png' });
    expect(res.statusCode).toBe(404);
  });
});
