// The server's app built inside the bench's own process, answering through `app.inject` (no socket, no
// HTTP client in the figures), on a database the bench has opened and filled: shared by the benches that
// time the API's own work (search-items, campaign-reads). Run them with `--import tsx`: this imports the
// server's TypeScript source.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { MailQueue } from '../../apps/server/src/lib/mail-queue.ts';
import { createMailer } from '../../apps/server/src/lib/mailer.ts';

/** The app on `database`, with a data directory of its own and a silent log; `close()` ends all of it. */
export async function startInProcessApp(database, extraEnv = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-bench-'));
  const log = pino({ level: 'silent' });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://bench.test',
    LOG_LEVEL: 'silent',
    ...extraEnv,
  });
  const mail = new MailQueue(createMailer({ from: config.mailFrom, dataDir, log }), log);
  const app = await buildApp({
    config,
    database,
    mail,
    jwtSecret: randomBytes(32).toString('hex'),
    logger: false,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      mail.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small deterministic generator of numbers in [0, 1), so that every run works on the same data. */
export function deterministicRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/**
 * Times GET `cases` (name → url) against the health request, interleaved round by round so that a noisy
 * moment hits them all: `warmups` rounds first (the JIT, the plan cache and the buffer cache), then `rounds`.
 * Each sample keeps the wall clock and the process's CPU time (on a shared machine the wall clock also
 * counts other processes' turns). `time(url)` is handed back for the caller's own follow-up reads.
 */
export async function timeReads(app, headers, cases, { warmups, rounds }) {
  async function time(url) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const response = await app.inject({ method: 'GET', url, headers });
    const elapsed = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    if (response.statusCode !== 200)
      throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    return { elapsed, cpu: (cpu.user + cpu.system) / 1000, response };
  }
  const all = [['health', '/api/v1/health'], ...Object.entries(cases)];
  for (let i = 0; i < warmups; i++) for (const [, url] of all) await time(url);
  const samples = Object.fromEntries(all.map(([name]) => [name, []]));
  const cpuSamples = Object.fromEntries(all.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of all) {
      const { elapsed, cpu } = await time(url);
      samples[name].push(elapsed);
      cpuSamples[name].push(cpu);
    }
  }
  return { samples, cpuSamples, time };
}
