// What a phone downloads to show /login the first time (issue 13 §1).
//
// A Haversack server runs in its own process (the built app, PGlite in a temp dir). Debian's Chromium
// opens /login with an empty cache, and the DevTools protocol counts, per resource type, the bytes that
// crossed the wire (encodedDataLength: compressed body and headers) and the bytes the page got after
// decoding. The decoded size is the baseline of the same run: the ratio says what compression saves,
// and the transferred sizes are the figures the issue sets goals for (≤ 150 KB JS, ≤ 60 KB CSS).
// Chromium counts 127.0.0.1 as a secure origin and asks it for brotli too, so "transferred" is brotli
// bodies plus headers; the gzip column sums the .gz copies that a browser asking for gzip only receives.
//
// Run: npm run build && node bench/first-load.bench.mjs [path ...]   (default path: /login)
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import { reportResult } from './lib/bench-result.mjs';
import { startServer } from './lib/server.mjs';

const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/login'];

const distDir = path.resolve('apps/web/dist');

/** The body a browser asking for `encoding` gets for a file: its .br or .gz copy, else what came. */
function copySize(urlPath, encoding, transferredBytes) {
  const copy = urlPath ? path.join(distDir, `${urlPath}.${encoding}`) : '';
  return copy && existsSync(copy) ? statSync(copy).size : transferredBytes;
}

async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map();
  const urls = new Map();
  const decoded = new Map();
  const transferred = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    types.set(requestId, type);
    urls.set(requestId, new URL(response.url).pathname);
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) =>
    decoded.set(requestId, (decoded.get(requestId) ?? 0) + dataLength),
  );
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) =>
    transferred.set(requestId, encodedDataLength),
  );
  await page.goto(url, { waitUntil: 'networkidle' });
  await context.close();
  const totals = {};
  for (const [requestId, type] of types) {
    totals[type] ??= { requests: 0, transferred: 0, decoded: 0, brotli: 0, gzip: 0 };
    const row = totals[type];
    row.requests += 1;
    row.brotli += copySize(urls.get(requestId), 'br', transferred.get(requestId) ?? 0);
    row.gzip += copySize(urls.get(requestId), 'gz', transferred.get(requestId) ?? 0);
    row.transferred += transferred.get(requestId) ?? 0;
    row.decoded += decoded.get(requestId) ?? 0;
  }
  return totals;
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
// The browser first: a server started before a launch that fails would be left running (Playwright's browser
// ends with this process, the server does not).
const browser = await chromium.launch({ executablePath: ensureChromium(), args: ['--no-sandbox'] });
const server = await startServer();
try {
  for (const pagePath of paths) {
    const totals = await measure(browser, `${server.base}${pagePath}`);
    console.log(`\n### ${pagePath}\n`);
    console.log(
      '| type | requests | transferred (KB) | decoded (KB) | transferred / decoded | brotli bodies (KB) | gzip bodies (KB) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [type, row] of Object.entries(totals).sort()) {
      const ratio = row.decoded > 0 ? (row.transferred / row.decoded).toFixed(2) : '–';
      console.log(
        `| ${type} | ${row.requests} | ${kb(row.transferred)} | ${kb(row.decoded)} | ${ratio} | ${kb(row.brotli)} | ${kb(row.gzip)} |`,
      );
    }
    for (const [type, label, goalKb] of [
      ['Script', 'JS', 150],
      ['Stylesheet', 'CSS', 60],
    ]) {
      const row = totals[type] ?? { transferred: 0, decoded: 0, gzip: 0 };
      // The goals are for /login; other pages are reported without one.
      const hasGoal = pagePath === '/login';
      reportResult({
        bench: 'first-load',
        measure: `${pagePath} ${label} transferred (brotli, as Chromium takes it)`,
        figure: row.transferred / 1000,
        unit: 'KB',
        baseline: row.decoded / 1000,
        baselineLabel: 'decoded',
        goal: hasGoal ? `≤ ${goalKb} KB` : '',
        met: hasGoal ? row.transferred / 1000 <= goalKb : null,
      });
      // The same files for a browser that asks for gzip only (bodies, without headers).
      reportResult({
        bench: 'first-load',
        measure: `${pagePath} ${label} gzip bodies (a gzip-only browser)`,
        figure: row.gzip / 1000,
        unit: 'KB',
        baseline: row.decoded / 1000,
        baselineLabel: 'decoded',
        goal: hasGoal ? `≤ ${goalKb} KB` : '',
        met: hasGoal ? row.gzip / 1000 <= goalKb : null,
      });
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
