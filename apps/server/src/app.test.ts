import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from './test/helper.js';

interface ErrorBody {
  status: string;
  error: { type: string; code: string; message: string; status: number; details?: unknown[] };
}

let ctx: TestContext;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Haversack</title><div id="root"></div>',
  );
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  mkdirSync(path.join(webDir, '.vite'));
  writeFileSync(path.join(webDir, '.vite', 'manifest.json'), '{"src/secret-page.tsx":{}}');
  ctx = await buildTestApp({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDir, { recursive: true, force: true });
});

function expectEnvelope(response: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as ErrorBody;
  expect(body.status).toBe('error');
  expect(body.error).toMatchObject({ code, status });
  expect(typeof body.error.message).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
}

describe('foundation', () => {
  it('answers health in the envelope', async () => {
    const response = await ctx.app.inject({ url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', data: { status: 'ok', database: 'ok' } });
  });

  it('answers unknown API routes with a 404 envelope, never the web app', async () => {
    expectEnvelope(await ctx.app.inject({ url: '/api/v1/dragons' }), 404, 'RESOURCE_NOT_FOUND');
    expectEnvelope(
      await ctx.app.inject({ method: 'POST', url: '/api/v1/health' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectEnvelope(await ctx.app.inject({ url: '/users/nothing' }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('serves the web app with SPA fallback and cache headers', async () => {
    const page = await ctx.app.inject({ url: '/parties/42?tab=members', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await ctx.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expectEnvelope(await ctx.app.inject({ url: '/assets/missing.js' }), 404, 'RESOURCE_NOT_FOUND');
    // The build's manifest (which chunk holds which source file) is for the build's tools, not for visitors.
    const manifest = await ctx.app.inject({ url: '/.vite/manifest.json' });
    expect(manifest.body).not.toContain('secret-page');
  });

  it('answers malformed JSON, wrong media types and oversized bodies in the envelope', async () => {
    const url = '/api/v1/auth/login';
    expectEnvelope(
      await ctx.app.inject({
        method: 'POST',
        url,
        payload: '{"email":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'BAD_REQUEST',
    );
    expectEnvelope(
      await ctx.app.inject({
        method: 'POST',
        url,
        payload: '<email/>',
        headers: { 'content-type': 'application/xml' },
      }),
      415,
      'BAD_REQUEST',
    );
    expectEnvelope(
      await ctx.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify({ email: 'a@b.io', password: 'x'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expectEnvelope(await ctx.app.inject({ method: 'POST', url }), 422, 'VALIDATION_ERROR');
  });

  it('answers JSON labelled text/plain with the same 415 as any other media type, changing nothing', async () => {
    const user = await createUser(ctx);
    const before = await callApi(ctx, 'GET', '/characters', user);
    for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/characters',
        payload: JSON.stringify({ character: { name: 'Labelled wrong' } }),
        headers: { 'content-type': contentType, ...user.auth },
      });
      expectEnvelope(response, 415, 'BAD_REQUEST');
      expect((response.json() as ErrorBody).error.message, contentType).toBe(
        'Unsupported content type. Send JSON.',
      );
    }
    const after = await callApi(ctx, 'GET', '/characters', user);
    expect((after.json() as { meta: unknown }).meta).toEqual((before.json() as { meta: unknown }).meta);
  });

  it('never answers 500 to strange bodies on any account endpoint', async () => {
    const endpoints = [
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/refresh',
      '/api/v1/auth/forgot_password',
      '/api/v1/auth/reset_password',
      '/api/v1/auth/verify_email',
      '/api/v1/auth/resend_verification',
    ];
    const bodies = [
      'null',
      '[]',
      '"text"',
      '42',
      'true',
      '{"user":null}',
      '{"user":[1]}',
      '{"email":{"$ne":1}}',
      '{"token":[]}',
    ];
    for (const url of endpoints) {
      for (const payload of bodies) {
        const response = await ctx.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode, `${url} ${payload}`).toBeLessThan(500);
        expect((response.json() as ErrorBody).status, `${url} ${payload}`).toBe(
          response.statusCode < 400 ? 'success' : 'error',
        );
      }
    }
  });

  it('asks for sign-in before judging the input of a protected call', async () => {
    const calls: [method: 'POST' | 'PATCH' | 'PUT', url: string][] = [
      ['POST', '/api/v1/characters'],
      ['POST', '/api/v1/parties'],
      ['POST', '/api/v1/item_instances'],
      ['POST', '/api/v1/containers/transfer'],
      ['POST', '/api/v1/item_templates'],
      ['PUT', '/users/preferences'],
      ['PUT', '/api/v1/users/me/password'],
      ['POST', '/api/v1/subscription/cancel'],
      ['PATCH', '/api/v1/users/me'],
    ];
    for (const [method, url] of calls) {
      const response = await ctx.app.inject({ method, url, payload: { nonsense: [1, 2, 3] } });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect((response.json() as ErrorBody).error.code, `${method} ${url}`).toBe('UNAUTHORIZED');
    }
  });

  it('sets security headers and a request id, and honours a sane incoming one', async () => {
    const response = await ctx.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    const generated = await ctx.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes OpenAPI generated from the schemas', async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = json<{ openapi: string; paths: Record<string, unknown> }>(response);
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/register',
        '/api/v1/auth/login',
        '/users/preferences',
        '/api/v1/health',
      ]),
    );
  });
});
