// Starts the built Haversack server (apps/server/dist) on a fresh PGlite directory and a free port, and
// calls its API: shared by the browser benches.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './server-command.mjs';

export const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * The built server on its own data directory (or `dataDir`, to start again on one); `stop()` ends it and
 * removes the directory, `stop({ keep: true })` ends it and keeps it.
 */
export async function startServer(
  extraEnv = {},
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-bench-')),
) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serverNodeFlags(), 'apps/server/dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: base,
      LOG_LEVEL: 'warn',
      BILLING_PROVIDER: 'local',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ready = false;
  for (let i = 0; i < 1200 && !ready; i++) {
    try {
      ready = (await fetch(`${base}/api/v1/health`)).ok;
    } catch {}
    if (!ready) await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode} before it answered`);
  }
  if (!ready) throw new Error('the server did not answer /api/v1/health within 120 s');
  return {
    base,
    dataDir,
    stop: async ({ keep = false } = {}) => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One API call; throws with the server's answer unless it succeeded. Resolves with `data`. */
export async function api(base, method, url, token, body) {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}
