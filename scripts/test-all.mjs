// `npm test`: the whole suite from a fresh clone. Installs what is missing, builds the app the browser
// tests drive, then runs unit and integration tests (PGlite, and PostgreSQL too when TEST_DATABASE_URL
// is set) and the end-to-end tests in Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

// How long each stage took, printed at the end (and on a failure), to see where CI's time goes.
const timings = [];
function printTimings() {
  console.log('\nStage timings:');
  for (const { label, seconds } of timings) console.log(`  ${seconds.toFixed(0).padStart(5)} s  ${label}`);
}

function run(command, args, env = {}) {
  const label = [command, ...args].join(' ');
  console.log(`\n> ${label}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push({ label, seconds: (performance.now() - started) / 1000 });
  if (result.status !== 0) {
    printTimings();
    process.exit(result.status ?? 1);
  }
}

if (!existsSync('node_modules/.bin/vitest')) run('npm', ['ci', '--no-audit', '--no-fund']);
ensureChromium();
run('npm', ['run', 'build']);

const postgresUrl = process.env.TEST_DATABASE_URL;
// Every project on the embedded database first, so both engines are always covered.
run('npx', ['vitest', 'run'], { TEST_DATABASE_URL: '' });
if (postgresUrl) run('npx', ['vitest', 'run', '--project', 'server'], { TEST_DATABASE_URL: postgresUrl });
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
printTimings();
