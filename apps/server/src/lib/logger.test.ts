import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { openTestDatabase } from '../test/helper.js';
import { censorSecrets, loggerOptions, redactingLogger, redactUrl } from './logger.js';
import { MailQueue } from './mail-queue.js';
import { createMailer } from './mailer.js';

let output = '';
const sink = new Writable({
  write(chunk, _encoding, callback) {
    output += chunk.toString();
    callback();
  },
});

let app: Awaited<ReturnType<typeof buildApp>>;
let database: DatabaseHandle;
let mail: MailQueue;
let dataDir: string;
let base: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-log-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://haversack.test',
    LOG_LEVEL: 'trace',
  });
  // A plain logger, as a caller would hand in: the app must redact whatever it is given.
  const log = pino({ level: 'trace' }, sink);
  database = await openTestDatabase();
  mail = new MailQueue(createMailer({ from: config.mailFrom, dataDir, log }));
  app = await buildApp({ config, database, mail, jwtSecret: randomBytes(32).toString('hex'), logger: log });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as { data: Record<string, never> }) : undefined,
  };
}

async function linkToken(to: string, route: string): Promise<string> {
  // Account mails are jobs the app hands over after the answer (account-mails.ts).
  await app.services.jobs.settled();
  const { readdirSync, readFileSync } = await import('node:fs');
  const dir = path.join(dataDir, 'mail');
  for (const file of readdirSync(dir).sort().reverse()) {
    const raw = readFileSync(path.join(dir, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(to)) continue;
    const match = new RegExp(`/${route}(?:/|\\?token=)([A-Za-z0-9_%-]+)`).exec(raw);
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  throw new Error(`no ${route} link mailed to ${to}`);
}

describe('log redaction', () => {
  it('keeps tokens, passwords and mailed links out of every log line', async () => {
    const secrets: string[] = [];
    const email = `quiet-${Date.now()}@example.com`;
    const password = 'Secretive1';
    secrets.push(password);
    const registered = await call('POST', '/auth/register', {
      user: { email, username: `quiet_${Date.now() % 100000}`, password, password_confirmation: password },
    });
    expect(registered.status).toBe(201);
    secrets.push(registered.body?.data.token ?? '', registered.body?.data.refresh_token ?? '');
    secrets.push(await linkToken(email, 'verify-email'));

    const login = await call('POST', '/auth/login', { email, password });
    expect(login.status).toBe(200);
    const { token, refresh_token: refreshToken } = login.body?.data ?? {};
    secrets.push(token ?? '', refreshToken ?? '');
    const refreshed = await call('POST', '/auth/refresh', { refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);
    const access = refreshed.body?.data.token ?? '';
    secrets.push(access, refreshed.body?.data.refresh_token ?? '');

    // The spec's socket authentication: the access token in the query string.
    const socket = new WebSocket(`${base.replace('http', 'ws')}/cable?token=${access}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('message', () => resolve());
      socket.once('error', reject);
    });
    socket.close();

    expect((await call('POST', '/auth/forgot_password', { email })).status).toBe(200);
    const resetToken = await linkToken(email, 'reset-password');
    secrets.push(resetToken);
    // The reset page itself is requested with the token in its path.
    await fetch(`${base}/reset-password/${resetToken}`);
    const newPassword = 'Renewed123';
    secrets.push(newPassword);
    const reset = await call('POST', '/auth/reset_password', {
      token: resetToken,
      password: newPassword,
      password_confirmation: newPassword,
    });
    expect(reset.status).toBe(200);

    const session = (await call('POST', '/auth/login', { email, password: newPassword })).body?.data ?? {};
    secrets.push(session.token ?? '', session.refresh_token ?? '');
    const moved = await call(
      'PATCH',
      '/users/me',
      { user: { email: `moved-${email}`, current_password: newPassword } },
      session.token,
    );
    expect(moved.status).toBe(200);
    const undoToken = await linkToken(email, 'undo-email-change');
    secrets.push(undoToken, await linkToken(`moved-${email}`, 'verify-email'));
    const reverted = await call('POST', '/users/email/revert', { token: undoToken });
    expect(reverted.status).toBe(200);
    secrets.push(reverted.body?.data.reset_token ?? '');
    await app.services.jobs.settled();

    expect(secrets.every((secret) => secret.length >= 8)).toBe(true);
    expect(output).toContain('/cable?token=[Redacted]');
    expect(output).toContain('mail written to file');
    for (const secret of secrets) expect(output).not.toContain(secret);
  });

  it('writes no request lines for the web app’s files, and keeps those of the API (issue 12)', async () => {
    const before = output.length;
    await fetch(`${base}/assets/index-Bx12.js`);
    await fetch(`${base}/favicon.ico`);
    await fetch(`${base}/api/v1/health`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = output.slice(before);
    expect(lines).toContain('/api/v1/health');
    expect(lines).not.toContain('/assets/index-Bx12.js');
    expect(lines).not.toContain('/favicon.ico');
  });

  it('redacts secret query values however the key is spelled, and reset-link paths', () => {
    expect(redactUrl('/cable?token=abc.def&x=1')).toBe('/cable?token=[Redacted]&x=1');
    expect(redactUrl('/cable?x=1&%74oken=abc')).toBe('/cable?x=1&%74oken=[Redacted]');
    expect(redactUrl('/verify-email?TOKEN=abc')).toBe('/verify-email?TOKEN=[Redacted]');
    expect(redactUrl('/reset-password/abc?x=1')).toBe('/reset-password/[Redacted]?x=1');
    expect(redactUrl('/api/v1/parties?search=token')).toBe('/api/v1/parties?search=token');
  });
});

describe('secret fields in log lines', () => {
  const linesOf = (write: (log: pino.Logger) => void, wrap = false) => {
    let written = '';
    const into = new Writable({
      write(chunk, _encoding, callback) {
        written += chunk.toString();
        callback();
      },
    });
    const root = wrap ? pino({ level: 'info' }, into) : pino(loggerOptions('info'), into);
    write(wrap ? (redactingLogger(root) as pino.Logger) : root);
    return written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };

  it('censors them at the top and the next two levels, whatever their case', () => {
    const [line] = linesOf((log) =>
      log.info(
        {
          password: 'top-secret',
          body: { token: 'second-level', user: { Password: 'third-level', name: 'Ann' } },
          headers: { Authorization: 'Bearer abc', 'set-cookie': ['sid=1'], accept: 'json' },
        },
        'signed in',
      ),
    );
    expect(line).toMatchObject({
      password: '[Redacted]',
      body: { token: '[Redacted]', user: { Password: '[Redacted]', name: 'Ann' } },
      headers: { Authorization: '[Redacted]', 'set-cookie': '[Redacted]', accept: 'json' },
      msg: 'signed in',
    });
  });

  it('censors through a logger handed to the app, and in the bindings of its children', () => {
    const lines = linesOf((log) => {
      log.info({ user: { current_password: 'hunter22' } }, 'changed');
      const child = log.child({ session: { refresh_token: 'r-123' }, reqId: 'req-1' });
      child.warn('bound');
      child.child({ access_token: 'a-456' }).warn('bound twice');
    }, true);
    expect(lines[0]).toMatchObject({ user: { current_password: '[Redacted]' } });
    expect(lines[1]).toMatchObject({
      session: { refresh_token: '[Redacted]' },
      reqId: 'req-1',
      msg: 'bound',
    });
    expect(lines[2]).toMatchObject({ access_token: '[Redacted]', reqId: 'req-1', msg: 'bound twice' });
    for (const secret of ['hunter22', 'r-123', 'a-456']) expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('keeps an error an error, its secret properties censored', () => {
    const error = Object.assign(new Error('refused'), { details: { token: 't-1' }, code: 'E1' });
    const [line] = linesOf((log) => log.error({ err: error }, 'failed'));
    expect(line?.err).toMatchObject({
      type: 'Error',
      message: 'refused',
      code: 'E1',
      details: { token: '[Redacted]' },
    });
    expect(String((line?.err as { stack?: string } | undefined)?.stack)).toContain('refused');
    expect(error.details.token).toBe('t-1');
  });

  it('copies only along the way to a secret and never changes what it is given', () => {
    const shared = { name: 'kept' };
    const given = { body: { password: 'p', other: shared }, list: [{ token: 'x' }, { id: 1 }] };
    const censored = censorSecrets(given);
    expect(censored).toEqual({
      body: { password: '[Redacted]', other: shared },
      list: [{ token: '[Redacted]' }, { id: 1 }],
    });
    expect(censored.body.other).toBe(shared);
    expect(censored.list[1]).toBe(given.list[1]);
    expect(given.body.password).toBe('p');
    const clean = { a: { b: { c: 1 } } };
    expect(censorSecrets(clean)).toBe(clean);
    // Three levels, as pino's paths were (`password`, `*.password`, `*.*.password`); arrays count as one.
    expect(censorSecrets({ a: { b: { c: { password: 'deep' } } } })).toEqual({
      a: { b: { c: { password: 'deep' } } },
    });
  });
});
