// Item transfers with their ledger rows on PostgreSQL (issue 13 item 2).
//
// Creates a fresh database on the PostgreSQL at BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/
// postgres), starts the built server on it (its statements counted by bench/lib/count-queries.mjs), and
// sets up one GM with `concurrency` pairs of party containers, a stack of gold in the first of each.
// Then, in rounds interleaved with the baseline:
// - transfers: `concurrency` workers each moving 1 gp from one container of its pair to the other
//   through POST /api/v1/containers/transfer (HTTP keep-alive, bench/lib/http-load.mjs), for `seconds`;
// - the bare loop: the same number of workers each running BEGIN; UPDATE one row; INSERT one ledger
//   row; COMMIT through node-postgres on the same PostgreSQL (a database of its own), for the same time.
// It reports transfers per second as a share of the bare loop's transactions per second (median of the
// rounds), the statements the server sent per transfer, and checks that nothing was lost: the gold in
// every container still adds up, each container's content equals its ledger replayed, and every
// transfer answered 200 has its ledger row. It also prints the CPU per operation of both loops (server,
// PostgreSQL's backends, this process as their client) and the transfers/s that the transfer's CPU
// allows on this machine's cores. The databases are dropped at the end.
//
// Run: npm run build && node bench/transfer.bench.mjs [--rounds 3] [--seconds 5] [--concurrency 4]
//   [--server apps/server/dist/main.js] [--compare other/dist/main.js] [--no-ceiling]
//
// It also measures a ceiling, in the same rounds: the statements of this build's transfers, captured as the
// server sends them, replayed on containers of their own behind a bare node:http server
// (bench/lib/transfer-replay-server.mjs), so that the run shows what share of the bare loop the transfer's
// database work allows with no JavaScript of Haversack's around it. `--no-ceiling` leaves it out.
//
// --compare starts a second build (a copy of another commit's apps/server/dist, say) on a database of its
// own, set up the same way, and runs its transfers in the same rounds, the two builds taking turns to go
// first: it prints each build's share and the second's transfers/s over the first's in each round. On a
// machine whose speed drifts from run to run, that paired ratio tells two builds apart where separate runs
// cannot.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
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
const concurrency = Number(argument('concurrency', 4));
const serverMain = argument('server', 'apps/server/dist/main.js');
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const compareMain = argument('compare', null);
const withCeiling = !process.argv.includes('--no-ceiling');
const databaseUrlOf = (name) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
const startingGold = 1_000_000;
const goal = 0.4;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
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

async function startServer(main, databaseUrl, { captureFile } = {}) {
  const port = await freePort();
  // BENCH_SERVER_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server, for instance.
  const nodeArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), ...nodeArgs, '--import', path.join(here, 'lib/count-queries.mjs'), main],
    {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_SCALE: '1000',
        BILLING_PROVIDER: 'local',
        ...(captureFile ? { BENCH_CAPTURE_FILE: captureFile } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
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
  /** The statements the server sent so far, and its CPU time so far in µs. */
  const counters = async () => {
    const before = output.length;
    child.kill('SIGWINCH');
    for (let i = 0; i < 250 && !/CPU_US \d+/.test(output.slice(before)); i++) await sleep(10);
    const line = output.slice(before);
    return {
      statements: Number(/QUERY_COUNT (\d+)/.exec(line)?.[1] ?? Number.NaN),
      cpuUs: Number(/CPU_US (\d+)/.exec(line)?.[1] ?? Number.NaN),
    };
  };
  /** The statements the server sends while `work` runs, as count-queries.mjs writes them to `captureFile`. */
  const capture = async (work) => {
    const toggle = async (on) => {
      const before = output.length;
      child.kill('SIGUSR2');
      for (let i = 0; i < 250 && !output.slice(before).includes(`CAPTURING ${on}`); i++) await sleep(10);
      if (!output.slice(before).includes(`CAPTURING ${on}`))
        throw new Error(`the server did not ${on ? 'start' : 'stop'} capturing its statements`);
    };
    await toggle(true);
    try {
      await work();
    } finally {
      await toggle(false);
    }
    return readFileSync(captureFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  };
  return { base, counters, capture, stop };
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
 * CPU time (µs) the backends of one of the bench's databases used so far: /proc of each backend connected
 * to it (PostgreSQL on this machine). During the transfers only the server's connections work.
 */
async function databaseCpuUs(client, databaseName) {
  const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [databaseName]);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {}
  }
  return (ticks * 1_000_000) / clockTicks;
}
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** Runs `work` in `concurrency` loops for `seconds`; answers completed operations per second. */
async function saturate(work) {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        await work(worker);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/**
 * A build of the server on a fresh database of its own, with one GM and `concurrency` pairs of party
 * containers, a stack of gold in the first of each: `transferOnce(worker)` moves 1 gp within a pair.
 */
async function prepareSide(label, main, databaseName, { captureFile } = {}) {
  const databaseUrl = databaseUrlOf(databaseName);
  await admin(`drop database if exists ${databaseName}`);
  await admin(`create database ${databaseName}`);
  const server = await startServer(main, databaseUrl, { captureFile });
  stops.push(() => server.stop());
  const gm = await api(server.base, 'POST', '/auth/register', null, {
    user: {
      email: 'bench@example.com',
      username: 'bench_gm',
      password: 'Benchmark1',
      password_confirmation: 'Benchmark1',
    },
  });
  await api(server.base, 'POST', '/subscription/checkout', gm.token, { tier_id: 'tier_3' });
  const party = await api(server.base, 'POST', '/parties', gm.token, {
    party: { name: 'Bench party', encumbrance_style: 'none' },
  });
  const [gold] = await api(server.base, 'GET', '/search/items?search=gold%20piece&per_page=1', gm.token);
  /** `concurrency` pairs of party containers, the first of each with a stack of gold. */
  const makePairs = async (prefix) => {
    const made = [];
    for (let i = 0; i < concurrency; i++) {
      const make = async (name) =>
        (await api(server.base, 'POST', `/parties/${party.id}/containers`, gm.token, { container: { name } }))
          .id;
      const from = await make(`${prefix} ${i} A`);
      const to = await make(`${prefix} ${i} B`);
      const [stack] = await api(server.base, 'POST', '/item_instances', gm.token, {
        item_template_id: gold.id,
        container_id: from,
        quantity: startingGold,
      });
      made.push({ from, to, instance: stack.id });
    }
    return made;
  };
  const pairs = await makePairs('Chest');
  // The load: keep-alive node:http clients that read each answer to its last byte without decoding it
  // (bench/lib/http-load.mjs says why), asking for what fetch asks for; each worker sends its own body.
  const client = loadClient(server.base, { sockets: concurrency });
  stops.push(() => client.close());
  const bodyOf = (pair) =>
    JSON.stringify({
      item_instance_id: pair.instance,
      source_container_id: pair.from,
      target_container_id: pair.to,
      quantity: 1,
    });
  const bodies = pairs.map(bodyOf);
  /** One transfer of 1 gp within `pair`, outside the measured ones (for the ceiling's capture). */
  const transferWithin = async (pair) => {
    const answer = await client.send('POST', '/api/v1/containers/transfer', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${gm.token}` },
      body: bodyOf(pair),
    });
    if (answer.status !== 200) throw new Error(`transfer answered ${answer.status}: ${answer.body}`);
  };
  const side = {
    label,
    databaseName,
    databaseUrl,
    server,
    makePairs,
    transferWithin,
    transfers: 0,
    transferOnce: async (worker) => {
      const answer = await client.send('POST', '/api/v1/containers/transfer', {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${gm.token}` },
        body: bodies[worker],
      });
      if (answer.status !== 200) throw new Error(`transfer answered ${answer.status}: ${answer.body}`);
      side.transfers += 1;
    },
    /** Nothing lost: the gold adds up, each container equals its ledger replayed, one ledger row per transfer. */
    verify: async () => {
      const check = new pg.Client({ connectionString: databaseUrl });
      await check.connect();
      const containerIds = pairs.flatMap((p) => [p.from, p.to]);
      const { rows } = await check.query(
        `select c.id,
                coalesce((select sum(i.quantity) from item_instances i where i.container_id = c.id), 0)::bigint as held,
                coalesce((select sum(t.quantity) from transactions t where t.destination_container_id = c.id and t.item_template_id = $2), 0)::bigint
              - coalesce((select sum(t.quantity) from transactions t where t.source_container_id = c.id and t.item_template_id = $2), 0)::bigint as replayed
           from containers c where c.id = any($1)`,
        [containerIds, gold.id],
      );
      const { rows: ledger } = await check.query(
        `select count(*)::int as n from transactions where source_container_id = any($1) and destination_container_id = any($1)`,
        [containerIds],
      );
      await check.end();
      const held = rows.reduce((sum, r) => sum + Number(r.held), 0);
      const mismatched = rows.filter((r) => Number(r.held) !== Number(r.replayed));
      const intact =
        held === startingGold * concurrency && mismatched.length === 0 && ledger[0].n === side.transfers;
      return {
        intact,
        summary: `gold held ${held} of ${startingGold * concurrency}; ${mismatched.length} containers differ from their ledger; ${ledger[0].n} ledger rows for ${side.transfers} transfers`,
      };
    },
  };
  return side;
}

/**
 * The ceiling (see the top of this file): `concurrency` more pairs on `side`'s server, one transfer in each
 * (so that the target's stack exists, as in the measured transfers), then one more in each with the
 * server's statements captured, replayed by bench/lib/transfer-replay-server.mjs on the same database.
 */
async function prepareCeiling(side, captureFile) {
  const pairs = await side.makePairs('Ceiling');
  for (const pair of pairs) await side.transferWithin(pair);
  const statements = await side.server.capture(async () => {
    for (const pair of pairs) await side.transferWithin(pair);
  });
  const transfers = [];
  for (let at = 0; at < statements.length; at++) {
    if (statements[at].text.startsWith('begin')) transfers.push(statements.slice(at, at + 5));
  }
  const shapes = transfers.map((t) => t.map((statement) => /^\w+/.exec(statement.text)?.[0]).join(' '));
  if (
    transfers.length !== concurrency ||
    shapes.some((shape) => shape !== 'begin select select with commit')
  ) {
    throw new Error(`a transfer's statements were not the five the replay knows: ${shapes.join('; ')}`);
  }
  const statementsFile = `${captureFile}.transfers.json`;
  writeFileSync(statementsFile, JSON.stringify(transfers));
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), path.join(here, 'lib/transfer-replay-server.mjs'), statementsFile],
    { env: { ...process.env, DATABASE_URL: side.databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk.toString();
  });
  for (let i = 0; i < 500 && !/"port":\d+/.test(output); i++) await sleep(10);
  const port = JSON.parse(output.split('\n')[0]).port;
  const client = loadClient(`http://127.0.0.1:${port}`, { sockets: concurrency });
  stops.push(async () => {
    client.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  });
  const ceiling = {
    results: [],
    replayOnce: async (worker) => {
      const answer = await client.send('POST', `/${worker}`, { body: '', keepBody: true });
      if (answer.status !== 200) throw new Error(`the replay answered ${answer.status}: ${answer.body}`);
    },
    /** The replay server's CPU time so far, in µs. */
    cpuUs: async () => {
      const before = output.length;
      child.kill('SIGWINCH');
      for (let i = 0; i < 250 && !/CPU_US \d+/.test(output.slice(before)); i++) await sleep(10);
      return Number(/CPU_US (\d+)/.exec(output.slice(before))?.[1] ?? Number.NaN);
    },
  };
  return ceiling;
}

/** What to stop at the end, whatever happened: the servers started and their load clients. */
const stops = [];
const databaseNames = [
  `haversack_bench_transfer_${process.pid}`,
  `haversack_bench_transfer_${process.pid}_b`,
];
// The bare loop on a database of its own: the builds' databases then differ only in their build.
const bareDatabase = `haversack_bench_transfer_${process.pid}_bare`;
const sides = [];
let bare;
// Where the server writes the statements it sends while the ceiling's transfers are captured.
const captureDirectory = mkdtempSync(path.join(tmpdir(), 'haversack-bench-transfer-'));
let ceiling = null;
try {
  const captureFile = path.join(captureDirectory, 'statements.jsonl');
  sides.push(
    await prepareSide('this build', serverMain, databaseNames[0], withCeiling ? { captureFile } : {}),
  );
  if (compareMain) sides.push(await prepareSide('compared build', compareMain, databaseNames[1]));
  const [main] = sides;
  if (withCeiling) ceiling = await prepareCeiling(main, captureFile);
  await admin(`drop database if exists ${bareDatabase}`);
  await admin(`create database ${bareDatabase}`);
  // Its connections stay open while the transfers run (node-postgres closes idle ones after 10 s): a
  // backend that left would take the CPU it had spent out of the sum of the database's backends.
  bare = new pg.Pool({
    connectionString: databaseUrlOf(bareDatabase),
    max: concurrency,
    idleTimeoutMillis: 0,
  });
  await bare.query(
    'create table bench_stock (id int primary key, quantity int not null); create table bench_ledger (id bigserial primary key, stock_id int not null, quantity int not null, created_at timestamptz not null default now())',
  );
  await bare.query('insert into bench_stock select g, 1000000 from generate_series(0, $1) g', [concurrency]);

  let bareDone = 0;
  const bareOnce = async (worker) => {
    const client = await bare.connect();
    try {
      await client.query('begin');
      await client.query('update bench_stock set quantity = quantity - 1 where id = $1', [worker]);
      await client.query('insert into bench_ledger (stock_id, quantity) values ($1, 1)', [worker]);
      await client.query('commit');
      bareDone += 1;
    } finally {
      client.release();
    }
  };

  // Warm up both (JIT, connections, plans) for as long as one round, so that no round measures a cold
  // process: with a few transfers only, the first round ran at 60–80 % of the others.
  for (const side of sides) await saturate(side.transferOnce);
  if (ceiling) await saturate(ceiling.replayOnce);
  await saturate(bareOnce);
  const probe = new pg.Client({ connectionString: adminUrl });
  await probe.connect();
  for (const side of sides) {
    side.countersBefore = await side.server.counters();
    side.transfersBefore = side.transfers;
    side.databaseCpu = 0;
    /** The bench process's own CPU per transfer in each round (the load generator, for the record). */
    side.clientCpuMs = [];
    side.results = [];
  }
  /** The bare loop's CPU per transaction in each round: its backends, and this process (its client). */
  const bareCpuMs = [];
  /** With --compare: the compared build's transfers/s over this build's, round by round. */
  const paired = [];
  for (let r = 0; r < rounds; r++) {
    const bareDatabaseBefore = await databaseCpuUs(probe, bareDatabase);
    const bareClientBefore = process.cpuUsage();
    const bareDoneBefore = bareDone;
    const bareRate = await saturate(bareOnce);
    const bareClient = process.cpuUsage(bareClientBefore);
    const bareCount = bareDone - bareDoneBefore;
    bareCpuMs.push({
      database: ((await databaseCpuUs(probe, bareDatabase)) - bareDatabaseBefore) / 1000 / bareCount,
      client: (bareClient.user + bareClient.system) / 1000 / bareCount,
    });
    // The builds take turns to go first, so that neither always follows the bare loop.
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      // The CPU of this build's database's backends, over its transfers only.
      const databaseCpuBefore = await databaseCpuUs(probe, side.databaseName);
      const clientCpuBefore = process.cpuUsage();
      const transfersAtStart = side.transfers;
      const transferRate = await saturate(side.transferOnce);
      side.databaseCpu += (await databaseCpuUs(probe, side.databaseName)) - databaseCpuBefore;
      const clientCpu = process.cpuUsage(clientCpuBefore);
      side.clientCpuMs.push((clientCpu.user + clientCpu.system) / 1000 / (side.transfers - transfersAtStart));
      side.results.push({ bareRate, transferRate, share: transferRate / bareRate });
    }
    if (ceiling) {
      const cpuBefore = await ceiling.cpuUs();
      let replayed = 0;
      const replayRate = await saturate(async (worker) => {
        await ceiling.replayOnce(worker);
        replayed += 1;
      });
      ceiling.results.push({
        bareRate,
        replayRate,
        share: replayRate / bareRate,
        serverCpuMs: ((await ceiling.cpuUs()) - cpuBefore) / 1000 / replayed,
      });
    }
    const [first, second] = sides;
    const line = (side) =>
      `transfers ${side.results[r].transferRate.toFixed(1)}/s, bare loop ${bareRate.toFixed(1)}/s, ${(100 * side.results[r].share).toFixed(1)} %`;
    if (second) {
      paired.push(second.results[r].transferRate / first.results[r].transferRate);
      console.log(
        `round ${r + 1}: this build ${line(first)}; compared build ${line(second)}; compared / this ${paired[r].toFixed(3)}`,
      );
    } else {
      console.log(`round ${r + 1}: ${line(first)}`);
    }
    if (ceiling) {
      const { replayRate, share } = ceiling.results[r];
      console.log(
        `  its statements replayed behind a bare node:http server: ${replayRate.toFixed(1)}/s, ${(100 * share).toFixed(1)} % of the bare loop`,
      );
    }
  }
  await probe.end();
  let allIntact = true;
  for (const side of sides) {
    const countersAfter = await side.server.counters();
    const measured = side.transfers - side.transfersBefore;
    side.statementsPerTransfer = (countersAfter.statements - side.countersBefore.statements) / measured;
    // The server's CPU over the rounds is spent on the transfers (it idles during the bare loop).
    side.serverCpuMs = (countersAfter.cpuUs - side.countersBefore.cpuUs) / 1000 / measured;
    side.databaseCpuMs = side.databaseCpu / 1000 / measured;
    const { intact, summary } = await side.verify();
    side.intact = intact;
    allIntact &&= intact;
    const of = sides.length > 1 ? ` (${side.label})` : '';
    console.log(`\nnothing lost${of}: ${intact} (${summary})`);
    console.log(
      `statements per transfer (server, auth included)${of}: ${side.statementsPerTransfer.toFixed(1)}; bare loop: 4`,
    );
    console.log(
      `CPU per transfer${of}: server ${side.serverCpuMs.toFixed(2)} ms, database ${side.databaseCpuMs.toFixed(2)} ms (backends of the bench's database), the bench's client ${median(side.clientCpuMs).toFixed(2)} ms`,
    );
  }
  // What the CPU allows: the server, PostgreSQL and this client share the machine's cores, so transfers/s
  // cannot pass cores / (all CPU per transfer), however the waits are arranged. The bare loop, with a
  // fraction of that CPU per operation, is bound by its round trips instead.
  const bareDatabaseMs = median(bareCpuMs.map((c) => c.database));
  const bareClientMs = median(bareCpuMs.map((c) => c.client));
  const transferTotalMs = main.serverCpuMs + main.databaseCpuMs + median(main.clientCpuMs);
  const cpuBound = (1000 * availableParallelism()) / transferTotalMs;
  console.log(
    `CPU per bare transaction: database ${bareDatabaseMs.toFixed(2)} ms, its client (node-postgres, this process) ${bareClientMs.toFixed(2)} ms, ${(bareDatabaseMs + bareClientMs).toFixed(2)} ms in all against the transfer's ${transferTotalMs.toFixed(2)} ms; on ${availableParallelism()} cores that CPU allows at most ${cpuBound.toFixed(0)} transfers/s, ${((100 * cpuBound) / median(main.results.map((r) => r.bareRate))).toFixed(1)} % of the bare loop's median`,
  );
  for (const side of sides) {
    const shares = side.results.map((r) => r.share);
    const of = sides.length > 1 ? ` (${side.label})` : '';
    console.log(
      `share of the bare loop${of}, ${rounds} rounds: median ${(100 * median(shares)).toFixed(1)} % (${(100 * Math.min(...shares)).toFixed(1)}–${(100 * Math.max(...shares)).toFixed(1)} %), concurrency ${concurrency}, ${seconds} s each`,
    );
  }
  if (ceiling) {
    const shares = ceiling.results.map((r) => r.share);
    console.log(
      `the same statements replayed behind a bare node:http server (the ceiling), ${rounds} rounds: median ${(100 * median(shares)).toFixed(1)} % of the bare loop (${(100 * Math.min(...shares)).toFixed(1)}–${(100 * Math.max(...shares)).toFixed(1)} %), its server's CPU ${median(ceiling.results.map((r) => r.serverCpuMs)).toFixed(2)} ms per transfer; this build's transfers reach ${(100 * median(main.results.map((r, i) => r.transferRate / ceiling.results[i].replayRate))).toFixed(1)} % of the ceiling (median of the rounds)`,
    );
  }
  if (paired.length > 0) {
    console.log(
      `compared build / this build, transfers/s in the same round: median ${median(paired).toFixed(3)} (${paired.map((p) => p.toFixed(3)).join(', ')})`,
    );
  }
  const shares = main.results.map((r) => r.share);
  const middle = main.results.find((r) => r.share === median(shares));
  reportResult({
    bench: 'transfer',
    measure: `transfers/s with ledger rows, PostgreSQL (median of ${rounds})`,
    figure: middle.transferRate,
    unit: '/s',
    baseline: middle.bareRate,
    baselineLabel: 'bare pg UPDATE+INSERT transactions/s',
    goal: '≥ 40 % of the bare loop, nothing lost',
    met: middle.share >= goal && main.intact,
  });
  reportResult({
    bench: 'transfer',
    measure: 'SQL statements per transfer',
    figure: main.statementsPerTransfer,
    unit: 'statements',
    baseline: 4,
    baselineLabel: 'bare loop (BEGIN, UPDATE, INSERT, COMMIT)',
    met: null,
  });
  reportResult({
    bench: 'transfer',
    measure: 'server CPU per transfer',
    figure: main.serverCpuMs,
    unit: 'ms',
    baseline: main.databaseCpuMs,
    baselineLabel: 'database CPU per transfer',
    met: null,
  });
  if (ceiling) {
    const ceilingShares = ceiling.results.map((r) => r.share);
    const ceilingMiddle = ceiling.results.find((r) => r.share === median(ceilingShares));
    reportResult({
      bench: 'transfer',
      measure: `the transfer's own statements replayed behind a bare node:http server, /s (median of ${rounds})`,
      figure: ceilingMiddle.replayRate,
      unit: '/s',
      baseline: ceilingMiddle.bareRate,
      baselineLabel: 'bare pg UPDATE+INSERT transactions/s',
      met: null,
    });
  }
  if (!allIntact) process.exitCode = 1;
} finally {
  await bare?.end();
  for (const stop of stops.reverse()) await stop();
  for (const name of [...databaseNames, bareDatabase]) await admin(`drop database if exists ${name}`);
  rmSync(captureDirectory, { recursive: true, force: true });
}
