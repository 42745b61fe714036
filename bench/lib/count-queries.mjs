// Preloaded into a bench's server (`node --import ./bench/lib/count-queries.mjs ...`): counts every
// statement the server sends through node-postgres, and prints `QUERY_COUNT <n>` on SIGWINCH, so that a
// bench can tell how many statements (and how much CPU) one request costs. No effect on what the statements do.
//
// With BENCH_CAPTURE_FILE set, SIGUSR2 starts writing each statement the server sends (its text, name,
// parameters and row mode, one JSON line each) to that file, and the next SIGUSR2 stops: the transfer
// bench replays a transfer's own statements behind a bare HTTP server (bench/lib/transfer-replay-server.mjs).
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.resolve('apps/server/package.json'));
const pg = require('pg');
let statements = 0;
/** BENCH_LOG_STATEMENTS=1 also prints each statement on stderr (to see where a request spends). */
const logging = process.env.BENCH_LOG_STATEMENTS === '1';
const query = pg.Client.prototype.query;
const captureFile = process.env.BENCH_CAPTURE_FILE;
let capturing = false;
if (captureFile) {
  process.on('SIGUSR2', () => {
    capturing = !capturing;
    console.log(`CAPTURING ${capturing}`);
  });
}
/** A query's config as node-postgres takes it, in JSON (a date becomes its ISO text, the same instant). */
function captured(args) {
  const config = typeof args[0] === 'string' ? { text: args[0], values: args[1] } : args[0];
  const { text, name, values, rowMode } = config ?? {};
  return JSON.stringify({ text, name, values: Array.isArray(values) ? values : undefined, rowMode });
}
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  if (capturing) appendFileSync(captureFile, `${captured(args)}\n`);
  if (logging) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    console.error(`SQL ${String(text).replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  return query.apply(this, args);
};
// The process's CPU time so far (user + system, µs) on the same line, for a bench's CPU per request.
process.on('SIGWINCH', () => {
  const cpu = process.cpuUsage();
  console.log(`QUERY_COUNT ${statements} CPU_US ${cpu.user + cpu.system}`);
});
