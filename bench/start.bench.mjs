// Start on the embedded database (issue 13 §6): the first start on an empty DATA_DIR (initdb, the
// migrations, the seed), restarts on that directory, and the resident memory once health answers and
// after a few idle seconds. The baseline of the same run is a bare Node HTTP server answering its first
// request, started the same way.
//
// Run: npm run build && node bench/start.bench.mjs [--restarts 3] [--server apps/server/dist/main.js]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { reportResult } from './lib/bench-result.mjs';

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

/** Starts `args`, waits until `url` answers, measures, and stops it. */
async function timeStart(args, env, urlPath) {
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
  const atReady = residentMb(child.pid);
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idle = residentMb(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, atReady, idle };
}

const bare = [
  '-e',
  "require('node:http').createServer((q,s)=>s.end('ok')).listen(+process.env.PORT,'127.0.0.1')",
];
const baseline = await timeStart(bare, {}, '/');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-start-'));
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
const rows = [['first start', await timeStart([server], env, '/api/v1/health')]];
for (let i = 1; i <= restarts; i++) {
  rows.push([`restart ${i}`, await timeStart([server], env, '/api/v1/health')]);
}
rmSync(dataDir, { recursive: true, force: true });

console.log(
  `bare Node HTTP server: ready in ${baseline.ms.toFixed(0)} ms, ${baseline.idle.toFixed(0)} MB resident\n`,
);
console.log('| start | ready (ms) | × bare | resident when ready (MB) | resident idle (MB) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, row] of rows) {
  console.log(
    `| ${name} | ${row.ms.toFixed(0)} | ${(row.ms / baseline.ms).toFixed(1)} | ${row.atReady.toFixed(0)} | ${row.idle.toFixed(0)} |`,
  );
}

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
