// search/items on a catalogue of 10,000 extra public templates (issue 5: "fast on 10,000 templates").
//
//   npx tsx --conditions=development bench/search-items.bench.mjs [--templates 10000] [--rounds 200]
//
// Builds the real app on a fresh in-memory PGlite (migrations + seed: coins and the 578 SRD items), adds
// the extra templates, then times requests through app.inject. Every query is timed interleaved with the
// baseline GET /api/v1/health, so the ratios survive a noisy machine (DESIGN §1 benchmarks).
import { parseArgs } from 'node:util';
import { openPglite } from '../apps/server/src/db/client.ts';
import { itemTemplates } from '../apps/server/src/db/schema/items.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import { reportResult } from './lib/bench-result.mjs';
import {
  deterministicRandom,
  median,
  percentile,
  startInProcessApp,
  timeReads,
} from './lib/in-process-app.mjs';

const { values: args } = parseArgs({
  options: { templates: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '200' } },
});
const templateCount = Number(args.templates);
const rounds = Number(args.rounds);

const random = deterministicRandom(42);
const pick = (list) => list[Math.floor(random() * list.length)];

const adjectives = [
  'Gleaming',
  'Rusty',
  'Ancient',
  'Cursed',
  'Blessed',
  'Frozen',
  'Burning',
  'Silent',
  'Heavy',
];
const nouns = ['Blade', 'Shield', 'Amulet', 'Lantern', 'Cloak', 'Hammer', 'Bow', 'Ring', 'Tome', 'Flask'];
const suffixes = ['of Embers', 'of the Deep', 'of Warding', 'of Storms', 'of the Fox', 'of Long Nights'];
const words =
  'the a forged in old mountain fire glows faintly when danger is near its bearer feels warm light cold ' +
  'water river king queen dragon scale steel silver gold copper elven dwarven rune carved handle worn';
const vocabulary = words.split(' ');
const tagPool = [
  'loot',
  'magic',
  'weapon',
  'armor',
  'trinket',
  'quest',
  'homebrew',
  'rare',
  'cursed',
  'tool',
];
const currencies = ['cp', 'sp', 'ep', 'gp', 'pp'];

function extraTemplate(i) {
  const description = Array.from({ length: 12 + Math.floor(random() * 30) }, () => pick(vocabulary)).join(
    ' ',
  );
  const tags = [
    ...new Set([pick(tagPool), pick(tagPool), `category:${pick(['gear', 'weapon', 'trinket'])}`]),
  ];
  return {
    name: `${pick(adjectives)} ${pick(nouns)} ${pick(suffixes)} ${i}`,
    description: `${description}.`,
    weight: Math.round(random() * 5000) / 100,
    baseValue: Math.floor(random() * 5000),
    currency: pick(currencies),
    visibility: 'public',
    stackSize: pick([0, 1, 1, 1, 10, 20]),
    tags,
    metadata: { rarity: pick(['common', 'uncommon', 'rare']), category: 'gear' },
  };
}

const database = await openPglite({});
await database.migrate();
await seedDatabase(database.db);

const started = performance.now();
for (let i = 0; i < templateCount; i += 1000) {
  const batch = Array.from({ length: Math.min(1000, templateCount - i) }, (_, j) => extraTemplate(i + j));
  await database.db.insert(itemTemplates).values(batch);
}
const insertMs = performance.now() - started;

const { app, close } = await startInProcessApp(database);
const session = await app.services.accounts.register(
  {
    email: 'bench@example.com',
    username: 'bench',
    password: 'Adventure1',
    password_confirmation: 'Adventure1',
  },
  {},
);
const headers = { authorization: `Bearer ${session.token}` };

const cases = {
  'text "sword"': '/api/v1/search/items?search=sword',
  'partial "long"': '/api/v1/search/items?search=long',
  'phrase "of storms" + tags': '/api/v1/search/items?search=%22of%20storms%22&tags=magic',
  'everything (*), page 50': '/api/v1/search/items?search=*&page=50',
  'filters only (value, weight)': '/api/v1/search/items?min_value=10&max_value=20&max_weight=5&per_page=50',
  'text + sort by value': '/api/v1/search/items?search=dragon&sort=value&direction=desc',
  // Words out of the name's order, one only in descriptions, written without accents.
  'words "storms blade"': '/api/v1/search/items?search=storms%20blade',
  'description words "elven rune"': '/api/v1/search/items?search=elven%20rune',
  'accents "epee"': '/api/v1/search/items?search=epee',
};

const { samples, cpuSamples, time } = await timeReads(app, headers, cases, { warmups: 20, rounds });
const totals = {};
for (const [name, url] of Object.entries(cases))
  totals[name] = (await time(url)).response.json().meta.total_count;

const baseline = median(samples.health);
console.log(
  `search/items on ${583 + templateCount} public templates (${templateCount} generated in ${Math.round(insertMs)} ms), ${rounds} rounds, node ${process.version}, PGlite in memory`,
);
console.log('');
const cpuBaseline = median(cpuSamples.health);
console.log('| request | matches | median ms | p95 ms | median / health | median CPU ms | CPU / health |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
console.log(
  `| GET /api/v1/health (baseline) | | ${baseline.toFixed(2)} | ${percentile(samples.health, 95).toFixed(2)} | 1.0 | ${cpuBaseline.toFixed(2)} | 1.0 |`,
);
for (const name of Object.keys(cases)) {
  const m = median(samples[name]);
  const c = median(cpuSamples[name]);
  console.log(
    `| search/items ${name} | ${totals[name]} | ${m.toFixed(2)} | ${percentile(samples[name], 95).toFixed(2)} | ${(m / baseline).toFixed(1)} | ${c.toFixed(2)} | ${(c / cpuBaseline).toFixed(1)} |`,
  );
}
// Issue 13 §3: each search's median against the health request's, for npm run bench's table.
for (const name of Object.keys(cases)) {
  const m = median(samples[name]);
  reportResult({
    bench: 'search-items',
    measure: `search/items ${name}, median`,
    figure: m,
    unit: 'ms',
    baseline,
    baselineLabel: 'GET /api/v1/health, median',
    goal: '≤ 5 × health',
    met: m / baseline <= 5,
  });
}

await close();
