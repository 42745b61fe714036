// A ceiling for bench/transfer.bench.mjs: the statements of real transfers, captured from Haversack's
// server (bench/lib/count-queries.mjs), replayed behind the thinnest HTTP server node:http makes, with
// none of Haversack's JavaScript: no Fastify, no authentication, no rules, no answer built from the rows.
//
// Each worker's transfer is five statements in two round trips, sent as Haversack sends them
// (apps/server/src/db/postgres-pipeline.ts): BEGIN with its SET LOCAL, the containers' lock and the stack's
// lock in one write; the write with its ledger row and the COMMIT in a second. POST /<worker> runs that
// worker's statements once with the same parameters and answers a few bytes of JSON. The write sets the
// stacks to the quantities captured, so the replayed containers stop matching their ledger: the bench
// replays on containers of their own, which its check for lost gold leaves out.
//
// Run by the bench: node transfer-replay-server.mjs <statements.json>, with DATABASE_URL; prints its port
// on stdout when ready, and `CPU_US <µs>` (its CPU time so far) on SIGWINCH.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

// The server's own node-postgres, as count-queries.mjs takes it.
const require = createRequire(path.resolve('apps/server/package.json'));
const pg = require('pg');

/** Per worker: [begin, lock the containers, lock the stack, write with the ledger row, commit]. */
const transfers = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// Haversack's pool settings (apps/server/src/db/postgres.ts).
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  idleTimeoutMillis: 5 * 60_000,
});

const send = (client, { text, name, values, rowMode }) => client.query({ text, name, values, rowMode });

/** Statements sent together share one write, and their answers one round trip (pipeline mode). */
async function together(client, statements) {
  const stream = client.connection.stream;
  stream.cork();
  let sent;
  try {
    sent = statements.map((statement) => send(client, statement));
  } finally {
    stream.uncork();
  }
  return Promise.all(sent);
}

async function replay(worker) {
  const [begin, lockContainers, lockStack, write, commit] = transfers[worker];
  const client = await pool.connect();
  client.pipeline = true;
  try {
    await together(client, [begin, lockContainers, lockStack]);
    const [, committed] = await together(client, [write, commit]);
    if (committed.command !== 'COMMIT') throw new Error('the replayed transfer was rolled back');
  } finally {
    client.pipeline = false;
    client.release();
  }
}

const server = createServer((request, response) => {
  const worker = Number(request.url.slice(1));
  request.resume();
  request.on('end', () => {
    replay(worker).then(
      () => {
        const body = '{"status":"success"}';
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        response.end(body);
      },
      (error) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error?.message ?? error));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGWINCH', () => {
  const cpu = process.cpuUsage();
  console.log(`CPU_US ${cpu.user + cpu.system}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
