// Lighthouse's mobile performance score (issue 13 §1) for /login and an inventory page, and for the landing
// page (/home, no goal), with Debian's Chromium, headless, no network needed. The baseline of the same run is a bare HTML page served by a bare
// Node server, scored the same way: the ratio says how far a page is from "nothing to load".
//
// The inventory page needs a session: Playwright signs in once in a Chromium profile directory, and
// Lighthouse opens that profile without clearing its storage.
//
// Run: npm run build && node bench/lighthouse.bench.mjs [--report DIR] [--only login|inventory|home]
// --report keeps Lighthouse's JSON reports (diagnostics such as mainthread-work-breakdown, bootup-time and
// long-tasks) in DIR; --only scores one of the pages (the bare baseline is always scored).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import { reportResult } from './lib/bench-result.mjs';
import { api, freePort, startServer } from './lib/server.mjs';

// Debian's Chromium, installed as the tests install it (scripts/ensure-chromium.mjs) when it is missing.
const chromePath = process.env.CHROME_PATH ?? ensureChromium();
const work = mkdtempSync(path.join(os.tmpdir(), 'haversack-lighthouse-'));
const argument = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? null : process.argv[at + 1];
};
const reportDir = argument('report');
const only = argument('only');
const wanted = (page) => only === null || only === page;

/** Runs the Lighthouse CLI (mobile preset, performance only) and returns its score (0–100) and metrics. */
async function lighthouse(url, name, profileDir) {
  const output = path.join(work, `${name}.json`);
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu'];
  if (profileDir) flags.push(`--user-data-dir=${profileDir}`);
  // Lighthouse sometimes fails to record Chromium's trace ("NO_NAVSTART … Please run Lighthouse again"):
  // a failed run is run again, up to 3 times in all. A run that ends gives its score, whatever it is.
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    // Asynchronous: the bare baseline page is served from this very process.
    const child = spawn(
      process.execPath,
      [
        'node_modules/lighthouse/cli/index.js',
        url,
        '--only-categories=performance',
        '--output=json',
        `--output-path=${output}`,
        `--chrome-flags=${flags.join(' ')}`,
        ...(profileDir ? ['--disable-storage-reset'] : []),
        '--quiet',
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, stdio: 'inherit' },
    );
    const timer = setTimeout(() => child.kill('SIGTERM'), 240_000);
    const status = await new Promise((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    if (status === 0) break;
    if (attempt === attempts) throw new Error(`lighthouse ${url} exited ${status}, ${attempts} times`);
    console.log(`lighthouse ${url} exited ${status} (attempt ${attempt} of ${attempts}): running it again`);
  }
  if (reportDir) {
    mkdirSync(reportDir, { recursive: true });
    copyFileSync(output, path.join(reportDir, `${name}.json`));
  }
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const metric = (id) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    url: report.finalDisplayedUrl,
  };
}

async function bareServer() {
  const port = await freePort();
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare</title></head><body><main><h1>Sign in</h1><p>A bare page.</p></main></body></html>';
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

const bare = await bareServer();
const server = await startServer({ RATE_LIMIT_SCALE: '100' });
try {
  // A player with a character whose inventory holds a few things.
  const password = 'Benchmark1';
  const email = 'lighthouse@example.com';
  const user = await api(server.base, 'POST', '/auth/register', null, {
    user: { email, username: 'lighthouse', password, password_confirmation: password },
  });
  const character = await api(server.base, 'POST', '/characters', user.token, {
    character: { name: 'Scout' },
  });
  for (const name of ['Torch', 'Rope, hempen (50 feet)', 'Longsword', 'Rations (1 day)']) {
    const [template] = await api(
      server.base,
      'GET',
      `/search/items?search=${encodeURIComponent(name)}`,
      user.token,
    );
    if (template)
      await api(server.base, 'POST', '/item_instances', user.token, {
        item_template_id: template.id,
        container_id: character.primary_container_id,
        quantity: 1,
      });
  }
  const profile = path.join(work, 'profile');
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromePath,
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage();
  await page.goto(`${server.base}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/dashboard$/);
  await browser.close();

  const baseline = await lighthouse(bare.url, 'bare');
  const skipped = { score: Number.NaN, fcp: Number.NaN, lcp: Number.NaN, tbt: Number.NaN };
  const login = wanted('login') ? await lighthouse(`${server.base}/login`, 'login') : skipped;
  const inventory = wanted('inventory')
    ? await lighthouse(`${server.base}/containers/${character.primary_container_id}`, 'inventory', profile)
    : skipped;
  if (wanted('inventory') && !inventory.url.includes('/containers/'))
    throw new Error(`the inventory page was not reached (ended at ${inventory.url})`);
  // The landing page as a visitor first opens it (signed out, a new profile).
  const home = wanted('home') ? await lighthouse(`${server.base}/home`, 'home') : skipped;

  console.log('\n| page | score | FCP ms | LCP ms | TBT ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, r] of [
    ['bare HTML page (baseline)', baseline],
    ['/login', login],
    ['inventory page', inventory],
    ['/home (landing page)', home],
  ])
    console.log(`| ${name} | ${r.score} | ${r.fcp.toFixed(0)} | ${r.lcp.toFixed(0)} | ${r.tbt.toFixed(0)} |`);

  for (const [measure, result, goal] of [
    ['Lighthouse mobile performance, /login', login, 95],
    ['Lighthouse mobile performance, inventory page', inventory, 85],
    ['Lighthouse mobile performance, /home (landing page)', home, null],
  ]) {
    if (Number.isNaN(result.score)) continue;
    reportResult({
      bench: 'lighthouse',
      measure,
      figure: result.score,
      unit: 'points',
      baseline: baseline.score,
      baselineLabel: 'bare HTML page',
      goal: goal === null ? '' : `≥ ${goal}`,
      met: goal === null ? null : result.score >= goal,
    });
  }
} finally {
  await server.stop();
  await bare.close();
  rmSync(work, { recursive: true, force: true });
}
