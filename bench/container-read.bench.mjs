// Container read with 200 items on PostgreSQL (issue 13 item 3).
//
// Creates a fresh database on BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// starts the built server on it (statements counted by bench/lib/count-queries.mjs) and, as the
// baseline, a bare Fastify + pg server on the same database running the same query
// (bench/lib/bare-container-server.mjs). One party container gets 200 stacks of 200 templates. Then,
// 3 rounds interleaved: each server's peak (requests per second with `concurrency` keep-alive clients
// for `seconds`), and Haversack's latency at 70 % of its own peak (requests sent at a fixed rate,
// open loop, each timed from when it was due to its answer's last byte), reporting p50/p99. The load is
// bench/lib/http-load.mjs (keep-alive node:http, answers counted, not decoded). The database is dropped
// at the end.
//
// Run: npm run build && node bench/container-read.bench.mjs [--rounds 3] [--seconds 5] [--concurrency 8]
//   [--server apps/server/dist/main.js]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { reportResult } from './lib/bench-result.mjs';
import { loadClient } from './lib/http-load.mjs';
import { serverNodeFlags } from './lib/server-command.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const rounds = Number(argument('rounds', 3));
const seconds = Number(argument('seconds', 5));
const concurrency = Number(argument('concurrency', 8));
const serverMain = argument('server', 'apps/server/dist/main.js');
const items = 200;
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `haversack_bench_read_${process.pid}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
/** A process's CPU time so far (user + system, ms), from /proc: a measure that survives a busy machine. */
const cpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
};
const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk.toString();
  });
  return {
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    },
  };
}

async function startHaversack() {
  const port = await freePort();
  // BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server, for instance.
  const nodeArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
  const server = startProcess(
    [...serverNodeFlags(), ...nodeArgs, '--import', path.join(here, 'lib/count-queries.mjs'), serverMain],
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '1000',
      BILLING_PROVIDER: 'local',
    },
  );
  const base = `http://127.0.0.1:${port}`;
  // Up to 2 minutes on a busy machine.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    await sleep(100);
  }
  const statements = async () => {
    const before = server.output().length;
    server.child.kill('SIGWINCH');
    for (let i = 0; i < 250 && !server.output().slice(before).includes('QUERY_COUNT'); i++) await sleep(10);
    return Number(/QUERY_COUNT (\d+)/.exec(server.output().slice(before))?.[1] ?? Number.NaN);
  };
  return { base, statements, pid: server.child.pid, stop: server.stop };
}

async function startBare() {
  const server = startProcess([path.join(here, 'lib/bare-container-server.mjs')], {
    DATABASE_URL: databaseUrl,
  });
  for (let i = 0; i < 600 && !server.output().includes('port'); i++) await sleep(100);
  const { port } = JSON.parse(server.output().split('\n')[0]);
  return { base: `http://127.0.0.1:${port}`, pid: server.child.pid, stop: server.stop };
}

async function api(base, method, url, token, body) {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * CPU time (ms) the database's backends used so far: /proc of each backend connected to the bench's
 * database (PostgreSQL on this machine). During Haversack's peak only its connections work.
 */
async function databaseCpuMs(client) {
  const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [databaseName]);
  return rows.reduce((sum, { pid }) => sum + (cpuMs(pid) || 0), 0);
}

/** Closed loop: `concurrency` clients back to back for `seconds`; requests per second (and CPU per request). */
async function peak(read, pid) {
  const cpuBefore = cpuMs(pid);
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await read();
        done += 1;
      }
    }),
  );
  const rate = done / ((performance.now() - started) / 1000);
  return { rate, cpuPerRequest: (cpuMs(pid) - cpuBefore) / done };
}

/**
 * Open loop: one request every 1/rate s for `seconds`, each timed from when it was due. Also answers the
 * share of one core this process (the clients: fetch, inflating and decoding each answer) was busy: a
 * client near saturation queues answers itself, and then the p99 measures the bench, not the server.
 */
async function atRate(read, rate) {
  const clientCpuBefore = process.cpuUsage();
  const latencies = [];
  const interval = 1000 / rate;
  const start = performance.now();
  const total = Math.floor(rate * seconds);
  const pending = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(read().then(() => latencies.push(performance.now() - due)));
  }
  await Promise.all(pending);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    clientBusy: (clientCpu.user + clientCpu.system) / 1000 / (performance.now() - start),
  };
}

await admin(`drop database if exists ${databaseName}`);
await admin(`create database ${databaseName}`);
const haversack = await startHaversack();
const bare = await startBare();
try {
  const gm = await api(haversack.base, 'POST', '/auth/register', null, {
    user: {
      email: 'bench@example.com',
      username: 'bench_gm',
      password: 'Benchmark1',
      password_confirmation: 'Benchmark1',
    },
  });
  await api(haversack.base, 'POST', '/subscription/checkout', gm.token, { tier_id: 'tier_3' });
  const party = await api(haversack.base, 'POST', `/parties`, gm.token, {
    party: { name: 'Bench party', encumbrance_style: 'none' },
  });
  const chest = await api(haversack.base, 'POST', `/parties/${party.id}/containers`, gm.token, {
    container: { name: 'Chest' },
  });
  const templates = [];
  for (let page = 1; templates.length < items; page++)
    templates.push(...(await api(haversack.base, 'GET', `/search/items?per_page=50&page=${page}`, gm.token)));
  for (const template of templates.slice(0, items)) {
    await api(haversack.base, 'POST', '/item_instances', gm.token, {
      item_template_id: template.id,
      container_id: chest.id,
      quantity: 1,
    });
  }
  const path200 = `/containers/${chest.id}/items?per_page=${items}`;
  // The load: keep-alive node:http clients that read each answer to its last byte without decoding it
  // (bench/lib/http-load.mjs says why), asking for what fetch asks for. Enough sockets that the open loop
  // never waits for one (a request due while all are busy would be timed from when it was due anyway).
  const haversackClient = loadClient(haversack.base, { sockets: 64 });
  const bareClient = loadClient(bare.base, { sockets: 64 });
  const readHaversack = async () => {
    const answer = await haversackClient.send('GET', `/api/v1${path200}`, {
      headers: { authorization: `Bearer ${gm.token}` },
    });
    if (answer.status !== 200) throw new Error(`read answered ${answer.status}: ${answer.body}`);
  };
  const readBare = async () => {
    const answer = await bareClient.send('GET', path200);
    if (answer.status !== 200) throw new Error(`bare read answered ${answer.status}: ${answer.body}`);
  };
  const first = await api(haversack.base, 'GET', path200, gm.token);
  if (first.length !== items) throw new Error(`expected ${items} items, read ${first.length}`);

  // What goes over the wire: the load asks for `gzip, deflate`, as fetch (undici) does by default on
  // http; node:http counts the bytes as sent. The bare server never compresses.
  const onTheWire = (encoding) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${haversack.base}/api/v1${path200}`);
      get(
        url,
        { headers: { authorization: `Bearer ${gm.token}`, 'accept-encoding': encoding } },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk) => {
            bytes += chunk.length;
          });
          response.on('end', () =>
            resolve({ encoding: response.headers['content-encoding'] ?? 'identity', bytes }),
          );
        },
      ).on('error', reject);
    });
  const plain = await onTheWire('identity');
  const wire = await onTheWire('gzip, deflate');
  console.log(
    `answer: ${plain.bytes} bytes; to fetch's default accept-encoding (gzip, deflate): ${wire.encoding}, ${wire.bytes} bytes`,
  );
  if (process.env.BENCH_SAVE_ANSWER) {
    const response = await fetch(`${haversack.base}/api/v1${path200}`, {
      headers: { authorization: `Bearer ${gm.token}`, 'accept-encoding': 'identity' },
    });
    (await import('node:fs')).writeFileSync(process.env.BENCH_SAVE_ANSWER, await response.text());
  }
  for (let i = 0; i < 50; i++) await Promise.all([readHaversack(), readBare()]);
  const before = await haversack.statements();
  await readHaversack();
  const statementsPerRead = (await haversack.statements()) - before;

  const results = [];
  const probe = new pg.Client({ connectionString: adminUrl });
  await probe.connect();
  for (let r = 0; r < rounds; r++) {
    const { rate: barePeak, cpuPerRequest: bareCpu } = await peak(readBare, bare.pid);
    const databaseBefore = await databaseCpuMs(probe);
    const { rate: haversackPeak, cpuPerRequest: haversackCpu } = await peak(readHaversack, haversack.pid);
    const databaseCpu = ((await databaseCpuMs(probe)) - databaseBefore) / (haversackPeak * seconds);
    const loaded = await atRate(readHaversack, 0.7 * haversackPeak);
    results.push({
      barePeak,
      haversackPeak,
      share: haversackPeak / barePeak,
      haversackCpu,
      bareCpu,
      databaseCpu,
      ...loaded,
    });
    console.log(
      `round ${r + 1}: Haversack ${haversackPeak.toFixed(0)}/s, bare ${barePeak.toFixed(0)}/s (${(100 * (haversackPeak / barePeak)).toFixed(1)} %); at 70 % of peak p50 ${loaded.p50.toFixed(1)} ms, p99 ${loaded.p99.toFixed(1)} ms; server CPU per read ${haversackCpu.toFixed(2)} ms (bare ${bareCpu.toFixed(2)} ms), database ${databaseCpu.toFixed(2)} ms; bench client busy ${(100 * loaded.clientBusy).toFixed(0)} % of a core at 70 %`,
    );
  }
  await probe.end();
  haversackClient.close();
  bareClient.close();
  const shares = results.map((r) => r.share);
  const middle = results.find((r) => r.share === median(shares));
  const p99 = median(results.map((r) => r.p99));
  console.log(
    `\nshare of bare: median ${(100 * median(shares)).toFixed(1)} % (${(100 * Math.min(...shares)).toFixed(1)}–${(100 * Math.max(...shares)).toFixed(1)} %); p99 at 70 % of peak: median ${p99.toFixed(1)} ms; statements per read: ${statementsPerRead} (bare: 1); server CPU per read: median ${median(results.map((r) => r.haversackCpu)).toFixed(2)} ms (bare ${median(results.map((r) => r.bareCpu)).toFixed(2)} ms)`,
  );
  reportResult({
    bench: 'container-read',
    measure: `container read, ${items} items, requests/s (median of ${rounds})`,
    figure: middle.haversackPeak,
    unit: '/s',
    baseline: middle.barePeak,
    baselineLabel: 'bare Fastify + pg, same query',
    goal: '≥ 50 % of bare',
    met: middle.share >= 0.5,
  });
  reportResult({
    bench: 'container-read',
    measure: 'container read p99 at 70 % of peak',
    figure: p99,
    unit: 'ms',
    baseline: median(results.map((r) => r.p50)),
    baselineLabel: 'p50 at the same load',
    goal: '≤ 25 ms',
    met: p99 <= 25,
  });
} finally {
  await bare.stop();
  await haversack.stop();
  await admin(`drop database if exists ${databaseName}`);
}
