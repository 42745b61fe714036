import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaderOptions, securityHeadersPlugin } from './security-headers.js';

/** The headers helmet's own middleware sets on a plain Node answer with the same options. */
function helmetHeaders() {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(securityHeaderOptions)(response.req, response, () => {});
  return response.getHeaders();
}

describe('security headers', () => {
  it("sets helmet's headers on every answer, the same on each request", async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, securityHeaderOptions);
    app.get('/thing', async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    const expected = helmetHeaders();
    expect(Object.keys(expected).length).toBeGreaterThan(8);
    for (const url of ['/thing', '/thing', '/fails', '/missing']) {
      const response = await app.inject({ url });
      for (const [name, value] of Object.entries(expected)) expect(response.headers[name], name).toBe(value);
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    // Portraits come from the addresses players give; scripts only from here.
    expect(expected['content-security-policy']).toContain("img-src 'self' data: blob: https: http:");
    expect(expected['content-security-policy']).toContain("script-src 'self'");
    expect(expected['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(expected['cross-origin-embedder-policy']).toBeUndefined();
    await app.close();
  });
});
