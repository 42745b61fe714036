import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as ActionCable from '@rails/actioncable';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RATE_LIMIT_KEY_PREFIX } from '../lib/redis-window-limiter.js';
import { consumerFor, subscribe } from '../test/cable-client.js';

// Runs in the PostgreSQL pass of the suite (see vitest.config.ts): two real server processes on two
// ports, one PostgreSQL database and the machine's Redis, as a scaled-out deployment would be.
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const database = `haversack_scale_${randomBytes(4).toString('hex')}`;
const processes: ChildProcessWithoutNullStreams[] = [];
const dataDirs: string[] = [];
let consumer: ActionCable.Consumer | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startProcess(port: number): Promise<string> {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-scale-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=development', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      JWT_SECRET: 'scale-out-test-secret-shared-by-both-processes',
      LOG_LEVEL: 'info',
      RATE_LIMIT_SCALE: '1',
      // Free upgrades, so the test's GM has the plan that party inventory needs.
      BILLING_PROVIDER: 'local',
    },
  });
  processes.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Haversack is ready')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`server on ${port} exited:\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

async function api<T>(
  base: string,
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

let processA: string;
let processB: string;

/** Rate-limit windows outlive a run in Redis; start from empty budgets so earlier runs count for nothing. */
async function clearRateLimits() {
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${RATE_LIMIT_KEY_PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

beforeAll(async () => {
  await clearRateLimits();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  processA = await startProcess(await freePort());
  processB = await startProcess(await freePort());
}, 90_000);

afterAll(async () => {
  consumer?.disconnect();
  await Promise.all(
    processes.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.on('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}, 60_000);

describe('two server processes behind Redis', () => {
  it('delivers a change made through process A to a client of process B', async () => {
    const suffix = randomBytes(3).toString('hex');
    const register = (name: string) =>
      api<{ token: string; user: { id: string } }>(processA, 'POST', '/auth/register', null, {
        user: {
          email: `${name}-${suffix}@example.com`,
          username: `${name}_${suffix}`,
          password: 'Scaled123',
          password_confirmation: 'Scaled123',
        },
      });
    const gm = await register('gm');
    await api(processA, 'POST', '/subscription/checkout', gm.token, { tier_id: 'tier_3' });
    const party = await api<{ id: string; join_code: string }>(processA, 'POST', '/parties', gm.token, {
      party: { name: 'Scaled party' },
    });
    const stash = await api<{ id: string }>(processA, 'POST', `/parties/${party.id}/containers`, gm.token, {
      container: { name: 'Stash' },
    });
    const [template] = await api<{ id: string }[]>(
      processA,
      'GET',
      '/search/items?search=rope&per_page=1',
      gm.token,
    );

    consumer = consumerFor(processB, gm.token);
    const channel = subscribe(consumer, 'PartyInventoryChannel', party.id);
    await channel.connected;

    await api(processA, 'POST', '/item_instances', gm.token, {
      item_template_id: template?.id,
      container_id: stash.id,
      quantity: 2,
    });
    const message = await channel.next((m) => m.action === 'item_added');
    expect(message).toMatchObject({ party_id: party.id, ids: { destination_container_id: stash.id } });
  }, 60_000);

  it('closes a socket held by process B when its session ends through process A', async () => {
    const suffix = randomBytes(3).toString('hex');
    const session = await api<{ token: string }>(processA, 'POST', '/auth/register', null, {
      user: {
        email: `leaver-${suffix}@example.com`,
        username: `leaver_${suffix}`,
        password: 'Scaled123',
        password_confirmation: 'Scaled123',
      },
    });
    const socket = new WebSocket(`${processB.replace('http', 'ws')}/cable?token=${session.token}`, [
      'actioncable-v1-json',
    ]);
    const frames: Record<string, unknown>[] = [];
    let welcomed = () => {};
    const welcome = new Promise<void>((resolve) => {
      welcomed = resolve;
    });
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      frames.push(frame);
      if (frame.type === 'welcome') welcomed();
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await welcome;
    const logout = await fetch(`${processA}/api/v1/auth/logout`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(logout.status).toBe(204);
    await closed;
    expect(frames).toContainEqual({ type: 'disconnect', reason: 'unauthorized', reconnect: false });
  }, 60_000);

  it('spends one sign-in budget per email across both processes', async () => {
    const email = `nobody-${randomBytes(3).toString('hex')}@example.com`;
    const attempt = (base: string) =>
      fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'Wrong-password-1' }),
      });
    // Ten attempts per email per window (the default budget), alternating between the processes: each
    // process alone sees only five, so only a shared count refuses the eleventh.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt(i % 2 === 0 ? processA : processB)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  }, 60_000);
});
