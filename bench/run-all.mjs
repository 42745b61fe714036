// `npm run bench`: every benchmark of this folder, one after the other, against the built app (run
// `npm run build` first). Each prints its own tables and one `BENCH_RESULT {json}` line per figure
// (bench/lib/bench-result.mjs); at the end this prints ONE table of every figure, its baseline, the
// ratio, the goal and whether it was met (issue 13 §7).
//
// Run: npm run bench [-- --only first-load,big-container]
import { spawn } from 'node:child_process';
import { parseResults } from './lib/bench-result.mjs';

const benches = [
  ['first-load', 'What /login downloads', ['bench/first-load.bench.mjs', '/login', '/home']],
  ['big-container', 'A container with 5,000 items', ['bench/big-container.bench.mjs']],
  ['lighthouse', 'Lighthouse mobile performance', ['bench/lighthouse.bench.mjs']],
  ['start', 'Start on the embedded database', ['bench/start.bench.mjs']],
  [
    'search-items',
    'search/items on 10,000 templates',
    ['--import', 'tsx', '--conditions=development', 'bench/search-items.bench.mjs'],
  ],
  ['cable-broadcast', 'Real-time fan-out', ['bench/cable-broadcast.bench.mjs']],
  ['transfer', 'Item transfers on PostgreSQL', ['bench/transfer.bench.mjs']],
  ['container-read', 'Container read, 200 items, on PostgreSQL', ['bench/container-read.bench.mjs']],
  ['long-session', 'A long session in one tab', ['bench/long-session.bench.mjs']],
];

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? null : new Set(process.argv[onlyAt + 1].split(','));

/** Runs one bench, echoing its output as it comes, and resolves with its exit code and output. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

const results = [];
const failedBenches = [];
for (const [id, title, args] of benches) {
  if (only && !only.has(id)) continue;
  console.log(`\n## ${title}\n`);
  const { code, output } = await run(args);
  const records = parseResults(output);
  results.push(...records);
  if (code !== 0 || records.length === 0)
    failedBenches.push(`${id} (exit ${code}, ${records.length} results)`);
}

const cell = (value) => (value === null || value === undefined ? '–' : String(value));
const metCell = (met) => (met === true ? 'yes' : met === false ? 'NO' : '–');
console.log('\n## All figures\n');
console.log('| bench | measure | figure | baseline | ratio | goal | met? |');
console.log('|---|---|---:|---|---:|---|---|');
for (const r of results) {
  console.log(
    `| ${r.bench} | ${r.measure} | ${cell(r.figure)} ${r.unit} | ${r.baselineLabel}: ${cell(r.baseline)} ${r.unit} | ${cell(r.ratio)} | ${cell(r.goal)} | ${metCell(r.met)} |`,
  );
}
const withGoal = results.filter((r) => r.met !== null);
console.log(
  `\n${withGoal.filter((r) => r.met).length} of ${withGoal.length} goals met.${failedBenches.length > 0 ? ` Failed: ${failedBenches.join(', ')}.` : ''}`,
);
process.exit(failedBenches.length > 0 ? 1 : 0);
