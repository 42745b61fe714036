// `npm run bench`: every benchmark of this folder, one after the other, against the built app (run
// `npm run build` first). Each prints its own Markdown table of figures and ratios to its baseline.
import { spawnSync } from 'node:child_process';

const benches = [
  ['What /login downloads', ['bench/first-load.bench.mjs', '/login', '/home']],
  ['Start on the embedded database', ['bench/start.bench.mjs']],
  [
    'search/items on 10,000 templates',
    ['--import', 'tsx', '--conditions=development', 'bench/search-items.bench.mjs'],
  ],
  ['Real-time fan-out', ['bench/cable-broadcast.bench.mjs']],
];
let failed = 0;
for (const [title, args] of benches) {
  console.log(`\n## ${title}\n`);
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
