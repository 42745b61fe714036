// A container with 5,000 items in the browser (issue 13 §5).
//
// The built server runs on a fresh PGlite; the API adds one stack "Item 0001" to a container and leaves
// another empty, then (the server stopped) SQL copies that stack into 5,000 named "Item 0001" … "Item 5000"
// (the list is sorted by name), and the server starts again on the same directory. Debian's
// Chromium signs in through /login and opens both container pages, and the bench reports, each against a
// baseline of the same run:
// - the DOM nodes of the big container's page, at the top and at its end, against the empty container's;
// - the time to the first tiles against the time the empty container takes to say "No items found.";
// - that scrolling the list (mouse wheel; on a phone, the list's own scrolling) reaches "Item 5000", and how long it takes;
// - the time from a keystroke in the search box to the list showing matching items (the loaded ones are
//   narrowed at once) and from the last keystroke to the server's full answer, against a keystroke in the
//   same search box on the empty container (where React only echoes the character).
//
// Run: npm run build && node bench/big-container.bench.mjs [--items 5000] [--rounds 3] [--screenshots DIR]
//        [--phone]  (a 375 × 812 touch phone instead of a 1280 × 800 desktop; the list layout)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import { reportResult } from './lib/bench-result.mjs';
import { api, startServer } from './lib/server.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const itemCount = Number(argument('items', 5000));
const rounds = Number(argument('rounds', 3));
const screenshotDir = argument('screenshots', null);
const phone = process.argv.includes('--phone');
const device = phone
  ? { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true }
  : { viewport: { width: 1280, height: 800 } };
const deviceLabel = phone ? 'a phone at 375 × 812' : 'Chromium at 1280 × 800';
const nameOf = (n) => `Item ${String(n).padStart(4, '0')}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function seed(base) {
  const password = 'Benchmark1';
  const email = 'hoarder@example.com';
  const user = await api(base, 'POST', '/auth/register', null, {
    user: { email, username: 'hoarder', password, password_confirmation: password },
  });
  // Thousands of additions are more than the free plan's actions allow.
  await api(base, 'POST', '/subscription/checkout', user.token, { tier_id: 'tier_3' });
  const character = await api(base, 'POST', '/characters', user.token, { character: { name: 'Hoarder' } });
  const hoard = await api(base, 'POST', '/containers', user.token, {
    container: { name: 'Hoard', character_id: character.id, max_weight: null, max_slots: null },
  });
  const empty = await api(base, 'POST', '/containers', user.token, {
    container: { name: 'Empty chest', character_id: character.id, max_weight: null, max_slots: null },
  });
  const [torch] = await api(base, 'GET', '/search/items?search=Torch&per_page=5', user.token);
  // The first stack through the API, the way the app adds one; the rest as copies of it in SQL below.
  await api(base, 'POST', '/item_instances', user.token, {
    item_template_id: torch.id,
    container_id: hoard.id,
    quantity: 1,
    instance_data: { name_override: nameOf(1) },
  });
  return { email, password, hoard, empty };
}

const domNodes = (page) => page.evaluate(() => document.getElementsByTagName('*').length);
const tilesDrawn = (page) => page.getByTestId('item-tile').count();

/** Milliseconds from navigation start until `locator` is visible. */
async function timeToVisible(page, url, locator) {
  await page.goto(url, { waitUntil: 'commit' });
  await locator.first().waitFor({ state: 'visible', timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

/**
 * Arms a timer in the page: from the next keydown to the first animation frame where `condition` (a
 * function's source, given the search box's value) holds. Resolve it with `readKeyTimer`.
 */
const armKeyTimer = (page, condition) =>
  page.evaluate((source) => {
    const holds = new Function(`return (${source})`)();
    window.__keyTimer = new Promise((resolve) => {
      window.addEventListener(
        'keydown',
        () => {
          const start = performance.now();
          const tick = () => {
            const value = document.querySelector('input[placeholder="Search items..."]')?.value ?? '';
            if (holds(value)) resolve(performance.now() - start);
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        },
        { capture: true, once: true },
      );
    });
  }, condition.toString());
const readKeyTimer = (page) => page.evaluate(() => window.__keyTimer);

/** The tiles drawn all show the search text (or none is drawn: the list says it is loading or empty). */
const tilesMatch = (value) =>
  value.length > 0 &&
  [...document.querySelectorAll('[data-testid="item-tile"]')].every((tile) =>
    tile.textContent.toLowerCase().includes(value.trim().toLowerCase()),
  );
/** The server's answer is drawn: exactly the one item named "Item 4999". */
const serverAnswered = () => {
  const tiles = [...document.querySelectorAll('[data-testid="item-tile"]')];
  return tiles.length === 1 && tiles[0].textContent.includes('Item 4999');
};
/** The search box shows what was typed (the baseline: React echoing a keystroke). */
const echoed = (value) =>
  document.querySelector('input[placeholder="Search items..."]')?.value === value && value.length > 0;

async function openSearch(page) {
  await page.keyboard.press('Control+f');
  await page.getByPlaceholder('Search items...').first().waitFor();
}

async function closeSearch(page) {
  await page.keyboard.press('Escape');
  await page.getByPlaceholder('Search items...').first().waitFor({ state: 'hidden' });
}

/** Types `text` key by key, a person's pace apart, timing each key until `condition` holds. */
async function typeTimed(page, text, condition) {
  const times = [];
  for (const key of text) {
    await armKeyTimer(page, condition);
    await page.keyboard.press(key);
    times.push(await readKeyTimer(page));
    await page.waitForTimeout(250);
  }
  return times;
}

/** Scrolls the list with the mouse wheel until `Item N` (the last) is drawn; returns ms and the most DOM nodes. */
async function scrollToEnd(page) {
  const list = page.getByTestId('item-list').first();
  const box = await list.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  const last = page.getByRole('button', { name: `${nameOf(itemCount)}, quantity 1` });
  const started = performance.now();
  let most = 0;
  let mostTiles = 0;
  for (let i = 0; i < 4000 && !(await last.isVisible()); i++) {
    // A phone has no wheel: its list is scrolled as a finger's fling would, 2,000 px at a time.
    if (phone) await list.evaluate((element) => element.scrollBy(0, 2000));
    else await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(16);
    if (i % 20 === 0) {
      most = Math.max(most, await domNodes(page));
      mostTiles = Math.max(mostTiles, await tilesDrawn(page));
    }
  }
  const reached = await last.isVisible();
  return {
    reached,
    ms: performance.now() - started,
    most: Math.max(most, await domNodes(page)),
    mostTiles: Math.max(mostTiles, await tilesDrawn(page)),
  };
}

/** Copies the one stack the API added into `itemCount` stacks, on the stopped server's PGlite. */
async function copyStacks(dataDir, containerId) {
  const started = performance.now();
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  await db.query(
    `insert into item_instances (container_id, item_template_id, quantity, instance_data, notes, is_identified)
     select first.container_id, first.item_template_id, 1,
            jsonb_build_object('name_override', 'Item ' || lpad(n::text, 4, '0')), '', true
       from (select * from item_instances where container_id = $1 limit 1) first,
            generate_series(2, $2::int) n`,
    [containerId, itemCount],
  );
  const { rows } = await db.query('select count(*)::int as n from item_instances where container_id = $1', [
    containerId,
  ]);
  await db.close();
  if (rows[0].n !== itemCount) throw new Error(`the container holds ${rows[0].n} stacks, not ${itemCount}`);
  console.log(`copied to ${itemCount} stacks in SQL in ${Math.round(performance.now() - started)} ms`);
}

// The browser first: a server started before a launch that fails would be left running (Playwright's browser
// ends with this process, the server does not).
const browser = await chromium.launch({ executablePath: ensureChromium(), args: ['--no-sandbox'] });
const env = { RATE_LIMIT_SCALE: '100' };
const seeding = await startServer(env);
const { email, password, hoard, empty } = await seed(seeding.base);
await seeding.stop({ keep: true });
await copyStacks(seeding.dataDir, hoard.id);
const server = await startServer(env, seeding.dataDir);
try {
  const samples = { emptyMs: [], firstTilesMs: [], emptyNodes: [], topNodes: [], endNodes: [], scrollMs: [] };
  const keys = { echo: [], narrowed: [], answered: [] };
  let reachedAll = true;
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext(device);
    const page = await context.newPage();
    await page.goto(`${server.base}/login`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/dashboard$/);

    // The baseline page: the empty container, and a keystroke that only echoes.
    samples.emptyMs.push(
      await timeToVisible(page, `${server.base}/containers/${empty.id}`, page.getByText('No items found.')),
    );
    await page.waitForLoadState('networkidle');
    samples.emptyNodes.push(await domNodes(page));
    await openSearch(page);
    keys.echo.push(...(await typeTimed(page, '4999', echoed)));
    await closeSearch(page);

    // The big container.
    samples.firstTilesMs.push(
      await timeToVisible(page, `${server.base}/containers/${hoard.id}`, page.getByTestId('item-tile')),
    );
    await page.waitForLoadState('networkidle');
    samples.topNodes.push(await domNodes(page));
    samples.topTiles = await tilesDrawn(page);
    if (screenshotDir && round === 0) {
      mkdirSync(screenshotDir, { recursive: true });
      await page.screenshot({
        path: path.join(screenshotDir, phone ? 'big-container-list-375.png' : 'big-container-grid-1280.png'),
      });
    }
    const scrolled = await scrollToEnd(page);
    reachedAll &&= scrolled.reached;
    samples.scrollMs.push(scrolled.ms);
    samples.endNodes.push(scrolled.most);
    samples.mostTiles = Math.max(samples.mostTiles ?? 0, scrolled.mostTiles);

    // Search, from the top of the list again.
    await page.reload();
    await page.getByTestId('item-tile').first().waitFor();
    await openSearch(page);
    keys.narrowed.push(...(await typeTimed(page, '499', tilesMatch)));
    await armKeyTimer(page, serverAnswered);
    await page.keyboard.press('9');
    keys.answered.push(await readKeyTimer(page));
    await context.close();
  }

  const emptyNodes = median(samples.emptyNodes);
  const endNodes = Math.max(...samples.endNodes);
  console.log(
    `\n${itemCount} items, ${rounds} rounds, ${deviceLabel}, ${samples.topTiles} tiles drawn at the top\n`,
  );
  console.log('| measure | median | baseline (median) | ratio |');
  console.log('|---|---:|---:|---:|');
  const rows = [
    ['DOM nodes, top of the list', median(samples.topNodes), emptyNodes, 'empty container'],
    ['DOM nodes, most while scrolling to the end', endNodes, emptyNodes, 'empty container'],
    ['ms to the first tiles', median(samples.firstTilesMs), median(samples.emptyMs), 'empty container'],
    ['ms to scroll to the last item', median(samples.scrollMs), median(samples.emptyMs), 'empty container'],
    ['ms from a keystroke to matching tiles', median(keys.narrowed), median(keys.echo), 'echo'],
    ['ms from the last keystroke to the server answer', median(keys.answered), median(keys.echo), 'echo'],
  ];
  for (const [name, figure, baseline, label] of rows)
    console.log(
      `| ${name} | ${figure.toFixed(0)} | ${label} ${baseline.toFixed(0)} | ${(figure / baseline).toFixed(2)} |`,
    );
  console.log(
    `\nkeystroke samples (ms): echo ${keys.echo.map((t) => t.toFixed(0)).join(' ')}; narrowed ${keys.narrowed.map((t) => t.toFixed(0)).join(' ')}; answered ${keys.answered.map((t) => t.toFixed(0)).join(' ')}`,
  );

  const bench = 'big-container';
  const on = phone ? ', phone' : '';
  // Virtualised: the tiles drawn do not grow with the items, only the rows in view and a few around.
  reportResult({
    bench,
    measure: `tiles in the DOM (most, scrolling to the end)${on}`,
    figure: samples.mostTiles,
    unit: 'tiles',
    baseline: itemCount,
    baselineLabel: 'items in the container',
    goal: '≤ 2 % of the items',
    met: samples.mostTiles <= 0.02 * itemCount,
  });
  reportResult({
    bench,
    measure: `DOM nodes of the page (most, scrolling to the end)${on}`,
    figure: endNodes,
    unit: 'nodes',
    baseline: emptyNodes,
    baselineLabel: 'empty container page',
  });
  reportResult({
    bench,
    measure: `scrolling reaches the last item${on}`,
    figure: reachedAll ? itemCount : 0,
    unit: 'items',
    baseline: itemCount,
    baselineLabel: 'items in the container',
    goal: `reaches item ${itemCount}`,
    met: reachedAll,
  });
  reportResult({
    bench,
    measure: `time to the first tiles${on}`,
    figure: median(samples.firstTilesMs),
    unit: 'ms',
    baseline: median(samples.emptyMs),
    baselineLabel: 'empty container says "No items found."',
    goal: '≤ 1.5 × empty container',
    met: median(samples.firstTilesMs) <= 1.5 * median(samples.emptyMs),
  });
  reportResult({
    bench,
    measure: `time to scroll to the last item${on}`,
    figure: median(samples.scrollMs),
    unit: 'ms',
    baseline: median(samples.emptyMs),
    baselineLabel: 'empty container page load',
  });
  reportResult({
    bench,
    measure: `keystroke in search → matching tiles drawn (median of ${keys.narrowed.length})${on}`,
    figure: median(keys.narrowed),
    unit: 'ms',
    baseline: median(keys.echo),
    baselineLabel: 'keystroke echoed in the same box',
    goal: '≤ 100 ms',
    met: median(keys.narrowed) <= 100,
  });
  reportResult({
    bench,
    measure: `keystroke in search → matching tiles drawn (slowest of ${keys.narrowed.length})${on}`,
    figure: Math.max(...keys.narrowed),
    unit: 'ms',
    baseline: Math.max(...keys.echo),
    baselineLabel: 'slowest keystroke echoed',
    goal: '≤ 100 ms',
    met: Math.max(...keys.narrowed) <= 100,
  });
  reportResult({
    bench,
    measure: `last keystroke → server's full answer drawn (median)${on}`,
    figure: median(keys.answered),
    unit: 'ms',
    baseline: median(keys.echo),
    baselineLabel: 'keystroke echoed in the same box',
    goal: '≤ 300 ms',
    met: median(keys.answered) <= 300,
  });
} finally {
  await browser.close();
  await server.stop();
}
