// Real-time fan-out, WebSocket Shootout "broadcast" style (issue 13 item 4).
//
// Three kinds of process, so that the bench does not measure itself:
// - the Haversack server (built app, PGlite in a temp dir), started with a higher per-user connection cap
//   for this server only (CABLE_CONNECTIONS_PER_USER; the default cap stays 12);
// - the baseline: a bare `ws` server (bench/lib/bare-cable-server.mjs) that sends a frame of the same
//   shape, serialised once, to every socket;
// - client processes (bench/lib/cable-clients.mjs) holding raw Action Cable sockets to both servers, all
//   subscribed to one party's inventory channel.
// Senders (here) trigger broadcasts: on Haversack by adding an item to the party stash through the real
// API (commit, ledger, fan-out), on the baseline by a POST. A broadcast's latency, per client, runs from
// the moment its request is sent to the client's receipt. At each client count both servers get the
// same broadcasts, 3 rounds interleaved; the median of the rounds' p95 is reported with its ratio to the
// baseline's. One official @rails/actioncable client also subscribes, as a check that real clients get
// every frame. Memory per idle subscribed connection: the server's heap after a full GC, before and after
// the sockets of the largest step were opened.
//
// Run: npm run build && node bench/cable-broadcast.bench.mjs
//   [--steps 1000,2500,5000,10000] [--rounds 3] [--client-processes 2] [--server apps/server/dist/main.js]
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ActionCable from '@rails/actioncable';
import { WebSocket } from 'ws';
import { reportResult } from './lib/bench-result.mjs';
import { serverNodeFlags } from './lib/server-command.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const steps = argument('steps', process.env.BENCH_STEPS ?? '1000,2500,5000,10000')
  .split(',')
  .map(Number);
const rounds = Number(argument('rounds', 3));
const clientProcesses = Number(argument('client-processes', 2));
const sendersCount = 4;
const broadcastsPerSender = 10;
const goalMs = 250;
/** Another build of the server to compare with (a `before` build kept aside). */
const serverMain = argument('server', 'apps/server/dist/main.js');

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();
const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (values) => percentile(values, 50);

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; NaN elsewhere). On a shared
 * machine latency varies with everyone's load; CPU per broadcast shows what the work itself costs.
 */
const cpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
};

/** Runs a Node script with the file-descriptor limit raised to the hard limit (10,000 sockets each). */
function spawnWithFds(args, env, stdio) {
  const command = `ulimit -n $(ulimit -Hn); exec "${process.execPath}" ${args.map((a) => `'${a}'`).join(' ')}`;
  return spawn('sh', ['-c', command], { env: { ...process.env, ...env }, stdio });
}

async function startHaversack() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-bench-'));
  const child = spawnWithFds(
    [...serverNodeFlags(), '--expose-gc', serverMain],
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // This bench server only: every client signs in as the one bench user.
      CABLE_CONNECTIONS_PER_USER: String(Math.max(...steps) + 10),
      RATE_LIMIT_SCALE: '1000',
      BILLING_PROVIDER: 'local',
    },
    ['ignore', 'pipe', 'inherit'],
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  // Up to 2 minutes: the machine is shared, and a first start on PGlite runs initdb and the seed.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    await sleep(100);
  }
  /** Heap and buffers of the server after a full GC, as it logs them on SIGUSR2. */
  const memory = async () => {
    const before = output.length;
    child.kill('SIGUSR2');
    for (let i = 0; i < 250 && !output.slice(before).includes('memory usage'); i++) await sleep(20);
    const line = output
      .slice(before)
      .split('\n')
      .find((l) => l.includes('memory usage'));
    return JSON.parse(line ?? '{}').memory;
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, memory, stop, cpu: () => cpuMs(child.pid) };
}

async function startBare() {
  const child = spawnWithFds([path.join(here, 'lib/bare-cable-server.mjs')], {}, [
    'ignore',
    'pipe',
    'inherit',
  ]);
  const port = await new Promise((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).port);
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    cpu: () => cpuMs(child.pid),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    },
  };
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

/** The client processes, with the plumbing to wait for their answers. */
function startClients(count) {
  const listeners = new Set();
  const processes = Array.from({ length: count }, () => {
    const child = fork(path.join(here, 'lib/cable-clients.mjs'), [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message) => {
      for (const listener of [...listeners]) listener(child, message);
    });
    return child;
  });
  const next = (child, type) =>
    new Promise((resolve) => {
      const listener = (from, message) => {
        if (from !== child || message.type !== type) return;
        listeners.delete(listener);
        resolve(message);
      };
      listeners.add(listener);
    });
  return {
    processes,
    onMessage: (listener) => listeners.add(listener),
    /** Opens sockets until the group holds `total`, spread evenly over the processes. */
    async connect(group, url, identifier, total, current) {
      const add = total - current;
      await Promise.all(
        processes.map((child, i) => {
          const share = Math.floor(add / count) + (i < add % count ? 1 : 0);
          if (share === 0) return undefined;
          const done = next(child, 'connected');
          child.send({ type: 'connect', group, url, identifier, count: share });
          return done;
        }),
      );
    },
    async collect() {
      const answers = await Promise.all(
        processes.map((child) => {
          const done = next(child, 'receipts');
          child.send({ type: 'collect' });
          return done;
        }),
      );
      const merged = new Map();
      merged.cpu = answers.reduce((sum, answer) => sum + answer.cpu, 0);
      for (const { receipts } of answers)
        for (const [id, times] of Object.entries(receipts))
          merged.set(id, [...(merged.get(id) ?? []), ...times]);
      return merged;
    },
    close() {
      for (const child of processes) child.send({ type: 'close' });
    },
  };
}

/** The official client, as a browser would use it (DESIGN §9 globals), counting item_added messages. */
function officialClient(base, token, partyId) {
  const globals = globalThis;
  globals.addEventListener ??= () => {};
  globals.removeEventListener ??= () => {};
  globals.document ??= {
    visibilityState: 'visible',
    addEventListener: () => {},
    removeEventListener: () => {},
  };
  ActionCable.adapters.WebSocket = WebSocket;
  const consumer = ActionCable.createConsumer(`${base.replace(/^http/, 'ws')}/cable?token=${token}`);
  const received = new Set();
  return new Promise((resolve) => {
    consumer.subscriptions.create(
      { channel: 'PartyInventoryChannel', party_id: partyId },
      {
        connected: () => resolve({ consumer, received }),
        received: (message) => {
          if (message.action === 'item_added') received.add(message.ids.item_instance_id);
        },
      },
    );
  });
}

const haversack = await startHaversack();
const bare = await startBare();
const clients = startClients(clientProcesses);
let official;
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
  const party = await api(haversack.base, 'POST', '/parties', gm.token, {
    party: { name: 'Bench party', encumbrance_style: 'none' },
  });
  const stash = await api(haversack.base, 'POST', `/parties/${party.id}/containers`, gm.token, {
    container: { name: 'Stash' },
  });
  const [template] = await api(haversack.base, 'GET', '/search/items?search=rope&per_page=1', gm.token);
  const identifier = JSON.stringify({ channel: 'PartyInventoryChannel', party_id: party.id });
  // An access token lives 15 minutes: each step signs in again for its new sockets and its senders.
  let token = gm.token;
  const signIn = async () => {
    token = (
      await api(haversack.base, 'POST', '/auth/login', null, {
        email: 'bench@example.com',
        password: 'Benchmark1',
      })
    ).token;
  };

  // A broadcast is complete when every client process holding sockets of its group said so.
  // Waited for by message, not by polling: the coordinator shares the 2 cores with what it measures.
  const delivered = new Map();
  const waiting = new Map();
  clients.onMessage((_child, message) => {
    if (message.type !== 'delivered') return;
    const count = (delivered.get(message.id) ?? 0) + 1;
    delivered.set(message.id, count);
    const waiter = waiting.get(message.id);
    if (waiter && count >= waiter.processes) waiter.resolve();
  });
  const waitDelivered = (id, processes) =>
    new Promise((resolve) => {
      if ((delivered.get(id) ?? 0) >= processes) return resolve();
      const timer = setTimeout(done, 5_000);
      function done() {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      }
      waiting.set(id, { processes, resolve: done });
    });

  const targets = {
    haversack: {
      cpu: haversack.cpu,
      url: () => `${haversack.base.replace('http', 'ws')}/cable?token=${token}`,
      broadcast: async () => {
        const sentAt = now();
        const [item] = await api(haversack.base, 'POST', '/item_instances', token, {
          item_template_id: template.id,
          container_id: stash.id,
          quantity: 1,
        });
        return { id: item.id, sentAt };
      },
    },
    bare: {
      cpu: bare.cpu,
      url: () => `${bare.base.replace('http', 'ws')}/cable`,
      broadcast: async () => {
        const id = crypto.randomUUID();
        const sentAt = now();
        const response = await fetch(
          `${bare.base}/broadcast?id=${id}&identifier=${encodeURIComponent(identifier)}`,
          { method: 'POST' },
        );
        await response.text();
        return { id, sentAt };
      },
    },
  };

  /** One round: 4 senders, 10 broadcasts each, each waiting for its broadcast to reach every client. */
  const round = async (target, clientCount) => {
    const sent = [];
    await clients.collect(); // starts the clients' CPU count afresh
    const cpuBefore = target.cpu();
    const processes = Math.min(clientProcesses, clientCount);
    await Promise.all(
      Array.from({ length: sendersCount }, async () => {
        for (let i = 0; i < broadcastsPerSender; i++) {
          const broadcast = await target.broadcast();
          sent.push(broadcast);
          await waitDelivered(broadcast.id, processes);
        }
      }),
    );
    const serverCpu = target.cpu() - cpuBefore;
    const receipts = await clients.collect();
    const latencies = [];
    let missing = 0;
    for (const { id, sentAt } of sent) {
      const times = receipts.get(id) ?? [];
      missing += clientCount - times.length;
      for (const t of times) latencies.push(t - sentAt);
    }
    return {
      p95: percentile(latencies, 95),
      p50: percentile(latencies, 50),
      missing,
      serverCpu: serverCpu / sent.length,
      clientCpu: receipts.cpu / sent.length,
      ids: sent.map((s) => s.id),
    };
  };

  console.log(
    '| clients | Haversack p95 ms (rounds) | p50 | bare ws p95 ms (rounds) | p50 | × bare | lost | CPU ms per broadcast: Haversack server / its clients | bare server / its clients |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const m0 = await haversack.memory();
  let connected = 0;
  let largestUnder = 0;
  const rows = [];
  let allOfficial = 0;
  let officialSeen = 0;
  let heapPerConnection = Number.NaN;
  for (const target of steps) {
    await signIn();
    await clients.connect('haversack', targets.haversack.url(), identifier, target, connected);
    await clients.connect('bare', targets.bare.url(), identifier, target, connected);
    connected = target;
    if (target === Math.max(...steps)) {
      // The official client checks the largest step (its token would expire during a long run).
      official = await officialClient(haversack.base, token, party.id);
      await sleep(1_000);
      const m1 = await haversack.memory();
      heapPerConnection = (m1.heapUsed - m0.heapUsed) / target / 1024;
    }
    const results = { haversack: [], bare: [] };
    for (let r = 0; r < rounds; r++) {
      for (const name of ['bare', 'haversack']) {
        const result = await round(targets[name], target);
        results[name].push(result);
        if (name === 'haversack' && official) {
          allOfficial += result.ids.length;
          await sleep(200);
          officialSeen += result.ids.filter((id) => official.received.has(id)).length;
        }
      }
    }
    const summary = (list) => ({
      p95: median(list.map((r) => r.p95)),
      p50: median(list.map((r) => r.p50)),
      spread: `${Math.min(...list.map((r) => r.p95)).toFixed(0)}–${Math.max(...list.map((r) => r.p95)).toFixed(0)}`,
      missing: list.reduce((sum, r) => sum + r.missing, 0),
      cpu: `${median(list.map((r) => r.serverCpu)).toFixed(0)} / ${median(list.map((r) => r.clientCpu)).toFixed(0)}`,
    });
    const h = summary(results.haversack);
    const b = summary(results.bare);
    rows.push({ target, h, b });
    console.log(
      `| ${target} | ${h.p95.toFixed(1)} (${h.spread}) | ${h.p50.toFixed(1)} | ${b.p95.toFixed(1)} (${b.spread}) | ${b.p50.toFixed(1)} | ${(h.p95 / b.p95).toFixed(2)} | ${h.missing} + ${b.missing} | ${h.cpu} | ${b.cpu} |`,
    );
    if (h.p95 <= goalMs && h.missing === 0) largestUnder = target;
  }
  console.log(
    `\nrounds per step: ${rounds}; client processes: ${clientProcesses}; ${sendersCount}×${broadcastsPerSender} broadcasts per round`,
  );
  console.log(
    `heap per idle subscribed connection (${Math.max(...steps)}): ${heapPerConnection.toFixed(1)} KiB`,
  );
  console.log(`official @rails/actioncable client received ${officialSeen} of ${allOfficial} broadcasts`);
  console.log(`largest client count with p95 ≤ ${goalMs} ms and nothing lost: ${largestUnder}`);
  const last = rows.at(-1);
  reportResult({
    bench: 'cable-broadcast',
    measure: `broadcast p95 to ${last.target} clients (median of ${rounds})`,
    figure: last.h.p95,
    unit: 'ms',
    baseline: last.b.p95,
    baselineLabel: 'bare ws server, same clients, p95',
    goal: `≤ ${goalMs} ms at 10,000 clients`,
    met:
      last.target >= 10_000 && last.h.p95 <= goalMs && last.h.missing === 0 && officialSeen === allOfficial,
  });
  reportResult({
    bench: 'cable-broadcast',
    measure: 'heap per idle subscribed connection',
    figure: heapPerConnection,
    unit: 'KiB',
    baseline: 20,
    baselineLabel: 'the goal (no bare figure)',
    goal: '≤ 20 KiB',
    met: heapPerConnection <= 20,
  });
} finally {
  official?.consumer.disconnect();
  clients.close();
  await bare.stop();
  await haversack.stop();
}
