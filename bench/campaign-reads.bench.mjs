// The reads of a long campaign (the review "A long campaign, measured", docs/decisions.md): a GM and 8
// players on Legend, 36 characters, 108 containers of 45–267 stacks, a 528-stack party stash (~17,800
// stacks in all) and ~15,800 ledger rows; then the party's wealth, the GM's containers by owner and the
// party ledger's first page, each timed against GET /api/v1/health in the same rounds.
//
//   npx tsx --conditions=development bench/campaign-reads.bench.mjs [--rounds 60]
//     [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//
// Builds the real app through app.inject on a fresh in-memory PGlite (migrations + seed), or on a new
// database made (and dropped) at the PostgreSQL URL given. The users, party and characters are made by the
// services (as the API makes them); the extra containers, the stacks and the ledger rows are inserted in
// bulk (the API would take minutes). Then the planner's statistics are gathered as a running server gathers
// them (PGlite: db/planner-statistics.ts, a minute after the start; PostgreSQL: its autovacuum).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { eq, isNotNull, like, sql } from 'drizzle-orm';
import pg from 'pg';
import { openPglite, openPostgres } from '../apps/server/src/db/client.ts';
import { analyzeGrownTables } from '../apps/server/src/db/planner-statistics.ts';
import { containers, transactions } from '../apps/server/src/db/schema/inventory.ts';
import { itemInstances, itemTemplates } from '../apps/server/src/db/schema/items.ts';
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
  options: {
    rounds: { type: 'string', default: '60' },
    'database-url': { type: 'string' },
  },
});
const rounds = Number(args.rounds);
const PLAYERS = 8;
const CHARACTERS_PER_USER = 4; // 9 users: 36 characters
const EXTRA_CONTAINERS_PER_CHARACTER = 2; // with the main one: 108 containers
const STASH_STACKS = 528;
const LEDGER_ROWS = 15_800;

const random = deterministicRandom(7);
const between = (low, high) => low + Math.floor(random() * (high - low + 1));
const pick = (list) => list[Math.floor(random() * list.length)];

// ---- the database ------------------------------------------------------------------------------------

let dropDatabase = async () => {};
async function openDatabase() {
  const url = args['database-url'];
  if (!url) return openPglite({});
  const name = `haversack_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  dropDatabase = async () => {
    const dropper = new pg.Client({ connectionString: url });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  const target = new URL(url);
  target.pathname = `/${name}`;
  return openPostgres(target.toString(), { max: 10 });
}

const database = await openDatabase();
const { db } = database;
await database.migrate();
await seedDatabase(db);
const { app, close } = await startInProcessApp(database, { BILLING_PROVIDER: 'local' });

// ---- the campaign ------------------------------------------------------------------------------------

const seedStarted = performance.now();
const { accounts, subscriptions, parties, characters } = app.services;
async function legendUser(name) {
  const session = await accounts.register(
    {
      email: `${name}@example.com`,
      username: name,
      password: 'Adventure1',
      password_confirmation: 'Adventure1',
    },
    {},
  );
  await subscriptions.checkout({ id: session.user.id, email: session.user.email }, { tier_id: 'tier_3' });
  return session;
}
const gm = await legendUser('bench_gm');
const party = await parties.create(gm.user.id, {
  name: 'The Long Campaign',
  description: '',
  game_system: 'D&D 5e',
  setting: '',
  join_permission: 'full',
  encumbrance_style: 'both',
  item_conjuring: 'free',
  is_public: false,
});
const players = [];
for (let i = 1; i <= PLAYERS; i++) {
  const player = await legendUser(`bench_player_${i}`);
  await parties.join(player.user.id, { join_code: party.join_code, role_request: 'player' });
  players.push(player);
}
const characterIds = [];
for (const user of [gm, ...players]) {
  for (let i = 1; i <= CHARACTERS_PER_USER; i++) {
    const character = await characters.create(
      { id: user.user.id, username: user.user.username },
      {
        name: `${user.user.username} hero ${i}`,
        race: '',
        character_class: '',
        level: 5,
        notes: '',
        image_url: '',
        max_weight: 150,
        max_slots: 300,
        party_id: party.id,
      },
    );
    characterIds.push(character.id);
  }
}
await db.insert(containers).values(
  characterIds.flatMap((characterId) =>
    Array.from({ length: EXTRA_CONTAINERS_PER_CHARACTER }, (_, i) => ({
      name: i === 0 ? 'Backpack' : 'Saddlebags',
      characterId,
      maxWeight: 80,
      maxSlots: 300,
    })),
  ),
);
const characterContainers = await db
  .select({ id: containers.id })
  .from(containers)
  .where(isNotNull(containers.characterId));
const [stash] = await db
  .select({ id: containers.id })
  .from(containers)
  .where(eq(containers.partyId, party.id));

const coins = await db
  .select({ id: itemTemplates.id, key: itemTemplates.systemKey })
  .from(itemTemplates)
  .where(like(itemTemplates.systemKey, 'coin:%'));
const goods = await db
  .select({ id: itemTemplates.id })
  .from(itemTemplates)
  .where(like(itemTemplates.systemKey, 'srd:%'));

/** 45–267 stacks, leaning a little towards the full end (17,800 stacks in all, as the review's campaign). */
const stacksInContainer = () => 45 + Math.floor(random() ** 0.93 * 223);
/** A stack: mostly gear, a few coin stacks (the purses), a few with overrides of their own. */
function stack(containerId, i) {
  if (i < 4) return { containerId, itemTemplateId: coins[i % coins.length].id, quantity: between(1, 400) };
  const roll = random();
  const instanceData =
    roll < 0.03
      ? { value_override: between(1, 500), name_override: `Heirloom ${i}` }
      : roll < 0.05
        ? { weight_override: between(1, 20) }
        : roll < 0.06
          ? { description_override: 'Scratched with a name.' }
          : {};
  return { containerId, itemTemplateId: pick(goods).id, quantity: between(1, 20), instanceData };
}
const stacks = [
  ...characterContainers.flatMap(({ id }) =>
    Array.from({ length: stacksInContainer() }, (_, i) => stack(id, i)),
  ),
  ...Array.from({ length: STASH_STACKS }, (_, i) => stack(stash.id, i)),
];
for (let i = 0; i < stacks.length; i += 1000)
  await db.insert(itemInstances).values(stacks.slice(i, i + 1000));

const actors = [gm, ...players];
const [{ ledgerSoFar }] = await db
  .select({ ledgerSoFar: sql`count(*)::int` })
  .from(transactions)
  .where(eq(transactions.partyId, party.id));
const since = Date.now() - 200 * 86_400_000;
const ledger = Array.from({ length: LEDGER_ROWS - ledgerSoFar }, (_, i) => {
  const actor = pick(actors);
  const characterId = pick(characterIds);
  return {
    transactionType: pick([
      'transfer',
      'character_to_party_transfer',
      'party_to_character_transfer',
      'adjust',
    ]),
    partyId: party.id,
    characterId,
    actorId: actor.user.id,
    actorName: actor.user.username,
    targetName: 'a hero',
    targetId: characterId,
    itemName: 'Torch',
    quantity: between(1, 10),
    sourceContainerId: pick(characterContainers).id,
    sourceName: 'Backpack',
    destinationContainerId: stash.id,
    destinationName: 'Party Stash',
    scope: 'party',
    summary: `${actor.user.username} moved torches (${i})`,
    transactionDate: new Date(since + i * 1000),
  };
});
for (let i = 0; i < ledger.length; i += 1000) await db.insert(transactions).values(ledger.slice(i, i + 1000));
if (database.kind === 'pglite') await analyzeGrownTables(db);
else await db.execute(sql`analyze`);
const seedMs = performance.now() - seedStarted;

// ---- the reads ---------------------------------------------------------------------------------------

const headers = { authorization: `Bearer ${gm.token}` };
const cases = {
  'party wealth (GM)': `/api/v1/parties/${party.id}/wealth`,
  'containers by owner (GM: 36 characters + stash)': `/api/v1/containers/by_owner?character_ids=${characterIds.join(',')}&party_ids=${party.id}`,
  'party ledger, first page (GM)': `/api/v1/transactions/party/${party.id}`,
};

const { samples, cpuSamples, time } = await timeReads(app, headers, cases, { warmups: 10, rounds });
const sizes = {};
for (const [name, url] of Object.entries(cases)) sizes[name] = (await time(url)).response.rawPayload.length;

const [{ stackCount }] = await db.select({ stackCount: sql`count(*)::int` }).from(itemInstances);
const [{ ledgerCount }] = await db
  .select({ ledgerCount: sql`count(*)::int` })
  .from(transactions)
  .where(eq(transactions.partyId, party.id));
const baseline = median(samples.health);
const cpuBaseline = median(cpuSamples.health);
console.log(
  `A long campaign on ${database.kind === 'pglite' ? 'PGlite in memory' : 'PostgreSQL'}: ${actors.length} users, ` +
    `${characterIds.length} characters, ${characterContainers.length} containers + a ${STASH_STACKS}-stack stash, ` +
    `${stackCount} stacks, ${ledgerCount} party ledger rows; seeded in ${(seedMs / 1000).toFixed(1)} s; ` +
    `${rounds} rounds, node ${process.version}`,
);
console.log('');
console.log('| request | body KB | median ms | p95 ms | median / health | median CPU ms | CPU / health |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
console.log(
  `| GET /api/v1/health (baseline) | | ${baseline.toFixed(2)} | ${percentile(samples.health, 95).toFixed(2)} | 1.0 | ${cpuBaseline.toFixed(2)} | 1.0 |`,
);
for (const name of Object.keys(cases)) {
  const m = median(samples[name]);
  const c = median(cpuSamples[name]);
  console.log(
    `| ${name} | ${(sizes[name] / 1024).toFixed(1)} | ${m.toFixed(2)} | ${percentile(samples[name], 95).toFixed(2)} | ${(m / baseline).toFixed(1)} | ${c.toFixed(2)} | ${(c / cpuBaseline).toFixed(1)} |`,
  );
}
// Reported without a goal (none was set): the medians and p95s against the health request's median.
for (const name of Object.keys(cases)) {
  for (const [label, figure] of [
    ['median', median(samples[name])],
    ['p95', percentile(samples[name], 95)],
  ]) {
    reportResult({
      bench: 'campaign-reads',
      measure: `${name}, ${label}`,
      figure,
      unit: 'ms',
      baseline,
      baselineLabel: 'GET /api/v1/health, median',
    });
  }
}

await close();
await dropDatabase();
