// Start on the embedded database (issue 13 §6): the first start on an empty DATA_DIR (initdb, the
// migrations, the seed), restarts on that directory, and the resident memory once health answers, after
// a few idle seconds, and on the last restart under a burst of item searches. The baseline of the same
// run is a bare Node HTTP server answering its first request, started the same way.
//
// Run: npm run build && node bench/start.bench.mjs [--restarts 3] [--requests 400] [--server apps/server/dist/main.js]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { reportResult } from './lib/bench-result.mjs';
import { serverNodeFlags } from './lib/server-command.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const restarts = Number(argument('restarts', 3));
// Another build to compare with, e.g. the commit before a change kept aside.
const server = argument('server', 'apps/server/dist/main.js');
const idleSeconds = 5;

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const residentMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
};

/**
 * CPU time the process and its reaped children used (ms, /proc/PID/stat fields 14–17): unlike the wall
 * time, it hardly grows when other processes share the machine.
 */
const cpuMs = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
};

const loadRequests = Number(argument('requests', 400));
const loadConcurrency = 8;
const searches = [
  '/api/v1/search/items?search=sword',
  '/api/v1/search/items?search=long',
  '/api/v1/search/items?search=*&page=5',
  '/api/v1/search/items?min_value=10&max_value=20&max_weight=5&per_page=50',
  '/api/v1/search/items?search=dragon&sort=value&direction=desc',
  '/api/v1/item_templates?visibility=public',
];

/**
 * A burst of API requests (item searches and the catalogue, 8 at a time, as one signed-in user) while
 * sampling the resident memory: its largest value under load, then after the idle seconds.
 */
async function burst(base, pid) {
  const password = 'Benchmark1';
  const registered = await fetch(`${base}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: { email: 'burst@example.com', username: 'burst', password, password_confirmation: password },
    }),
  });
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const { token } = (await registered.json()).data;
  let peak = residentMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentMb(pid));
  }, 50);
  let next = 0;
  const worker = async () => {
    while (next < loadRequests) {
      const url = searches[next++ % searches.length];
      const response = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await response.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: loadConcurrency }, worker));
  const loadMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, residentMb(pid));
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  return { loadMs, peak, after: residentMb(pid) };
}

/** Starts `args`, waits until `url` answers, measures (with `load` once idle, if given), and stops it. */
async function timeStart(args, env, urlPath, load) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${urlPath}`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  const cpu = cpuMs(child.pid);
  const atReady = residentMb(child.pid);
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idle = residentMb(child.pid);
  const loaded = load ? await load(`http://127.0.0.1:${port}`, child.pid) : undefined;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, cpu, atReady, idle, loaded };
}

const bare = [
  '-e',
  "require('node:http').createServer((q,s)=>s.end('ok')).listen(+process.env.PORT,'127.0.0.1')",
];
const baseline = await timeStart(bare, {}, '/');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-start-'));
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
const rows = [['first start', await timeStart([...serverNodeFlags(), server], env, '/api/v1/health')]];
for (let i = 1; i <= restarts; i++) {
  // The last restart also serves a burst of requests: the memory under load.
  const load = i === restarts ? burst : undefined;
  rows.push([`restart ${i}`, await timeStart([...serverNodeFlags(), server], env, '/api/v1/health', load)]);
}
const loaded = rows.at(-1)[1].loaded;
rmSync(dataDir, { recursive: true, force: true });

console.log(
  `bare Node HTTP server: ready in ${baseline.ms.toFixed(0)} ms (CPU ${baseline.cpu.toFixed(0)} ms), ${baseline.idle.toFixed(0)} MB resident\n`,
);
console.log(
  '| start | ready (ms) | × bare | CPU until ready (ms) | resident when ready (MB) | resident idle (MB) |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, row] of rows) {
  console.log(
    `| ${name} | ${row.ms.toFixed(0)} | ${(row.ms / baseline.ms).toFixed(1)} | ${row.cpu.toFixed(0)} | ${row.atReady.toFixed(0)} | ${row.idle.toFixed(0)} |`,
  );
}

console.log(
  `\nunder load (restart ${restarts}, ${loadRequests} item searches, ${loadConcurrency} at a time, ${loaded.loadMs.toFixed(0)} ms): ` +
    `largest resident ${loaded.peak.toFixed(0)} MB, ${loaded.after.toFixed(0)} MB after ${idleSeconds} idle seconds`,
);

const first = rows[0][1];
const restartRows = rows.slice(1).map(([, row]) => row);
const slowestRestart = restartRows.reduce((a, b) => (b.ms > a.ms ? b : a), restartRows[0] ?? first);
const idleMb = Math.max(...rows.map(([, row]) => row.idle));
const bareLabel = 'bare Node HTTP server';
reportResult({
  bench: 'start',
  measure: 'first start on an empty DATA_DIR',
  figure: first.ms,
  unit: 'ms',
  baseline: baseline.ms,
  baselineLabel: bareLabel,
  goal: '≤ 8000 ms',
  met: first.ms <= 8000,
});
reportResult({
  bench: 'start',
  measure: 'restart (slowest)',
  figure: slowestRestart.ms,
  unit: 'ms',
  baseline: baseline.ms,
  baselineLabel: bareLabel,
  goal: '≤ 1500 ms',
  met: slowestRestart.ms <= 1500,
});
reportResult({
  bench: 'start',
  measure: `resident memory after ${idleSeconds} idle seconds (largest)`,
  figure: idleMb,
  unit: 'MB',
  baseline: baseline.idle,
  baselineLabel: bareLabel,
  goal: '≤ 250 MB',
  met: idleMb <= 250,
});
reportResult({
  bench: 'start',
  measure: `resident memory under load (largest, ${loadRequests} item searches)`,
  figure: loaded.peak,
  unit: 'MB',
  baseline: baseline.idle,
  baselineLabel: bareLabel,
});
reportResult({
  bench: 'start',
  measure: `resident memory ${idleSeconds} idle seconds after that load`,
  figure: loaded.after,
  unit: 'MB',
  baseline: baseline.idle,
  baselineLabel: bareLabel,
});
