// Taps at the table on a slow phone: how long from a player's tap to the next frame (Interaction to Next
// Paint), per interaction.
//
// The built server runs on a fresh PGlite (its own process). Through the API: a GM and four players in one
// party; the first player ("Pip") has two characters, the first with a Backpack and three more containers
// holding ~200 stacks, the second a few; each other player a character with a few dozen stacks; the GM
// deploys a shop of ~100 stock lines and a revealed loot of ~50 lines; transfers back and forth fill the
// ledger with a few hundred rows. Debian's Chromium (375 × 812, touch, a phone) opens Pip's pages with the
// CPU slowed 4× over the DevTools protocol (Emulation.setCPUThrottlingRate) and taps, 5 times each: open the
// inventory from the character page, switch containers, open an item's menu, open the move dialog and
// confirm a move, change a quantity, open the party page and switch its tabs, open the shop and buy, open
// the loot and take, filter the history, open and close the navigation drawer, toggle the theme.
//
// Each tap is timed by the browser itself: a PerformanceObserver for 'event' entries (durationThreshold 16,
// the least the API allows) gives each entry's duration, from the input's timestamp to the next paint after
// its handlers ran; an interaction's figure is its slowest entry (pointerdown, pointerup, click, keydown…).
// A 'longtask' observer counts the long tasks from the tap until the page settled. The baseline, in the
// same run and the same throttled page: a tap on the /about page's text, which no handler answers (below
// 16 ms the browser reports nothing: the baseline then counts as 16 ms).
//
// No timed assertion: figures only (median and slowest of the repetitions). `--only name,name` runs some,
// `--reps 5`, `--rate 4` (the CPU slowdown), `--profile name` writes a CPU profile (CDP Profiler) of that
// interaction's taps to bench-profile-<name>.cpuprofile.
//
// Run: npm run build && node bench/interactions.bench.mjs [--reps 5] [--rate 4] [--only a,b] [--profile a]
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ensureChromium } from '../scripts/ensure-chromium.mjs';
import { reportResult } from './lib/bench-result.mjs';
import { api, startServer } from './lib/server.mjs';

const argument = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const reps = Number(argument('reps', 5));
const rate = Number(argument('rate', 4));
const only = argument('only', null)?.split(',') ?? null;
const profileName = argument('profile', null);
const password = 'Benchmark1';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function register(base, username) {
  const email = `${username}@example.com`;
  const session = await api(base, 'POST', '/auth/register', null, {
    user: { email, username, password, password_confirmation: password },
  });
  // Hundreds of changes, shops and loot: more than the free plan allows.
  await api(base, 'POST', '/subscription/checkout', session.token, { tier_id: 'tier_3' });
  return { ...session, email };
}

/** The catalogue's first `count` templates that are not coins (the SRD items seeded at start). */
async function catalogue(base, token, count) {
  const found = [];
  for (let page = 1; found.length < count && page < 40; page++) {
    const batch = await api(base, 'GET', `/search/items?per_page=50&page=${page}`, token);
    if (batch.length === 0) break;
    found.push(...batch.filter((t) => !t.coin && !/ piece$/.test(t.name) && Number(t.weight ?? 0) <= 5));
  }
  return found.slice(0, count);
}

async function template(base, token, name) {
  const found = await api(base, 'GET', `/search/items?search=${encodeURIComponent(name)}&per_page=20`, token);
  const exact = found.find((t) => t.name === name);
  if (!exact) throw new Error(`no item template named ${name}`);
  return exact;
}

const addStack = (base, token, containerId, templateId, quantity) =>
  api(base, 'POST', '/item_instances', token, {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });

async function newContainer(base, token, characterId, name) {
  return api(base, 'POST', '/containers', token, {
    container: { name, character_id: characterId, max_weight: null, max_slots: null },
  });
}

async function seed(base) {
  const gm = await register(base, 'table_gm');
  const players = [];
  for (const name of ['table_pip', 'table_brom', 'table_ysra', 'table_kael'])
    players.push(await register(base, name));
  const [pip] = players;
  const party = await api(base, 'POST', '/parties', gm.token, { party: { name: 'The Lantern Table' } });
  for (const player of players)
    await api(base, 'POST', '/parties/join', player.token, {
      join_code: party.join_code,
      role_request: 'player',
    });
  const items = await catalogue(base, gm.token, 220);
  const gold = await template(base, gm.token, 'Gold piece');

  // Pip: the character played at the table, with four containers and ~200 stacks, and 500 gp to spend.
  const hero = await api(base, 'POST', '/characters', pip.token, {
    character: { name: 'Pip Underbough', party_id: party.id, max_weight: 5000, max_slots: 500 },
  });
  const containers = [{ id: hero.primary_container_id, name: 'Backpack' }];
  for (const name of ['Sack', 'Belt Pouch', 'Saddlebags'])
    containers.push(await newContainer(base, pip.token, hero.id, name));
  const perContainer = [110, 40, 25, 25];
  let next = 0;
  for (const [i, container] of containers.entries())
    for (let n = 0; n < perContainer[i]; n++) {
      const t = items[next++ % items.length];
      await addStack(base, pip.token, container.id, t.id, 1 + (n % 7));
    }
  await addStack(base, pip.token, hero.primary_container_id, gold.id, 500);
  const alt = await api(base, 'POST', '/characters', pip.token, {
    character: { name: 'Pip’s Pony', party_id: party.id, max_weight: 5000, max_slots: 500 },
  });
  for (let n = 0; n < 15; n++) await addStack(base, pip.token, alt.primary_container_id, items[n + 50].id, 2);

  // The other players: one character each, two containers, a few dozen stacks.
  for (const [p, player] of players.slice(1).entries()) {
    const character = await api(base, 'POST', '/characters', player.token, {
      character: {
        name: ['Brom Stone', 'Ysra Vale', 'Kael Ashdown'][p],
        party_id: party.id,
        max_weight: 5000,
        max_slots: 500,
      },
    });
    const sack = await newContainer(base, player.token, character.id, 'Sack');
    for (let n = 0; n < 30; n++)
      await addStack(
        base,
        player.token,
        n % 3 ? character.primary_container_id : sack.id,
        items[(n * 7 + p) % items.length].id,
        1 + (n % 4),
      );
  }

  // The GM's shop: ~100 stock lines, deployed to the party.
  const shopTemplate = await api(base, 'POST', '/shop_templates', gm.token, {
    shop_template: { name: 'The Lantern Emporium', shop_type: 'general' },
  });
  for (const t of items.slice(0, 100))
    await api(base, 'POST', `/shop_templates/${shopTemplate.id}/add_item`, gm.token, {
      item_template_id: t.id,
      quantity: 50,
    });
  const shop = await api(base, 'POST', '/shop_instances', gm.token, {
    shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id },
  });

  // The GM's loot: ~50 lines, revealed.
  const lootTemplate = await api(base, 'POST', '/loot_templates', gm.token, {
    loot_template: { name: 'The Ogre’s Hoard' },
  });
  for (const t of items.slice(100, 150))
    await api(base, 'POST', `/loot_templates/${lootTemplate.id}/loot_items`, gm.token, {
      item_template_id: t.id,
      quantity: 50,
    });
  const loot = await api(base, 'POST', '/loot_instances', gm.token, {
    loot_instance: { loot_template_id: lootTemplate.id, party_id: party.id },
  });
  await api(base, 'POST', `/loot_instances/${loot.id}/reveal`, gm.token, {});

  // The ledger: transfers back and forth between Pip's containers (the additions above are rows too).
  const sackItems = await api(base, 'GET', `/containers/${containers[1].id}/items?per_page=100`, pip.token);
  for (let n = 0; n < 120; n++) {
    const k = Math.floor(n / 2) % sackItems.length;
    const stack = sackItems[k];
    const [from, to] =
      n % 2 === 0 ? [containers[1].id, containers[2].id] : [containers[2].id, containers[1].id];
    const moved = await api(base, 'POST', '/containers/transfer', pip.token, {
      item_instance_id: stack.id,
      source_container_id: from,
      target_container_id: to,
    });
    sackItems[k] = { ...stack, id: moved.target_instances[0]?.id ?? stack.id };
  }
  return { gm, pip, party, hero, containers, shop, loot };
}

/** Opens a signed-in phone page (the app reads its session from local storage), CPU throttled. */
async function openPhone(browser, base, session) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'no-preference',
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
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  // Every page load arms the observers: event entries (with their interaction) and long tasks.
  await context.addInitScript(() => {
    window.__events = [];
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.interactionId > 0)
          window.__events.push({
            name: e.name,
            id: e.interactionId,
            start: e.startTime,
            duration: e.duration,
            processing: e.processingEnd - e.processingStart,
            delay: e.processingStart - e.startTime,
          });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  return { context, page, cdp };
}

/** Lets the page finish what it was doing (two frames and an idle moment), under throttling. */
const settle = async (page, ms = 400) => {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await sleep(ms);
};

/** Clears the page's records, runs the tap `act` and its `done` wait, and reads what the tap cost. */
async function timed(page, act, done) {
  await settle(page);
  const since = await page.evaluate(() => {
    window.__events.length = 0;
    window.__longTasks.length = 0;
    return performance.now();
  });
  await act();
  await done();
  await settle(page, 600);
  const { events, longTasks } = await page.evaluate(() => ({
    events: window.__events,
    longTasks: window.__longTasks,
  }));
  const byInteraction = new Map();
  for (const e of events.filter((x) => x.start >= since - 1)) {
    const was = byInteraction.get(e.id);
    if (!was || e.duration > was.duration) byInteraction.set(e.id, e);
  }
  // The tap is the interaction this act made: the first one after `since` (a tap is one interaction).
  const first = [...byInteraction.values()].sort((a, b) => a.start - b.start)[0];
  const tasks = longTasks.filter((t) => t.start >= since - 1);
  return {
    inp: first?.duration ?? 16,
    entry: first ?? null,
    longTasks: tasks.length,
    longest: Math.max(0, ...tasks.map((t) => t.duration)),
  };
}

const tapRole = (scope, role, name, options = {}) =>
  scope
    .getByRole(role, { name, ...options })
    .first()
    .tap();

/**
 * The interactions: `setup` (untimed) puts the page where the tap starts, `act` taps, `done` waits for its
 * visible result, `reset` (untimed) puts it back for the next repetition.
 */
function interactions(base, world) {
  const inventoryUrl = `${base}/containers/${world.containers[0].id}`;
  const list = (page) => page.getByTestId('panel-left');
  let toggle = 0;
  return [
    {
      name: 'baseline: tap on /about text',
      setup: (page) => page.goto(`${base}/about`, { waitUntil: 'networkidle' }),
      act: (page) => page.locator('main p').first().tap(),
      done: async () => {},
    },
    {
      name: 'open inventory from character page',
      setup: (page) => page.goto(`${base}/characters/${world.hero.id}`, { waitUntil: 'networkidle' }),
      act: (page) => page.getByRole('link', { name: 'View Inventory' }).first().tap(),
      done: (page) =>
        list(page)
          .getByRole('button', { name: /^More actions for / })
          .first()
          .waitFor({ timeout: 30_000 }),
      reset: (page) => page.goto(`${base}/characters/${world.hero.id}`, { waitUntil: 'networkidle' }),
    },
    {
      name: 'switch container (pick in Source)',
      setup: async (page) => {
        await page.goto(inventoryUrl, { waitUntil: 'networkidle' });
      },
      before: async (page) => {
        await list(page).getByRole('combobox', { name: 'Source' }).tap();
        await page.getByRole('option').nth(1).waitFor();
      },
      act: async (page) => {
        const options = page.getByRole('option');
        const names = await options.allTextContents();
        const current = await list(page).getByRole('combobox', { name: 'Source' }).inputValue();
        const target = names.findIndex((n) => !n.startsWith(current.slice(0, 6)) && /Sack|Backpack/.test(n));
        await options.nth(target === -1 ? 1 : target).tap();
      },
      done: (page) => page.getByRole('listbox').waitFor({ state: 'hidden' }),
    },
    {
      name: 'open item menu (⋯)',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      act: async (page) =>
        list(page)
          .getByRole('button', { name: /^More actions for / })
          .nth(2)
          .tap(),
      done: (page) => page.getByRole('menu').waitFor(),
      reset: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'hidden' });
      },
    },
    {
      // A tile's Move opens a "Move to..." menu of containers (not a dialog).
      name: 'open Move to... menu',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      act: async (page) =>
        list(page)
          .getByRole('button', { name: /^Move .* to\.\.\.$/ })
          .nth(3)
          .tap(),
      done: (page) => page.getByRole('menu').waitFor(),
      reset: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('menu').waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'move (pick Sack in the menu)',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      before: async (page) => {
        await list(page)
          .getByRole('button', { name: /^Move .* to\.\.\.$/ })
          .nth(3)
          .tap();
        await page.getByRole('menu').waitFor();
      },
      act: (page) => page.getByRole('menuitem', { name: /^Sack/ }).first().tap(),
      done: (page) => page.getByRole('menu').waitFor({ state: 'hidden', timeout: 30_000 }),
    },
    // Characters is left out: its tab never showed as selected to the bench's wait (not looked into).
    ...['Members', 'Inventory', 'Shops', 'Loot', 'Activity', 'Overview'].map((tab) => ({
      name: `party tab: ${tab}`,
      setup: (page) => page.goto(`${base}/parties/${world.party.id}`, { waitUntil: 'networkidle' }),
      before: async (page) => {
        if (tab === 'Overview') await tapRole(page, 'tab', 'Members');
        await settle(page, 800);
      },
      act: (page) => tapRole(page, 'tab', tab),
      done: (page) => page.getByRole('tab', { name: tab, selected: true }).waitFor(),
      reset: async (page) => {
        await tapRole(page, 'tab', tab === 'Overview' ? 'Members' : 'Overview');
        await settle(page, 800);
      },
    })),
    {
      name: 'shop: open Buy dialog',
      setup: (page) => page.goto(`${base}/shops/instances/${world.shop.id}`, { waitUntil: 'networkidle' }),
      act: (page) => page.getByRole('button', { name: /^Buy / }).nth(5).tap(),
      done: (page) => page.getByRole('dialog').waitFor(),
      reset: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'shop: confirm buy',
      setup: (page) => page.goto(`${base}/shops/instances/${world.shop.id}`, { waitUntil: 'networkidle' }),
      before: async (page) => {
        await page.getByRole('button', { name: /^Buy / }).nth(5).tap();
        await page
          .getByRole('dialog')
          .getByRole('button', { name: /^Buy for / })
          .waitFor();
      },
      act: (page) =>
        page
          .getByRole('dialog')
          .getByRole('button', { name: /^Buy for / })
          .tap(),
      done: (page) => page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 30_000 }),
    },
    {
      name: 'loot: open Take',
      setup: (page) => page.goto(`${base}/loot/instances/${world.loot.id}`, { waitUntil: 'networkidle' }),
      act: (page) =>
        page
          .getByRole('button', { name: /^Take / })
          .nth(3)
          .tap(),
      done: (page) => page.getByRole('dialog').waitFor(),
      reset: async (page) => {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'loot: confirm take',
      setup: (page) => page.goto(`${base}/loot/instances/${world.loot.id}`, { waitUntil: 'networkidle' }),
      before: async (page) => {
        await page
          .getByRole('button', { name: /^Take / })
          .nth(3)
          .tap();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        const quantity = dialog.getByRole('textbox', { name: /Quantity/ });
        if (await quantity.count()) await quantity.fill('1');
        const destination = dialog.getByRole('textbox', { name: 'Destination' });
        if ((await destination.count()) && !(await destination.inputValue())) {
          await destination.tap();
          await page
            .getByRole('option', { name: /^Backpack/ })
            .first()
            .tap();
        }
      },
      act: (page) => page.getByRole('dialog').getByRole('button', { name: /^Take/ }).last().tap(),
      done: (page) => page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 30_000 }),
    },
    {
      name: 'history: date range',
      setup: (page) => page.goto(`${base}/characters/${world.hero.id}`, { waitUntil: 'networkidle' }),
      act: async (page) => {
        toggle++;
        await page
          .locator('.mantine-SegmentedControl-label')
          .nth(toggle % 2 ? 1 : 0)
          .tap();
      },
      done: async () => {},
    },
    {
      name: 'nav drawer: open',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      act: (page) => tapRole(page, 'button', 'Open navigation'),
      done: (page) => page.getByRole('button', { name: 'Close navigation' }).first().waitFor(),
      reset: async (page) => {
        await tapRole(page, 'button', 'Close navigation');
        await settle(page, 600);
      },
    },
    {
      name: 'nav drawer: close',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      before: async (page) => {
        await tapRole(page, 'button', 'Open navigation');
        await settle(page, 600);
      },
      act: (page) => tapRole(page, 'button', 'Close navigation'),
      done: (page) => page.getByRole('button', { name: 'Open navigation' }).first().waitFor(),
    },
    {
      name: 'theme toggle',
      setup: (page) => page.goto(inventoryUrl, { waitUntil: 'networkidle' }),
      act: (page) =>
        page
          .getByRole('button', { name: /theme|dark|light/i })
          .first()
          .tap(),
      done: async () => {},
    },
  ];
}

const browser = await chromium.launch({ executablePath: ensureChromium(), args: ['--no-sandbox'] });
const server = await startServer({ RATE_LIMIT_SCALE: '100' });
let failed = false;
try {
  const { base } = server;
  const started = Date.now();
  const world = await seed(base);
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const { page, cdp, context } = await openPhone(browser, base, world.pip);
  const rows = [];
  for (const step of interactions(base, world)) {
    if (step.skip) continue;
    if (only && !step.name.startsWith('baseline') && !only.some((o) => step.name.includes(o))) continue;
    try {
      await step.setup(page);
      await settle(page, 1_000);
      const runs = [];
      const profiling = profileName && step.name.includes(profileName);
      if (profiling) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      for (let r = 0; r < reps; r++) {
        if (step.before) await step.before(page);
        runs.push(
          await timed(
            page,
            () => step.act(page),
            () => step.done(page),
          ),
        );
        if (step.reset) await step.reset(page);
        else if (r < reps - 1 && step.before === undefined && step.name.startsWith('open inventory'))
          await step.setup(page);
      }
      if (profiling) {
        const { profile } = await cdp.send('Profiler.stop');
        const file = `bench-profile-${profileName.replace(/\W+/g, '-')}.cpuprofile`;
        writeFileSync(file, JSON.stringify(profile));
        console.log(`profile written to ${file}`);
      }
      const inps = runs.map((r) => r.inp);
      const slowest = runs.reduce((a, b) => (b.inp > a.inp ? b : a));
      rows.push({
        name: step.name,
        median: median(inps),
        worst: Math.max(...inps),
        all: inps,
        longTasks: runs.map((r) => r.longTasks),
        longest: Math.max(...runs.map((r) => r.longest)),
        slowestEntry: slowest.entry,
      });
      console.log(
        `${step.name}: ${inps.join(', ')} ms; long tasks ${runs.map((r) => r.longTasks).join(', ')}`,
      );
    } catch (error) {
      console.log(`${step.name}: FAILED ${String(error.message).split('\n')[0]}`);
      await page.screenshot({ path: `/tmp/inp-fail-${step.name.replace(/\W+/g, '-')}.png` }).catch(() => {});
      rows.push({ name: step.name, failed: true });
    }
  }
  const baseline = rows.find((r) => r.name.startsWith('baseline'))?.median ?? 16;
  console.log(`\n### Tap to next paint on a 375 × 812 phone, CPU ${rate}× slower, ${reps} taps each\n`);
  console.log(
    '| interaction | median ms | slowest ms | × baseline | long tasks per tap | longest task ms | slowest entry (delay / handlers / to paint) |',
  );
  console.log('|---|---:|---:|---:|---|---:|---|');
  for (const row of rows) {
    if (row.failed) {
      console.log(`| ${row.name} | failed | | | | | |`);
      continue;
    }
    const e = row.slowestEntry;
    const parts = e
      ? `${e.name} ${Math.round(e.delay)} / ${Math.round(e.processing)} / ${Math.round(e.duration - e.delay - e.processing)}`
      : '< 16 ms';
    console.log(
      `| ${row.name} | ${row.median} | ${row.worst} | ${(row.median / baseline).toFixed(1)} | ${row.longTasks.join(', ')} | ${Math.round(row.longest)} | ${parts} |`,
    );
    if (!row.name.startsWith('baseline'))
      reportResult({
        bench: 'interactions',
        measure: `${row.name}: tap to next paint, median of ${reps} (CPU ${rate}×)`,
        figure: row.median,
        unit: 'ms',
        baseline,
        baselineLabel: 'a tap on /about text',
      });
  }
  if (rows.some((r) => r.failed)) failed = true;
  await context.close();
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
