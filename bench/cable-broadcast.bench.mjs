// WebSocket Shootout "broadcast" method against /cable (issue 6 item 7).
//
// A Haversack server runs in its own process (built app, PGlite in a temp dir). Clients open raw
// Action Cable connections and subscribe to one party's inventory channel. A few senders trigger
// broadcasts through the real API (adding an item to the party stash, which commits, writes the ledger
// and fans out). For each broadcast we measure, per client, the time from the sender's request to the
// client's receipt. The client count steps up until the 95th percentile passes 250 ms.
// Figures are relative to this machine; a bare WebSocket echo round trip is measured in the same run
// as the baseline.
//
// Run: npm run build && node bench/cable-broadcast.bench.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';

const steps = (process.env.BENCH_STEPS ?? '50,100,250,500,1000,1500,2000').split(',').map(Number);
const sendersCount = 4;
const broadcastsPerSender = 10;

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-bench-'));
  const child = spawn(process.execPath, ['--expose-gc', 'apps/server/dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CABLE_CONNECTIONS_PER_USER: '100000',
      RATE_LIMIT_SCALE: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk.toString();
  });
  /** Heap and buffers of the server after a full GC, as it logs them on SIGUSR2. */
  const memory = async () => {
    const before = output.length;
    child.kill('SIGUSR2');
    for (let i = 0; i < 100 && !output.slice(before).includes('memory usage'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const line = output
      .slice(before)
      .split('\n')
      .find((l) => l.includes('memory usage'));
    const { memory } = JSON.parse(line ?? '{}');
    return memory;
  };
  return { child, base, dataDir, memory };
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

function connectClient(base, token, partyId, onMessage) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/cable?token=${token}`, [
      'actioncable-v1-json',
    ]);
    const identifier = JSON.stringify({ channel: 'PartyInventoryChannel', party_id: partyId });
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'welcome') socket.send(JSON.stringify({ command: 'subscribe', identifier }));
      else if (frame.type === 'confirm_subscription') resolve(socket);
      else if (frame.type === 'reject_subscription' || frame.type === 'disconnect')
        reject(new Error(JSON.stringify(frame)));
      else if (frame.message?.action === 'item_added') onMessage(frame.message);
    });
    socket.on('error', reject);
  });
}

async function baselineEcho(samples = 200) {
  const port = await freePort();
  const server = new WebSocketServer({ port, host: '127.0.0.1' });
  server.on('connection', (s) => s.on('message', (m) => s.send(m)));
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => client.on('open', r));
  const times = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await new Promise((r) => {
      client.once('message', r);
      client.send('x');
    });
    times.push(performance.now() - start);
  }
  client.close();
  server.close();
  return percentile(times, 95);
}

const echoP95 = await baselineEcho();
const { child, base, dataDir, memory } = await startServer();
try {
  const gm = await api(base, 'POST', '/auth/register', null, {
    user: {
      email: 'bench@example.com',
      username: 'bench_gm',
      password: 'Benchmark1',
      password_confirmation: 'Benchmark1',
    },
  });
  await api(base, 'POST', '/subscription/checkout', gm.token, { tier_id: 'tier_3' });
  const party = await api(base, 'POST', '/parties', gm.token, {
    party: { name: 'Bench party', encumbrance_style: 'none' },
  });
  const stash = await api(base, 'POST', `/parties/${party.id}/containers`, gm.token, {
    container: { name: 'Stash' },
  });
  const [template] = await api(base, 'GET', '/search/items?search=rope&per_page=1', gm.token);

  const sockets = [];
  const pending = new Map();
  const latencies = [];
  const onMessage = (message) => {
    const sentAt = pending.get(message.ids?.item_instance_id) ?? pending.get('any');
    if (sentAt !== undefined) latencies.push(performance.now() - sentAt);
  };
  // Memory per idle connection, measured first: server RSS before and after opening idle subscribed
  // connections (they are closed again, then the broadcast steps start).
  const idleCount = Number(process.env.BENCH_IDLE ?? 1000);
  const m0 = await memory();
  const idle = [];
  while (idle.length < idleCount) {
    idle.push(
      ...(await Promise.all(
        Array.from({ length: 50 }, () => connectClient(base, gm.token, party.id, () => {})),
      )),
    );
  }
  const m1 = await memory();
  const perConnection = (key) => ((m1[key] - m0[key]) / idle.length / 1024).toFixed(1);
  console.log(
    // RSS and external memory are dominated by PGlite's WebAssembly heap, which moves by megabytes on its own.
    `memory per idle subscribed connection (${idle.length}): ~${perConnection('heapUsed')} KiB of JS heap after a full GC`,
  );
  for (const socket of idle) socket.close();
  await new Promise((r) => setTimeout(r, 1_000));
  console.log(`baseline: bare WebSocket echo p95 ${echoP95.toFixed(2)} ms`);
  console.log('clients  p95 ms  p50 ms  ratio-to-echo  deliveries');
  let largestUnder = 0;
  for (const target of steps) {
    while (sockets.length < target) {
      const batch = Math.min(50, target - sockets.length);
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () => connectClient(base, gm.token, party.id, onMessage)),
        )),
      );
    }
    latencies.length = 0;
    await Promise.all(
      Array.from({ length: sendersCount }, async () => {
        for (let i = 0; i < broadcastsPerSender; i++) {
          const expected = latencies.length + sockets.length;
          pending.set('any', performance.now());
          await api(base, 'POST', '/item_instances', gm.token, {
            item_template_id: template.id,
            container_id: stash.id,
            quantity: 1,
          });
          // Wait until this broadcast reached every client (or 2 s passed).
          const deadline = performance.now() + 2_000;
          while (latencies.length < expected && performance.now() < deadline)
            await new Promise((r) => setTimeout(r, 1));
        }
      }),
    );
    const p95 = percentile(latencies, 95);
    console.log(
      `${String(target).padStart(7)}  ${p95.toFixed(1).padStart(6)}  ${percentile(latencies, 50).toFixed(1).padStart(6)}  ${(p95 / echoP95).toFixed(0).padStart(13)}  ${latencies.length}`,
    );
    if (p95 < 250) largestUnder = target;
    else break;
  }
  console.log(`largest client count with p95 < 250 ms: ${largestUnder}`);
  for (const socket of sockets) socket.close();
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
