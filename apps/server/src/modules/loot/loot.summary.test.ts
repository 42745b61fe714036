import type { LootDistribution, LootInstance, LootSummary } from '@haversack/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemTemplates } from '../../db/schema/items.js';
import { lootInstances } from '../../db/schema/loot.js';
import {
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type LootLine,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/** Issue 11 §8 "Loot received": GET parties/{id}/loot_summary. */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

type Envelope<T> = { status: string; data: T; message?: string; error?: { code: string; message: string } };
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

async function world(options: { weights?: (number | null)[] } = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'both' });
  const names = ['Aria', 'Bram', 'Cole', 'Dell'];
  const players: SignedInUser[] = [];
  const heroes: Awaited<ReturnType<typeof createCharacter>>[] = [];
  for (const [i, maxWeight] of (options.weights ?? [null, null, null, null]).entries()) {
    const player = await createMember(ctx, party, 'player');
    players.push(player);
    heroes.push(
      await createCharacter(ctx, player, {
        name: names[i] ?? `Hero ${i}`,
        partyId: party.id,
        maxWeight,
        maxSlots: null,
      }),
    );
  }
  const stash = await ctx.app.services.inventory.createContainer(
    actorOf(gm),
    { partyId: party.id },
    { name: 'Party Stash', description: '', max_weight: null, max_slots: null },
  );
  const rope = await createTemplate(ctx, {
    name: 'Rope',
    baseValue: 1,
    currency: 'gp',
    stackSize: 0,
    weight: 10,
  });
  const gem = await createTemplate(ctx, {
    name: 'Gem',
    baseValue: 50,
    currency: 'gp',
    stackSize: 0,
    weight: 0,
  });
  /** Deploys a loot with these lines, revealed unless told. */
  const loot = async (lines: LootLine[], reveal = true) => {
    const template = await createLootTemplate(ctx, gm, lines);
    const deployed = await ctx.app.services.loot.deploy(actorOf(gm), {
      loot_template_id: template.id,
      party_id: party.id,
    });
    if (reveal) await callApi(ctx, 'POST', `/loot_instances/${deployed.id}/reveal`, gm);
    return body<LootInstance>(await callApi(ctx, 'GET', `/loot_instances/${deployed.id}`, gm)).data;
  };
  return { gm, party, players, heroes, stash, rope, gem, loot };
}

const stackOf = (loot: LootInstance, name: string) => {
  const stack = loot.container.item_instances.find((i) => i.name === name);
  if (!stack) throw new Error(`no ${name} in ${loot.name}`);
  return stack;
};

async function summary(partyId: string, user: SignedInUser) {
  const res = await callApi(ctx, 'GET', `/parties/${partyId}/loot_summary`, user);
  expect(res.statusCode).toBe(200);
  return body<LootSummary>(res).data.map((s) => [s.name, s.value_cp, s.items_count]);
}

describe('loot received per character', () => {
  it('adds up takes, claims and distributions from the ledger, every character listed', async () => {
    const w = await world();
    const [aria, bram, cole] = w.players as [SignedInUser, SignedInUser, SignedInUser];
    const [ariaHero, bramHero, coleHero] = w.heroes;
    expect(await summary(w.party.id, w.gm)).toEqual([
      ['Aria', 0, 0],
      ['Bram', 0, 0],
      ['Cole', 0, 0],
      ['Dell', 0, 0],
    ]);

    const hoard = await w.loot([
      { item_template_id: w.rope.id, quantity: 5 },
      { item_template_id: w.gem.id, quantity: 2 },
    ]);
    const take = await callApi(ctx, 'POST', `/loot_instances/${hoard.id}/take`, aria, {
      take: {
        item_instance_id: stackOf(hoard, 'Rope').id,
        target_container_id: ariaHero?.primary_container_id,
        quantity: 2,
      },
    });
    expect(take.statusCode).toBe(200);
    const claim = await callApi(ctx, 'POST', `/loot_instances/${hoard.id}/claim`, bram, {
      claim: { item_instance_id: stackOf(hoard, 'Gem').id, character_id: bramHero?.id },
    });
    expect(claim.statusCode).toBe(200);
    expect(await summary(w.party.id, cole)).toEqual([
      ['Aria', 200, 2],
      ['Bram', 10_000, 2],
      ['Cole', 0, 0],
      ['Dell', 0, 0],
    ]);

    // 3 rope and 3 gp 1 cp shared evenly by Aria, Bram and Cole: a rope each, coins 101/100/100 cp.
    const purse = await w.loot([
      { item_template_id: w.rope.id, quantity: 3 },
      { currency: 'gp', quantity: 3 },
      { currency: 'cp', quantity: 1 },
    ]);
    const dealt = await callApi(ctx, 'POST', `/loot_instances/${purse.id}/distribute`, w.gm, {
      distribute: { character_ids: [ariaHero?.id, bramHero?.id, coleHero?.id], distribution_mode: 'even' },
    });
    expect(dealt.statusCode).toBe(200);
    const shares = body<LootDistribution>(dealt).data.recipients.map((r) => r.value_cp);
    expect(shares).toEqual([201, 200, 200]);
    // Coins count at their value, not in items_count.
    expect(await summary(w.party.id, aria)).toEqual([
      ['Aria', 401, 3],
      ['Bram', 10_200, 3],
      ['Cole', 200, 1],
      ['Dell', 0, 0],
    ]);
  });

  it('counts an item at its value when received, not at what its template is worth today', async () => {
    const w = await world();
    const hoard = await w.loot([{ item_template_id: w.gem.id, quantity: 1 }]);
    const [aria] = w.players as [SignedInUser];
    await callApi(ctx, 'POST', `/loot_instances/${hoard.id}/take`, aria, {
      take: {
        item_instance_id: stackOf(hoard, 'Gem').id,
        target_container_id: w.heroes[0]?.primary_container_id,
      },
    });
    await ctx.database.db.update(itemTemplates).set({ baseValue: 1 }).where(eq(itemTemplates.id, w.gem.id));
    expect((await summary(w.party.id, aria))[0]).toEqual(['Aria', 5000, 1]);
    // A row written before values were recorded falls back to the template's value now.
    await ctx.database.db
      .update(transactions)
      .set({ details: sql`${transactions.details} - 'value_cp'` })
      .where(eq(transactions.lootInstanceId, hoard.id));
    expect((await summary(w.party.id, aria))[0]).toEqual(['Aria', 100, 1]);
  });

  it('credits a share that overflowed to the stash to the character it was dealt to', async () => {
    // Bram can carry 5 lb: his 10 lb rope goes to the party stash.
    const w = await world({ weights: [null, 5] });
    const hoard = await w.loot([{ item_template_id: w.rope.id, quantity: 2 }]);
    const dealt = await callApi(ctx, 'POST', `/loot_instances/${hoard.id}/distribute`, w.gm, {
      distribute: { character_ids: w.heroes.map((h) => h.id), distribution_mode: 'even' },
    });
    expect(body<LootDistribution>(dealt).data.overflow).toBe(true);
    expect(await summary(w.party.id, w.gm)).toEqual([
      ['Aria', 100, 1],
      ['Bram', 100, 1],
    ]);
  });

  it('never counts hidden loot', async () => {
    const w = await world();
    const [aria] = w.players as [SignedInUser];
    const hoard = await w.loot([{ item_template_id: w.gem.id, quantity: 1 }]);
    await callApi(ctx, 'POST', `/loot_instances/${hoard.id}/take`, aria, {
      take: {
        item_instance_id: stackOf(hoard, 'Gem').id,
        target_container_id: w.heroes[0]?.primary_container_id,
      },
    });
    // Hidden loot cannot be taken at all.
    const hidden = await w.loot([{ item_template_id: w.rope.id, quantity: 1 }], false);
    const refused = await callApi(ctx, 'POST', `/loot_instances/${hidden.id}/take`, aria, {
      take: {
        item_instance_id: stackOf(hidden, 'Rope').id,
        target_container_id: w.heroes[0]?.primary_container_id,
      },
    });
    expect(refused.statusCode).toBe(404);
    expect((await summary(w.party.id, aria))[0]).toEqual(['Aria', 5000, 1]);
    // Loot someone took from cannot be hidden again (409); an earlier version allowed it, and such loot's
    // rows are the GM's alone in the ledger: it no longer counts, for anyone.
    const hide = await callApi(ctx, 'PATCH', `/loot_instances/${hoard.id}`, w.gm, {
      loot_instance: { is_revealed: false },
    });
    expect(hide.statusCode).toBe(409);
    await ctx.database.db
      .update(lootInstances)
      .set({ isRevealed: false, revealedAt: null })
      .where(eq(lootInstances.id, hoard.id));
    expect((await summary(w.party.id, aria))[0]).toEqual(['Aria', 0, 0]);
    expect((await summary(w.party.id, w.gm))[0]).toEqual(['Aria', 0, 0]);
  });

  it('answers members only, observers included; others hear the party does not exist', async () => {
    const w = await world({ weights: [null] });
    const observer = await createMember(ctx, w.party, 'observer');
    expect(await summary(w.party.id, observer)).toEqual([['Aria', 0, 0]]);
    const outsider = await createUser(ctx);
    const res = await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_summary`, outsider);
    expect(res.statusCode).toBe(404);
    expect(body(res).error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Party not found.' });
    const missing = await callApi(ctx, 'GET', `/parties/${crypto.randomUUID()}/loot_summary`, w.gm);
    expect(missing.statusCode).toBe(404);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/parties/${w.party.id}/loot_summary`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
