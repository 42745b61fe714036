// A four-hour game night in one tab: does the page stay small while the party keeps changing things?
//
// The built server runs on a fresh PGlite (its own process). Through the API: a GM, two players in the GM's
// party, the first player's character with a Backpack and a Sack (a Rope and a stack of gold), the second
// player's character, gold in the Party Stash. Debian's Chromium (375 × 812, a phone) opens the first
// player's Backpack page, and in a second tab of its own the GM's party page. From Node, API-only clients
// with sessions of their own (the player signed in a second time, and the GM) make N changes that reach
// both pages by the cable, in turn: the player moves the Rope to the Sack, and back; the player's gold is
// edited; the GM gives 1 gp from the stash to the player's character. At checkpoints (50, 200, 500, 1000
// changes) each page is let settle (the Backpack shows the gold the server holds), a full GC is forced
// over the DevTools protocol (HeapProfiler.collectGarbage), and Performance.getMetrics gives
// JSHeapUsedSize, Nodes and JSEventListeners, with the TanStack Query cache's entries (read through
// React's fibers) and the toasts in the page. The figure is each page's growth per 1,000 changes against
// its own first checkpoint in the same run: no timed assertion.
//
// Then the player's socket is closed from the page 20 times (each time the app reconnects), and one more
// change of each kind must reach the player's page once: one subscribe per channel on the new socket, one
// frame per broadcast, one refetch of the Backpack's items, one toast for the gift.
//
// The heap the page reports includes what the DevTools connection itself keeps: Playwright follows the
// page's network, and Chromium then holds a record of every response (blink::NetworkResourcesData, some
// 2 KB a change here), which a player's browser does not, and the code the engine compiles as it warms
// up. So each checkpoint also takes a heap snapshot and sums the page's own JavaScript values in it
// (objects, closures, arrays, strings, numbers; not the browser's native records, compiled code or the
// engine's hidden structures): "own JS". `--snapshots` lists what grew by kind between the player's first
// and last checkpoints.
//
// Run: npm run build && node bench/long-session.bench.mjs [--changes 1000] [--reconnects 20] [--snapshots]
import { chromium } from 'playwright-core';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import { reportResult } from './lib/bench-result.mjs';
import { api, startServer } from './lib/server.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const changeCount = Number(argument('changes', 1000));
// With --snapshots, the kinds of object that grew on the player's page between its first and last
// checkpoints are listed: where a growth comes from.
const snapshots = process.argv.includes('--snapshots');
const reconnectCount = Number(argument('reconnects', 20));
const checkpoints = [50, 200, 500, 1000, 2000, 5000].filter((n) => n <= changeCount);
if (!checkpoints.includes(changeCount)) checkpoints.push(changeCount);
const password = 'Benchmark1';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function register(base, username) {
  const email = `${username}@example.com`;
  const session = await api(base, 'POST', '/auth/register', null, {
    user: { email, username, password, password_confirmation: password },
  });
  // A thousand changes are more than the free plan's actions allow.
  await api(base, 'POST', '/subscription/checkout', session.token, { tier_id: 'tier_3' });
  return { ...session, email };
}

/** A second session of the same account: the API client, apart from the browser's session. */
const signIn = (base, account) => api(base, 'POST', '/auth/login', null, { email: account.email, password });

async function template(base, token, name) {
  const found = await api(base, 'GET', `/search/items?search=${encodeURIComponent(name)}&per_page=5`, token);
  const exact = found.find((t) => t.name === name);
  if (!exact) throw new Error(`no item template named ${name}`);
  return exact;
}

async function seed(base) {
  const gm = await register(base, 'night_gm');
  const player = await register(base, 'night_pip');
  const other = await register(base, 'night_brom');
  const party = await api(base, 'POST', '/parties', gm.token, { party: { name: 'The Long Night' } });
  const [stash] = await api(base, 'GET', `/parties/${party.id}/containers`, gm.token);
  await api(base, 'POST', '/parties/join', player.token, {
    join_code: party.join_code,
    role_request: 'player',
  });
  await api(base, 'POST', '/parties/join', other.token, {
    join_code: party.join_code,
    role_request: 'player',
  });
  const character = await api(base, 'POST', '/characters', player.token, {
    character: { name: 'Pip Underbough', party_id: party.id },
  });
  await api(base, 'POST', '/characters', other.token, {
    character: { name: 'Brom Stone', party_id: party.id },
  });
  const backpack = character.primary_container_id;
  const sack = await api(base, 'POST', '/containers', player.token, {
    container: { name: 'Sack', character_id: character.id, max_weight: null, max_slots: null },
  });
  const rope = await template(base, player.token, 'Rope (50 feet)').catch(() =>
    template(base, player.token, 'Torch'),
  );
  const gold = await template(base, player.token, 'Gold piece');
  const [ropeStack] = await api(base, 'POST', '/item_instances', player.token, {
    item_template_id: rope.id,
    container_id: backpack,
    quantity: 1,
  });
  const [goldStack] = await api(base, 'POST', '/item_instances', player.token, {
    item_template_id: gold.id,
    container_id: backpack,
    quantity: 10,
  });
  const [stashGold] = await api(base, 'POST', '/item_instances', gm.token, {
    item_template_id: gold.id,
    container_id: stash.id,
    quantity: 100_000,
  });
  return {
    gm,
    player,
    party,
    character,
    stash: stash.id,
    backpack,
    sack: sack.id,
    ropeStack,
    goldStack,
    stashGold,
  };
}

/** Opens `url` in a fresh context signed in with `session` (the app reads it from local storage). */
async function openSignedIn(browser, base, session, url) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  // Every socket the page opens, so that the bench can close the one in use.
  await context.addInitScript(() => {
    const Native = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        window.__sockets.push(this);
      }
    };
  });
  const page = await context.newPage();
  await page.goto(`${base}/api/v1/health`);
  await page.evaluate((signedIn) => {
    localStorage.setItem('auth_token', signedIn.token);
    localStorage.setItem('refresh_token', signedIn.refresh_token);
    localStorage.setItem('token_expires_at', signedIn.expires_at);
    localStorage.setItem('user', JSON.stringify(signedIn.user));
  }, session);
  const cdp = await context.newCDPSession(page);
  // Not Network.enable: DevTools would keep every response the page gets (a heap that grows by the
  // bench's own doing, about 4 KB a change). The drop check below turns it on for its few changes.
  await cdp.send('Performance.enable');
  await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
  return { context, page, cdp };
}

/**
 * The TanStack Query cache's entries, found through React's fibers (the app does not expose its client):
 * the first component whose props hold a client with a query cache.
 */
const queryCacheEntries = (page) =>
  page.evaluate(() => {
    const root = document.getElementById('root');
    const key = root && Object.keys(root).find((k) => k.startsWith('__reactContainer$'));
    if (!key) return null;
    // The fiber kept on the container may be the alternate: its root node knows the current one.
    const stack = [root[key].stateNode?.current ?? root[key]];
    let visited = 0;
    while (stack.length > 0 && visited < 200_000) {
      const fiber = stack.pop();
      visited += 1;
      // QueryClientProvider's `client`, or the context provider's `value` (app/providers.tsx).
      const client = fiber.memoizedProps?.client ?? fiber.memoizedProps?.value;
      if (client && typeof client.getQueryCache === 'function') {
        const cache = client.getQueryCache();
        return {
          queries: cache.getAll().length,
          mutations: client.getMutationCache().getAll().length,
          observers: cache.getAll().reduce((n, q) => n + q.getObserversCount(), 0),
        };
      }
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
    return null;
  });

/** A heap snapshot of the page, summed by kind of object (node type and constructor or closure name). */
async function heapByKind(cdp) {
  let chunks = '';
  const collect = ({ chunk }) => {
    chunks += chunk;
  };
  cdp.on('HeapProfiler.addHeapSnapshotChunk', collect);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', collect);
  const { snapshot, nodes, strings } = JSON.parse(chunks);
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const kinds = new Map();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const name = type === 'string' || type === 'number' || type === 'code' ? '' : strings[nodes[i + nameAt]];
    const key = `${type} ${name.slice(0, 80)}`;
    const kind = kinds.get(key) ?? { count: 0, size: 0 };
    kind.count += 1;
    kind.size += nodes[i + sizeAt];
    kinds.set(key, kind);
  }
  return kinds;
}

function printGrowth(before, after, changes) {
  const rows = [...after].map(([key, { count, size }]) => {
    const was = before.get(key) ?? { count: 0, size: 0 };
    return { key, count: count - was.count, size: size - was.size };
  });
  rows.sort((a, b) => b.size - a.size);
  console.log(`\n### The player's page: what grew over ${changes} changes (heap snapshots)\n`);
  console.log('| kind | objects | bytes |');
  console.log('|---|---:|---:|');
  for (const row of rows.slice(0, 25))
    console.log(`| ${row.key.replaceAll('|', '/')} | ${row.count} | ${row.size} |`);
}

/** The node types of a snapshot that are the page's own JavaScript values (see the head of this file). */
const ownTypes = new Set([
  'object',
  'closure',
  'array',
  'string',
  'concatenated string',
  'sliced string',
  'number',
  'regexp',
  'bigint',
  'symbol',
]);
const ownBytes = (kinds) =>
  [...kinds].reduce(
    (sum, [key, { size }]) => (ownTypes.has(key.slice(0, key.lastIndexOf(' '))) ? sum + size : sum),
    0,
  );

async function measure({ page, cdp }) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  const cache = await queryCacheEntries(page);
  const toasts = await page.evaluate(() => document.querySelectorAll('[data-toast]').length);
  const kinds = await heapByKind(cdp);
  return {
    kinds,
    own: ownBytes(kinds),
    heap: metric('JSHeapUsedSize'),
    nodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
    documents: metric('Documents'),
    queries: cache?.queries ?? null,
    observers: cache?.observers ?? null,
    mutations: cache?.mutations ?? null,
    toasts,
  };
}

/** Waits until the player's page shows the gold the server holds in the Backpack (the page caught up). */
async function settle(base, world, playerTab) {
  const items = await api(
    base,
    'GET',
    `/containers/${world.backpack}/items?per_page=100`,
    world.playerApi.token,
  );
  const list = Array.isArray(items) ? items : (items.items ?? items.data ?? []);
  const gold = list.find((item) => item.id === world.goldStack.id);
  const quantity = gold?.quantity;
  if (quantity !== undefined)
    await playerTab.page
      .getByRole('button', { name: `Gold piece, quantity ${quantity}` })
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (error) => {
        // What the page shows instead: a live update it never got, or a page that is not there.
        const shown = await playerTab.page.evaluate(() =>
          [...document.querySelectorAll('[aria-label^="Gold piece"], [role="status"], [role="alert"]')].map(
            (e) => e.getAttribute('aria-label') ?? e.textContent,
          ),
        );
        console.error(`the server holds ${quantity} gp; the page shows: ${JSON.stringify(shown)}`);
        throw error;
      });
  // Let the toasts of the last changes run out (their own clocks, 5 s at most) and the refetches land.
  await sleep(6_000);
  return quantity;
}

/** One change of the cycle: move the Rope there, and back; edit the gold; the GM gives 1 gp. */
async function change(base, world, n) {
  const { playerApi, gm } = world;
  switch (n % 4) {
    case 0:
    case 1: {
      const [from, to] = n % 4 === 0 ? [world.backpack, world.sack] : [world.sack, world.backpack];
      const moved = await api(base, 'POST', '/containers/transfer', playerApi.token, {
        item_instance_id: world.ropeId,
        source_container_id: from,
        target_container_id: to,
      });
      world.ropeId = moved.target_instances[0]?.id ?? world.ropeId;
      return;
    }
    case 2: {
      const current = await api(base, 'GET', `/item_instances/${world.goldStack.id}`, playerApi.token);
      await api(base, 'PATCH', `/item_instances/${world.goldStack.id}`, playerApi.token, {
        item_instance: { quantity: current.quantity + 1 },
      });
      return;
    }
    default:
      // The GM hands 1 gp from the stash to the player's character: the player is told.
      await api(base, 'POST', '/containers/transfer', gm.token, {
        item_instance_id: world.stashGold.id,
        source_container_id: world.stash,
        target_container_id: world.backpack,
        quantity: 1,
      });
  }
}

const fmtMb = (bytes) => (bytes / 1_000_000).toFixed(2);

// The browser first: a server started before a launch that fails would be left running.
const browser = await chromium.launch({ executablePath: ensureChromium(), args: ['--no-sandbox'] });
const server = await startServer({ RATE_LIMIT_SCALE: '100' });
let failed = false;
try {
  const { base } = server;
  const seeded = await seed(base);
  const world = { ...seeded, playerApi: await signIn(base, seeded.player), ropeId: seeded.ropeStack.id };
  const playerSession = await signIn(base, seeded.player);
  const gmSession = await signIn(base, seeded.gm);
  const playerTab = await openSignedIn(browser, base, playerSession, `/containers/${world.backpack}`);
  await playerTab.page
    .getByRole('button', { name: /^Gold piece, quantity/ })
    .first()
    .waitFor({ timeout: 60_000 });
  const gmTab = await openSignedIn(browser, base, gmSession, `/parties/${world.party.id}`);
  await gmTab.page.getByRole('heading', { name: 'The Long Night' }).first().waitFor({ timeout: 60_000 });
  const tabs = [
    ['player', "the player's Backpack page", playerTab],
    ['gm', "the GM's party page", gmTab],
  ];

  const rows = [];
  let done = 0;
  const started = Date.now();
  for (const checkpoint of checkpoints) {
    while (done < checkpoint) {
      await change(base, world, done);
      done += 1;
      // About as fast as a busy table: a change every 50 ms or so, a round trip each.
      await sleep(50);
    }
    await settle(base, world, playerTab);
    for (const [id, , tab] of tabs) rows.push({ id, changes: checkpoint, ...(await measure(tab)) });
    const playerRows = rows.filter((r) => r.id === 'player');
    if (snapshots && checkpoint === changeCount && playerRows.length > 1)
      printGrowth(playerRows[0].kinds, playerRows.at(-1).kinds, checkpoint - checkpoints[0]);
    // Only the player's first snapshot is kept, for the list above.
    for (const row of rows.slice(-2)) if (row !== playerRows[0]) row.kinds = null;
    const last = rows.slice(-2);
    console.error(
      `${checkpoint} changes (${((Date.now() - started) / 1000).toFixed(0)} s): ${last
        .map(
          (r) =>
            `${r.id} heap ${fmtMb(r.heap)} MB (own JS ${fmtMb(r.own)} MB), ${r.nodes} nodes, ${r.listeners} listeners, ${r.queries} queries`,
        )
        .join('; ')}`,
    );
  }

  console.log(`\n### ${changeCount} live changes, Chromium at 375 × 812\n`);
  console.log(
    '| page | changes | JS heap (MB) | own JS (MB) | DOM nodes | event listeners | queries (observers) | mutations | toasts |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.id} | ${r.changes} | ${fmtMb(r.heap)} | ${fmtMb(r.own)} | ${r.nodes} | ${r.listeners} | ${r.queries} (${r.observers}) | ${r.mutations} | ${r.toasts} |`,
    );

  const perThousand = (first, last, key) =>
    first.changes === last.changes ? 0 : ((last[key] - first[key]) / (last.changes - first.changes)) * 1000;
  for (const [id, label] of tabs) {
    const own = rows.filter((r) => r.id === id);
    const first = own[0];
    const last = own[own.length - 1];
    for (const [key, name, unit, scale] of [
      ['heap', 'JS heap', 'MB', 1_000_000],
      ['own', 'own JS (heap snapshot)', 'MB', 1_000_000],
      ['nodes', 'DOM nodes', 'nodes', 1],
      ['listeners', 'event listeners', 'listeners', 1],
    ]) {
      const growth = perThousand(first, last, key) / scale;
      reportResult({
        bench: 'long-session',
        measure: `${label}: ${name} growth per 1,000 changes (${first.changes} → ${last.changes})`,
        figure: growth,
        unit,
        baseline: first[key] / scale,
        baselineLabel: `at ${first.changes} changes`,
        goal: '',
        met: null,
      });
    }
    // The last stretch alone: a page that leaks grows as fast here as at first; one warming up (the
    // engine compiling the code the changes run) slows down.
    const previous = own[own.length - 2];
    if (previous)
      reportResult({
        bench: 'long-session',
        measure: `${label}: JS heap growth per 1,000 changes (${previous.changes} → ${last.changes})`,
        figure: perThousand(previous, last, 'heap') / 1_000_000,
        unit: 'MB',
        baseline: first.heap / 1_000_000,
        baselineLabel: `at ${first.changes} changes`,
        goal: '',
        met: null,
      });
    if (first.queries !== null)
      reportResult({
        bench: 'long-session',
        measure: `${label}: query cache entries at ${last.changes} changes`,
        figure: last.queries,
        unit: 'entries',
        baseline: first.queries,
        baselineLabel: `at ${first.changes} changes`,
        goal: '',
        met: null,
      });
  }

  // The cable drops and comes back: the player's socket closed from the page, `reconnectCount` times.
  if (reconnectCount > 0) {
    const { page, cdp } = playerTab;
    await cdp.send('Network.enable');
    const frames = [];
    cdp.on('Network.webSocketFrameSent', ({ requestId, response }) =>
      frames.push({ requestId, sent: true, data: response.payloadData }),
    );
    cdp.on('Network.webSocketFrameReceived', ({ requestId, response }) =>
      frames.push({ requestId, sent: false, data: response.payloadData }),
    );
    const itemReads = [];
    cdp.on('Network.requestWillBeSent', ({ request }) => {
      if (request.method === 'GET' && request.url.includes('/api/v1/')) itemReads.push(request.url);
    });
    // One gift before the drops: what a change costs the page when the socket never dropped.
    await change(base, world, 3);
    await settle(base, world, playerTab);
    const readsBefore = itemReads.splice(0);
    const socketsBefore = await page.evaluate(() => window.__sockets.length);
    for (let i = 0; i < reconnectCount; i++) {
      const opened = await page.evaluate(() => window.__sockets.length);
      await page.evaluate(() => window.__sockets.at(-1).close());
      // The app's monitor reopens it (after its own backoff); the browser's `online` event makes it now.
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await page.waitForFunction(
        (before) => window.__sockets.length > before && window.__sockets.at(-1).readyState === 1,
        opened,
        { timeout: 60_000, polling: 100 },
      );
      // Its channels confirmed again (the client subscribes each at once on the new socket).
      await sleep(1_500);
    }
    const socketsAfter = await page.evaluate(() => window.__sockets.length);
    await settle(base, world, playerTab);
    const openSockets = await page.evaluate(() => window.__sockets.filter((s) => s.readyState <= 1).length);
    // The subscribes on the socket now in use, by channel identifier (the client's retries repeat one
    // until it is confirmed: counted once each).
    const lastSocket = frames.filter((f) => !f.sent).at(-1)?.requestId;
    const subscribed = new Map();
    for (const f of frames.filter((x) => x.sent && x.requestId === lastSocket)) {
      const frame = JSON.parse(f.data);
      if (frame.command === 'subscribe')
        subscribed.set(frame.identifier, (subscribed.get(frame.identifier) ?? 0) + 1);
    }
    const confirmations = frames.filter(
      (f) => !f.sent && f.requestId === lastSocket && f.data.includes('confirm_subscription'),
    );
    const confirmedChannels = new Set(confirmations.map((f) => JSON.parse(f.data).identifier));

    // One gift from the GM: one frame per channel carrying it, one refetch, one toast.
    const framesBefore = frames.length;
    itemReads.length = 0;
    await change(base, world, 3);
    await settle(base, world, playerTab);
    const giftFrames = frames
      .slice(framesBefore)
      .filter((f) => !f.sent && f.data.includes('"message"') && f.data.includes('inventory_updated'));
    const byChannel = new Map();
    for (const f of giftFrames) {
      const { identifier } = JSON.parse(f.data);
      byChannel.set(identifier, (byChannel.get(identifier) ?? 0) + 1);
    }
    // The toasts the second gift adds to the page (a repeat of the same words replaces the toast shown,
    // so a change told twice adds two).
    itemReads.length = 0;
    const watch = page.evaluate(
      () =>
        new Promise((resolve) => {
          let added = 0;
          const observer = new MutationObserver((records) => {
            for (const record of records)
              for (const node of record.addedNodes)
                if (
                  node instanceof Element &&
                  (node.matches('[data-toast]') || node.querySelector('[data-toast]'))
                )
                  added += 1;
          });
          observer.observe(document.body, { childList: true, subtree: true });
          setTimeout(() => {
            observer.disconnect();
            resolve(added);
          }, 4_000);
        }),
    );
    await change(base, world, 3);
    const giftToasts = await watch;
    await sleep(1_000);
    console.log(`\n### The cable dropped and came back ${reconnectCount} times (the player's page)\n`);
    console.log('| check | count |');
    console.log('|---|---:|');
    console.log(`| sockets the page opened during the drops | ${socketsAfter - socketsBefore} |`);
    console.log(`| sockets open or opening at the end | ${openSockets} |`);
    console.log(
      `| channels subscribed on the last socket (subscribe frames) | ${subscribed.size} (${[...subscribed.values()].join(', ')}) |`,
    );
    console.log(
      `| channels confirmed on the last socket (confirmations) | ${confirmedChannels.size} (${confirmations.length}) |`,
    );
    console.log(`| frames of one gift, per channel | ${[...byChannel.values()].join(', ')} |`);
    console.log(
      `| API reads of one gift: before the drops / after | ${readsBefore.length} / ${itemReads.length} |`,
    );
    console.log(`| toasts the second gift added | ${giftToasts} |`);
    const duplicate = [...byChannel.values()].some((n) => n > 1) || giftToasts > 1 || openSockets > 1;
    reportResult({
      bench: 'long-session',
      measure: `after ${reconnectCount} drops: frames of one change on the busiest channel`,
      figure: Math.max(0, ...byChannel.values()),
      unit: 'frames',
      baseline: 1,
      baselineLabel: 'one subscription',
      goal: '= 1',
      met: Math.max(0, ...byChannel.values()) === 1,
    });
    reportResult({
      bench: 'long-session',
      measure: `after ${reconnectCount} drops: toasts of one gift`,
      figure: giftToasts,
      unit: 'toasts',
      baseline: 1,
      baselineLabel: 'one notice',
      goal: '= 1',
      met: giftToasts === 1,
    });
    if (duplicate) console.log('\nA change reached the page more than once after the drops.');
  }
  await playerTab.context.close();
  await gmTab.context.close();
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
