import {
  type LedgerTransaction,
  type LootInstance,
  type LootTakeResult,
  type LootTemplate,
  partyMessages,
} from '@haversack/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
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

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

type Envelope<T> = {
  status: string;
  data: T;
  message?: string;
  meta?: { total_count: number; total_pages: number; current_page: number; per_page: number };
  error?: { code: string; message: string; status: number; details?: { field: string; message: string }[] };
};
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const unknownId = '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b';

/**
 * A GM on a paid plan with a party holding every role: a manager and a player with characters, an observer
 * with a character (who still only looks), and an outsider; one loot deployed (hidden) from a template.
 */
async function world(options: { encumbrance?: 'none' | 'both'; lines?: (t: Things) => LootLine[] } = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: options.encumbrance ?? 'none' });
  const manager = await createMember(ctx, party, 'manager');
  const player = await createMember(ctx, party, 'player');
  const observer = await createMember(ctx, party, 'observer');
  const outsider = await createUser(ctx);
  const heroOf = async (user: SignedInUser, limits: { maxWeight?: number | null } = {}) =>
    createCharacter(ctx, user, { partyId: party.id, maxWeight: limits.maxWeight ?? null, maxSlots: null });
  const managerHero = await heroOf(manager);
  const hero = await heroOf(player, { maxWeight: options.encumbrance === 'both' ? 5 : null });
  const observerHero = await heroOf(observer);
  const things: Things = {
    rope: await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0, weight: 10 }),
    sword: await createTemplate(ctx, {
      name: 'Sword',
      baseValue: 15,
      currency: 'gp',
      stackSize: 1,
      weight: 3,
    }),
  };
  const template = await createLootTemplate(
    ctx,
    gm,
    options.lines?.(things) ?? [
      { item_template_id: things.rope.id, quantity: 5 },
      { currency: 'gp', quantity: 30 },
      { item_template_id: things.sword.id, quantity: 2 },
    ],
    { name: 'Goblin Stash' },
  );
  const deployed = await callApi(ctx, 'POST', '/loot_instances', gm, {
    loot_instance: {
      loot_template_id: template.id,
      party_id: party.id,
      location_name: 'Cave',
      source: 'Goblins',
    },
  });
  if (deployed.statusCode !== 201) throw new Error(`deploy failed: ${deployed.body}`);
  const loot = body<LootInstance>(deployed).data;
  return {
    gm,
    party,
    manager,
    player,
    observer,
    outsider,
    managerHero,
    hero,
    observerHero,
    template,
    loot,
    ...things,
  };
}
interface Things {
  rope: Awaited<ReturnType<typeof createTemplate>>;
  sword: Awaited<ReturnType<typeof createTemplate>>;
}
type World = Awaited<ReturnType<typeof world>>;

const stackOf = (loot: LootInstance, name: string) => {
  const stack = loot.container.item_instances.find((i) => i.name === name);
  if (!stack) throw new Error(`no ${name} in ${loot.name}`);
  return stack;
};
const get = (w: World, user: SignedInUser) => callApi(ctx, 'GET', `/loot_instances/${w.loot.id}`, user);
const reveal = async (w: World) => {
  const res = await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/reveal`, w.gm);
  expect(res.statusCode).toBe(200);
  return body<LootInstance>(res).data;
};
const take = (w: World, user: SignedInUser, payload: Record<string, unknown>) =>
  callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/take`, user, payload);
const claim = (w: World, user: SignedInUser, payload: Record<string, unknown>) =>
  callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/claim`, user, { claim: payload });
const partyLedger = async (w: World, user: SignedInUser) => {
  const res = await callApi(ctx, 'GET', `/transactions/party/${w.party.id}?per_page=200`, user);
  expect(res.statusCode).toBe(200);
  return body<{ transactions: LedgerTransaction[] }>(res);
};
const csv = async (path: string, user: SignedInUser) => {
  const res = await callApi(ctx, 'GET', `${path}/export.csv`, user);
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('deploying loot', () => {
  it('deploys hidden, stocked through the ledger, by the GM only, counting instances and deployments', async () => {
    const w = await world();
    expect(w.loot).toMatchObject({
      name: 'Goblin Stash',
      source: 'Goblins',
      is_revealed: false,
      instance_data: { location_name: 'Cave' },
      loot_template: { id: w.template.id, name: 'Goblin Stash' },
      party: { id: w.party.id, name: w.party.name },
      claimed_by: [],
      distributed_at: null,
      can_manage: true,
      can_take: false,
      total_value_cp: 5 * 100 + 30 * 100 + 2 * 1500,
    });
    expect(w.loot.container.item_instances.map((i) => [i.name, i.quantity])).toEqual([
      ['Gold piece', 30],
      ['Rope', 5],
      ['Sword', 1],
      ['Sword', 1],
    ]);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.lootInstanceId, w.loot.id));
    expect(rows.map((r) => r.transactionType).sort()).toEqual([
      'container_creation',
      'create',
      'create',
      'create',
    ]);
    expect(
      rows.every((r) => r.gmOnly && r.partyId === w.party.id && r.actorName === w.gm.user.username),
    ).toBe(true);
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, w.gm.user.id);
    expect(usage.loot_instances).toEqual({ used: 1, limit: 10 });
    expect(usage.loot_deployments_monthly).toEqual({ used: 1, limit: 10 });

    const deploy = (user: SignedInUser, loot_instance: Record<string, unknown>) =>
      callApi(ctx, 'POST', '/loot_instances', user, { loot_instance });
    const valid = { loot_template_id: w.template.id, party_id: w.party.id };
    for (const user of [w.manager, w.player, w.observer]) {
      const refused = await deploy(user, valid);
      expect(refused.statusCode).toBe(403);
      expect(body(refused).error).toMatchObject({ code: 'FORBIDDEN', message: 'Only the GM can do this.' });
    }
    const outsider = await deploy(w.outsider, valid);
    expect(outsider.statusCode).toBe(404);
    expect(body(outsider).error?.message).toBe('Party not found.');
    const privateOfOther = await createLootTemplate(ctx, w.outsider, []);
    for (const [payload, field] of [
      [{ party_id: w.party.id }, 'loot_instance.loot_template_id'],
      [{ ...valid, party_id: 'party' }, 'loot_instance.party_id'],
      [{ ...valid, loot_template_id: unknownId }, 'loot_instance.loot_template_id'],
      [{ ...valid, loot_template_id: privateOfOther.id }, 'loot_instance.loot_template_id'],
      [{ ...valid, name: '' }, 'loot_instance.name'],
      [{ ...valid, instance_data: { location_name: 5 } }, 'loot_instance.instance_data.location_name'],
    ] as const) {
      const res = await deploy(w.gm, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.code).toBe('VALIDATION_ERROR');
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }
    // Refused deployments counted nothing.
    expect(
      (await ctx.app.services.entitlements.usage(ctx.database.db, w.gm.user.id)).loot_instances.used,
    ).toBe(1);
  });

  it('refuses a GM on the free plan (no loot instances) and an archived party', async () => {
    const free = await createUser(ctx);
    const party = await createParty(ctx, free);
    const goblin = body<LootTemplate[]>(
      await callApi(ctx, 'GET', '/loot_templates?visibility=public&search=goblin', free),
    ).data[0];
    const refused = await callApi(ctx, 'POST', '/loot_instances', free, {
      loot_instance: { loot_template_id: goblin?.id, party_id: party.id },
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(body(refused).error?.details?.[0]).toMatchObject({ resource: 'loot_instances', limit: 0 });
    // The same GM on a paid plan deploys the public catalogue loot.
    await upgrade(ctx, free, 'tier_1');
    const ok = await callApi(ctx, 'POST', '/loot_instances', free, {
      loot_instance: { loot_template_id: goblin?.id, party_id: party.id },
    });
    expect(ok.statusCode).toBe(201);
    expect(body(ok).message).toBe('Loot deployed to party');
    expect(body<LootInstance>(ok).data.container.item_instances.map((i) => i.name)).toEqual([
      'Copper piece',
      'Dagger',
      'Rations (1 day)',
      'Silver piece',
    ]);
    await callApi(ctx, 'POST', `/parties/${party.id}/archive`, free);
    const archived = await callApi(ctx, 'POST', '/loot_instances', free, {
      loot_instance: { loot_template_id: goblin?.id, party_id: party.id },
    });
    expect(archived.statusCode).toBe(403);
    expect(body(archived).error?.message).toBe(partyMessages.archived);
    const loot = body<LootInstance>(ok).data;
    expect((await callApi(ctx, 'POST', `/loot_instances/${loot.id}/reveal`, free)).statusCode).toBe(403);
    expect((await callApi(ctx, 'DELETE', `/loot_instances/${loot.id}`, free)).statusCode).toBe(403);
  });
});

describe('loot limits of a plan', () => {
  it('holds to loot_instances and loot_deployments_monthly, under racing deploys too', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm);
    const template = await createLootTemplate(ctx, gm, [{ currency: 'cp', quantity: 1 }]);
    const deploy = () =>
      callApi(ctx, 'POST', '/loot_instances', gm, {
        loot_instance: { loot_template_id: template.id, party_id: party.id },
      });
    const deployed: string[] = [];
    for (let i = 0; i < 8; i++) deployed.push(body<LootInstance>(await deploy()).data.id);
    // Three at once for the last two places: two land, one is refused, never eleven.
    const racing = await Promise.all([deploy(), deploy(), deploy()]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 201, 403]);
    const refused = racing.find((r) => r.statusCode === 403);
    expect(refused && body(refused).error?.details?.[0]).toMatchObject({
      resource: 'loot_instances',
      limit: 10,
      used: 10,
    });
    // Deleting one frees a live place, but this month's ten deployments are spent.
    expect((await callApi(ctx, 'DELETE', `/loot_instances/${deployed[0]}`, gm)).statusCode).toBe(204);
    const monthly = await deploy();
    expect(monthly.statusCode).toBe(403);
    expect(body(monthly).error?.details?.[0]).toMatchObject({
      resource: 'loot_deployments_monthly',
      limit: 10,
    });
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, gm.user.id);
    expect(usage.loot_instances).toEqual({ used: 9, limit: 10 });
    expect(usage.loot_deployments_monthly).toEqual({ used: 10, limit: 10 });
  });
});

describe('who sees hidden loot', () => {
  it('only the GM: in the party list, its count, its search, the detail and the contents', async () => {
    const w = await world();
    const list = async (user: SignedInUser, query = '') =>
      callApi(ctx, 'GET', `/parties/${w.party.id}/loot_instances${query}`, user);
    const gmList = body<LootInstance[]>(await list(w.gm));
    expect(gmList.data.map((l) => l.id)).toEqual([w.loot.id]);
    expect(gmList.meta?.total_count).toBe(1);
    for (const user of [w.manager, w.player, w.observer]) {
      const seen = body<LootInstance[]>(await list(user));
      expect(seen.data).toEqual([]);
      expect(seen.meta?.total_count).toBe(0);
      expect(body<LootInstance[]>(await list(user, '?search=goblin&is_revealed=false')).data).toEqual([]);
      const detail = await get(w, user);
      expect(detail.statusCode).toBe(404);
      expect(body(detail).error?.message).toBe('Loot not found.');
    }
    expect((await list(w.outsider)).statusCode).toBe(404);
    expect((await get(w, w.outsider)).statusCode).toBe(404);
    expect(body<LootInstance[]>(await list(w.gm, '?is_revealed=true')).data).toEqual([]);
    expect(body<LootInstance[]>(await list(w.gm, '?search=goblin')).data).toHaveLength(1);
    expect((await list(w.gm, '?per_page=500')).statusCode).toBe(422);

    // The loot's container and stacks are nobody's to the inventory routes, the GM's included: they change
    // only through the loot's own calls.
    const stack = stackOf(w.loot, 'Rope');
    for (const user of [w.gm, w.player]) {
      expect((await callApi(ctx, 'GET', `/containers/${w.loot.container.id}`, user)).statusCode).toBe(404);
      expect((await callApi(ctx, 'GET', `/containers/${w.loot.container.id}/items`, user)).statusCode).toBe(
        404,
      );
      expect((await callApi(ctx, 'GET', `/item_instances/${stack.id}`, user)).statusCode).toBe(404);
    }
    const moved = await callApi(ctx, 'POST', '/containers/transfer', w.gm, {
      item_instance_id: stack.id,
      source_container_id: w.loot.container.id,
      target_container_id: w.hero.primary_container_id,
      quantity: 1,
    });
    expect(moved.statusCode).toBe(404);
    expect(
      (await callApi(ctx, 'PATCH', `/item_instances/${stack.id}`, w.gm, { item_instance: { quantity: 99 } }))
        .statusCode,
    ).toBe(404);
    expect((await callApi(ctx, 'DELETE', `/item_instances/${stack.id}`, w.gm)).statusCode).toBe(404);

    const revealed = await reveal(w);
    expect(revealed).toMatchObject({ is_revealed: true, can_manage: true });
    expect(revealed.revealed_at).not.toBeNull();
    for (const user of [w.manager, w.player, w.observer]) {
      const seen = body<LootInstance[]>(await list(user));
      expect(seen.data.map((l) => l.id)).toEqual([w.loot.id]);
      expect(seen.meta?.total_count).toBe(1);
      const detail = body<LootInstance>(await get(w, user)).data;
      expect(detail.container.item_instances).toHaveLength(4);
      expect(detail.can_manage).toBe(false);
      expect(detail.can_take).toBe(user !== w.observer);
    }
  });

  it('reveal, hide and edit are the GM’s, with the spec’s messages; non-GMs get 404 while hidden, 403 once revealed', async () => {
    const w = await world();
    for (const user of [w.manager, w.player, w.observer, w.outsider]) {
      expect((await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/reveal`, user)).statusCode).toBe(404);
      expect(
        (
          await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, user, {
            loot_instance: { is_revealed: true },
          })
        ).statusCode,
      ).toBe(404);
    }
    const revealed = await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/reveal`, w.gm);
    expect(body(revealed).message).toBe('Loot revealed to party');
    for (const user of [w.manager, w.player, w.observer]) {
      const refused = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, user, {
        loot_instance: { is_revealed: false },
      });
      expect(refused.statusCode).toBe(403);
      expect(body(refused).error?.message).toBe('Only the GM can do this.');
    }
    expect(
      (
        await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.outsider, {
          loot_instance: { name: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    const hidden = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: { is_revealed: false },
    });
    expect(hidden.statusCode).toBe(200);
    expect(body<LootInstance>(hidden)).toMatchObject({
      message: 'Loot hidden from party',
      data: { is_revealed: false, revealed_at: null },
    });
    expect((await get(w, w.player)).statusCode).toBe(404);
    const edited = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: {
        name: 'Troll Hoard',
        description: 'Smelly',
        instance_data: { location_name: 'Bridge' },
      },
    });
    expect(body<LootInstance>(edited)).toMatchObject({
      message: 'Loot updated',
      data: { name: 'Troll Hoard', description: 'Smelly', instance_data: { location_name: 'Bridge' } },
    });
    for (const [payload, field] of [
      [{ loot_instance: { is_revealed: 'yes' } }, 'loot_instance.is_revealed'],
      [{ loot_instance: { name: '' } }, 'loot_instance.name'],
      [{ loot_instance: { location_name: 'x'.repeat(101) } }, 'loot_instance.location_name'],
      [{ is_revealed: false }, 'loot_instance'],
    ] as const) {
      const res = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }
    expect((await callApi(ctx, 'GET', `/loot_instances/${unknownId}`, w.gm)).statusCode).toBe(404);
    expect((await callApi(ctx, 'GET', '/loot_instances/not-an-id', w.gm)).statusCode).toBe(422);
    expect((await callApi(ctx, 'GET', `/loot_instances/${w.loot.id}`)).statusCode).toBe(401);
  });

  it('deletes with what is left destroyed in the ledger, the GM only', async () => {
    const w = await world();
    await reveal(w);
    for (const user of [w.manager, w.player, w.observer]) {
      const refused = await callApi(ctx, 'DELETE', `/loot_instances/${w.loot.id}`, user);
      expect(refused.statusCode).toBe(403);
    }
    expect((await callApi(ctx, 'DELETE', `/loot_instances/${w.loot.id}`, w.outsider)).statusCode).toBe(404);
    const deleted = await callApi(ctx, 'DELETE', `/loot_instances/${w.loot.id}`, w.gm);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await get(w, w.gm)).statusCode).toBe(404);
    const left = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, w.loot.container.id));
    expect(left).toEqual([]);
    expect(
      await ctx.database.db.select().from(containers).where(eq(containers.id, w.loot.container.id)),
    ).toEqual([]);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.lootInstanceId, w.loot.id),
          inArray(transactions.transactionType, ['delete', 'container_deletion']),
        ),
      );
    expect(rows.map((r) => [r.transactionType, r.itemName, r.quantity]).sort()).toEqual([
      ['container_deletion', null, null],
      ['delete', 'Gold piece', 30],
      ['delete', 'Rope', 5],
      ['delete', 'Sword', 1],
      ['delete', 'Sword', 1],
    ]);
    // Deleted while revealed: the party saw it go.
    expect(rows.every((r) => !r.gmOnly)).toBe(true);
    expect((await callApi(ctx, 'DELETE', `/loot_instances/${w.loot.id}`, w.gm)).statusCode).toBe(404);
  });
});

describe('the party loot list', () => {
  it('sends each loot without its stacks, with what its card counts, and the stacks from the loot itself', async () => {
    const w = await world();
    const listed = body<(LootInstance & { item_units: number; coin_units: number })[]>(
      await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_instances`, w.gm),
    ).data;
    const [row] = listed;
    // 5 rope and 2 swords by the unit, 30 gp by the piece: "7 items and 30 coins" on the card.
    expect(row).toMatchObject({
      id: w.loot.id,
      items_count: 3,
      item_units: 7,
      coin_units: 30,
      total_value_cp: w.loot.total_value_cp,
      container: { id: w.loot.container.id, name: w.loot.container.name },
    });
    expect(row?.container).not.toHaveProperty('item_instances');
    const detail = body<LootInstance>(await get(w, w.gm)).data;
    expect(detail.container.item_instances).toHaveLength(w.loot.container.item_instances.length);
    expect(detail).toMatchObject({ item_units: 7, coin_units: 30 });
  });
});

describe('the ledger keeps hidden loot from non-GMs', () => {
  it('in the party ledger, its CSV, one transaction and a character’s ledger, now and after hiding again', async () => {
    const w = await world();
    const lootName = 'Goblin Stash';
    const mentionsLoot = (t: LedgerTransaction) =>
      `${t.transaction_summary} ${t.source_location_data.name} ${t.destination_location_data.name} ${t.target_data.name}`.includes(
        lootName,
      );
    const gmView = await partyLedger(w, w.gm);
    const deployment = gmView.data.transactions.filter(mentionsLoot);
    expect(deployment.map((t) => t.transaction_type).sort()).toEqual([
      'container_creation',
      'create',
      'create',
      'create',
    ]);
    for (const user of [w.manager, w.player, w.observer]) {
      const seen = await partyLedger(w, user);
      expect(seen.data.transactions.filter(mentionsLoot)).toEqual([]);
      // The count leaves them out too.
      expect(seen.meta?.total_count).toBe((gmView.meta?.total_count ?? 0) - deployment.length);
      expect(await csv(`/transactions/party/${w.party.id}`, user)).not.toContain(lootName);
      const one = await callApi(ctx, 'GET', `/transactions/${deployment[0]?.id}`, user);
      expect(one.statusCode).toBe(404);
    }
    expect(await csv(`/transactions/party/${w.party.id}`, w.gm)).toContain(lootName);
    expect((await callApi(ctx, 'GET', `/transactions/${deployment[0]?.id}`, w.gm)).statusCode).toBe(200);

    // Revealed: what the party does with it is the party's; the deployment stays the GM's.
    const revealed = await reveal(w);
    const took = await take(w, w.player, {
      item_instance_id: stackOf(revealed, 'Rope').id,
      target_container_id: w.hero.primary_container_id,
      quantity: 2,
    });
    expect(took.statusCode).toBe(200);
    const [takeRowId] = body<LootTakeResult>(took).data.transaction_ids;
    const playerView = await partyLedger(w, w.player);
    expect(playerView.data.transactions.filter(mentionsLoot).map((t) => t.transaction_type)).toEqual([
      'loot',
    ]);
    const characterLedger = `/transactions/character/${w.hero.id}`;
    const heroRows = body<{ transactions: LedgerTransaction[] }>(
      await callApi(ctx, 'GET', characterLedger, w.player),
    ).data.transactions;
    expect(heroRows.map((t) => t.id)).toContain(takeRowId);
    expect(await csv(characterLedger, w.player)).toContain(lootName);
    expect((await callApi(ctx, 'GET', `/transactions/${takeRowId}`, w.player)).statusCode).toBe(200);

    // It cannot be hidden again now that the party has had something from it (409)...
    const hide = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: { is_revealed: false },
    });
    expect(hide.statusCode).toBe(409);
    expect((await partyLedger(w, w.player)).data.transactions.filter(mentionsLoot)).toHaveLength(1);
    // ...but an earlier version allowed it, and such loot stays hidden: every row about it leaves the
    // others' views, wherever they look.
    await ctx.database.db
      .update(lootInstances)
      .set({ isRevealed: false, revealedAt: null })
      .where(eq(lootInstances.id, w.loot.id));
    for (const user of [w.player, w.manager]) {
      expect((await partyLedger(w, user)).data.transactions.filter(mentionsLoot)).toEqual([]);
      expect(await csv(`/transactions/party/${w.party.id}`, user)).not.toContain(lootName);
      expect((await callApi(ctx, 'GET', `/transactions/${takeRowId}`, user)).statusCode).toBe(404);
    }
    const heroRowsHidden = body<{ transactions: LedgerTransaction[] }>(
      await callApi(ctx, 'GET', characterLedger, w.player),
    );
    expect(heroRowsHidden.data.transactions.map((t) => t.id)).not.toContain(takeRowId);
    expect(await csv(characterLedger, w.player)).not.toContain(lootName);
    const gmHeroRows = body<{ transactions: LedgerTransaction[] }>(
      await callApi(ctx, 'GET', characterLedger, w.gm),
    );
    expect(gmHeroRows.data.transactions.map((t) => t.id)).toContain(takeRowId);
    expect((await partyLedger(w, w.gm)).data.transactions.filter(mentionsLoot)).toHaveLength(5);

    // Deleted while hidden: its rows never reach the party, though the loot is gone.
    expect((await callApi(ctx, 'DELETE', `/loot_instances/${w.loot.id}`, w.gm)).statusCode).toBe(204);
    expect((await partyLedger(w, w.player)).data.transactions.filter(mentionsLoot)).toEqual([]);
    expect(await csv(`/transactions/party/${w.party.id}`, w.player)).not.toContain(lootName);
    expect((await partyLedger(w, w.gm)).data.transactions.filter(mentionsLoot).length).toBeGreaterThan(5);
  });
});

describe('taking and claiming', () => {
  it('is for members with a character, on revealed loot, into their own characters’ containers', async () => {
    const w = await world();
    const rope = stackOf(w.loot, 'Rope');
    const intoHero = {
      item_instance_id: rope.id,
      target_container_id: w.hero.primary_container_id,
      quantity: 1,
    };
    // Hidden: it does not exist for the player; the GM hears why it cannot be taken yet.
    expect((await take(w, w.player, intoHero)).statusCode).toBe(404);
    const gmEarly = await take(w, w.gm, intoHero);
    expect(gmEarly.statusCode).toBe(409);
    expect(body(gmEarly).error?.message).toBe('This loot has not been revealed yet');
    await reveal(w);

    const observer = await take(w, w.observer, {
      ...intoHero,
      target_container_id: w.observerHero.primary_container_id,
    });
    // DESIGN §4: observers only read; the refusal names the role, not a character they do have.
    expect(observer.statusCode).toBe(403);
    expect(body(observer).error).toMatchObject({ code: 'FORBIDDEN', message: 'Observers cannot take loot.' });
    // A player without a character hears what they lack.
    const newcomer = await createMember(ctx, w.party, 'player');
    const characterless = await take(w, newcomer, intoHero);
    expect(characterless.statusCode).toBe(403);
    expect(body(characterless).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You need a character in this party to take loot.',
    });
    expect((await take(w, w.outsider, intoHero)).statusCode).toBe(404);
    const notMine = await take(w, w.player, {
      ...intoHero,
      target_container_id: w.managerHero.primary_container_id,
    });
    expect(notMine.statusCode).toBe(422);
    expect(body(notMine).error?.details?.[0]).toEqual({
      field: 'target_container_id',
      message: 'Choose a container of one of your characters in this party.',
    });
    for (const [payload, field] of [
      [{ ...intoHero, quantity: 0 }, 'quantity'],
      [{ ...intoHero, quantity: 'lots' }, 'quantity'],
      [{ ...intoHero, item_instance_id: 'rope' }, 'item_instance_id'],
      [{ item_instance_id: rope.id }, 'target_container_id'],
    ] as const) {
      const res = await take(w, w.player, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }

    // The player is on the free plan: taking loot is open to every member, counted as a party action.
    const took = await take(w, w.player, { take: { ...intoHero, quantity: 2 } });
    expect(took.statusCode).toBe(200);
    expect(body<LootTakeResult>(took)).toMatchObject({
      message: 'Item taken successfully',
      data: { kind: 'take', quantity: 2, item_instances: [{ name: 'Rope', quantity: 2 }] },
    });
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, w.player.user.id);
    expect(usage.inventory_actions_party_monthly).toEqual({ used: 1, limit: 200 });
    // Taking again tops up the same stack (DESIGN §4 stacking).
    const again = body<LootTakeResult>(await take(w, w.player, intoHero)).data;
    expect(again.item_instances[0]).toMatchObject({
      quantity: 3,
      id: body<LootTakeResult>(took).data.item_instances[0]?.id,
    });
    const tooMany = await take(w, w.manager, {
      ...intoHero,
      target_container_id: w.managerHero.primary_container_id,
      quantity: 3,
    });
    expect(tooMany.statusCode).toBe(409);
    expect(body(tooMany).error?.message).toBe('Only 2 left in this loot.');
    expect(
      (
        await take(w, w.manager, {
          ...intoHero,
          target_container_id: w.managerHero.primary_container_id,
          quantity: 2,
        })
      ).statusCode,
    ).toBe(200);
    const gone = await take(w, w.player, intoHero);
    expect(gone.statusCode).toBe(409);
    expect(body(gone).error?.message).toBe('Someone has already taken that item.');
    const nowhere = await take(w, w.player, { ...intoHero, item_instance_id: unknownId });
    expect(nowhere.statusCode).toBe(404);
    expect(body(nowhere).error?.message).toBe('That item is not in this loot.');

    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.lootInstanceId, w.loot.id), eq(transactions.transactionType, 'loot')))
      .orderBy(transactions.transactionDate)
      .limit(1);
    expect(row).toMatchObject({
      actorName: w.player.user.username,
      targetName: w.hero.name,
      characterId: w.hero.id,
      itemName: 'Rope',
      quantity: 2,
      scope: 'party',
      gmOnly: false,
      sourceName: 'Loot (Goblin Stash)',
      destinationName: expect.stringContaining(`(${w.hero.name})`),
    });
    const detail = body<LootInstance>(await get(w, w.player)).data;
    expect(detail.claimed_by.map((c) => c.name).sort()).toEqual([w.hero.name, w.managerHero.name].sort());
    expect(detail.container.item_instances.map((i) => i.name)).toEqual(['Gold piece', 'Sword', 'Sword']);
  });

  it('claims a whole line for my character, or for anyone in the party when the GM claims', async () => {
    const w = await world();
    const revealed = await reveal(w);
    const [first, second] = revealed.container.item_instances.filter((i) => i.name === 'Sword');
    const someoneElse = await claim(w, w.player, {
      item_instance_id: first?.id,
      character_id: w.managerHero.id,
    });
    expect(someoneElse.statusCode).toBe(422);
    expect(body(someoneElse).error?.details?.[0]).toEqual({
      field: 'claim.character_id',
      message: 'Choose one of your characters in this party.',
    });
    const claimed = await claim(w, w.player, { item_instance_id: first?.id, character_id: w.hero.id });
    expect(claimed.statusCode).toBe(200);
    expect(body<LootTakeResult>(claimed)).toMatchObject({
      message: 'Item claimed successfully',
      // Both swords: a stack each, one line in the loot.
      data: {
        kind: 'claim',
        quantity: 2,
        item_instances: [
          { name: 'Sword', container_id: w.hero.primary_container_id },
          { name: 'Sword', container_id: w.hero.primary_container_id },
        ],
      },
    });
    const gold = stackOf(revealed, 'Gold piece');
    const byGm = await claim(w, w.gm, { item_instance_id: gold.id, character_id: w.hero.id });
    expect(body<LootTakeResult>(byGm).data).toMatchObject({
      quantity: 30,
      item_instances: [{ name: 'Gold piece' }],
    });
    const outsiderHero = await createCharacter(ctx, w.outsider);
    const notInParty = await claim(w, w.gm, { item_instance_id: second?.id, character_id: outsiderHero.id });
    expect(body(notInParty).error?.details?.[0]?.message).toBe('Choose a character in this party.');
    const byObserver = await claim(w, w.observer, {
      item_instance_id: second?.id,
      character_id: w.observerHero.id,
    });
    expect(byObserver.statusCode).toBe(403);
    expect(body(byObserver).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Observers cannot take loot.',
    });
    expect(
      (
        await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/claim`, w.player, {
          item_instance_id: second?.id,
        })
      ).statusCode,
    ).toBe(422);
    const again = await claim(w, w.player, { item_instance_id: first?.id, character_id: w.hero.id });
    expect(again.statusCode).toBe(409);
  });

  it('refuses whole what does not fit the character’s container, with the capacity message', async () => {
    const w = await world({ encumbrance: 'both' });
    const revealed = await reveal(w);
    const res = await take(w, w.player, {
      item_instance_id: stackOf(revealed, 'Rope').id,
      target_container_id: w.hero.primary_container_id,
      quantity: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(body(res).error).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
      message: 'Item(s) would exceed weight limit',
    });
    expect(stackOf(body<LootInstance>(await get(w, w.player)).data, 'Rope').quantity).toBe(5);
    // Counted nothing either.
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, w.player.user.id);
    expect(usage.inventory_actions_party_monthly.used).toBe(0);
  });

  it('takes and claims a line of identical stacks as the loot page groups it: the named stack first', async () => {
    // Swords do not stack: three of them lie in the loot as three stacks, listed as one line of 3.
    const w = await world({
      lines: (t) => [
        { item_template_id: t.sword.id, quantity: 3 },
        { item_template_id: t.rope.id, quantity: 5 },
      ],
    });
    const revealed = await reveal(w);
    const swords = revealed.container.item_instances.filter((i) => i.name === 'Sword');
    expect(swords).toHaveLength(3);
    const [named, , last] = swords;
    const intoHero = { item_instance_id: last?.id, target_container_id: w.hero.primary_container_id };

    const tooMany = await take(w, w.player, { ...intoHero, quantity: 4 });
    expect(tooMany.statusCode).toBe(409);
    expect(body(tooMany).error?.message).toBe('Only 3 left in this loot.');

    const took = await take(w, w.player, { ...intoHero, quantity: 2 });
    expect(took.statusCode).toBe(200);
    expect(body<LootTakeResult>(took).data.quantity).toBe(2);
    expect(body<LootTakeResult>(took).data.item_instances).toHaveLength(2);
    // The named stack went first, then the line's oldest.
    const left = body<LootInstance>(await get(w, w.player)).data.container.item_instances;
    expect(left.filter((i) => i.name === 'Sword').map((i) => i.id)).toEqual(
      swords.filter((s) => s.id !== last?.id && s.id !== named?.id).map((s) => s.id),
    );
    // One ledger row, one action, naming every stack it took from; the first of them, taken again, says so.
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.lootInstanceId, w.loot.id), eq(transactions.transactionType, 'loot')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ itemName: 'Sword', quantity: 2, scope: 'party' });
    expect(rows[0]?.details).toMatchObject({
      source_item_instance_id: last?.id,
      source_item_instance_ids: [last?.id, named?.id],
      value_cp: 2 * 1500,
    });
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, w.player.user.id);
    expect(usage.inventory_actions_party_monthly.used).toBe(1);
    const gone = await take(w, w.player, { ...intoHero, item_instance_id: named?.id, quantity: 1 });
    expect(gone.statusCode).toBe(409);
    expect(body(gone).error?.message).toBe('Someone has already taken that item.');

    // A claim is the whole line: the GM claims the rest of the swords, and only the swords.
    const [rest] = left.filter((i) => i.name === 'Sword');
    const claimed = await claim(w, w.gm, { item_instance_id: rest?.id, character_id: w.managerHero.id });
    expect(body<LootTakeResult>(claimed).data).toMatchObject({ kind: 'claim', quantity: 1 });
    const after = body<LootInstance>(await get(w, w.gm)).data.container.item_instances;
    expect(after.map((i) => [i.name, i.quantity])).toEqual([['Rope', 5]]);
  });

  it('claims every identical stack of the line at once', async () => {
    const w = await world({ lines: (t) => [{ item_template_id: t.sword.id, quantity: 3 }] });
    const revealed = await reveal(w);
    const [first] = revealed.container.item_instances;
    const claimed = await claim(w, w.player, { item_instance_id: first?.id, character_id: w.hero.id });
    expect(claimed.statusCode).toBe(200);
    expect(body<LootTakeResult>(claimed).data).toMatchObject({ kind: 'claim', quantity: 3 });
    expect(body<LootInstance>(await get(w, w.gm)).data.container.item_instances).toEqual([]);
  });

  it('racing claims of one line: exactly one wins, and its stacks end in exactly one place', async () => {
    const w = await world({ lines: (t) => [{ item_template_id: t.sword.id, quantity: 4 }] });
    const second = await createMember(ctx, w.party, 'player');
    const secondHero = await createCharacter(ctx, second, {
      partyId: w.party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const revealed = await reveal(w);
    const stacks = revealed.container.item_instances;
    // Each racer names a stack of the one line of four swords: whoever wins takes all four.
    const claimants = [
      [w.player, w.hero.id],
      [second, secondHero.id],
      [w.manager, w.managerHero.id],
      [w.gm, secondHero.id],
    ] as const;
    const answers = await Promise.all(
      claimants.map(([user, characterId], index) =>
        claim(w, user, { item_instance_id: stacks[index]?.id, character_id: characterId }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409]);
    for (const loser of answers.filter((a) => a.statusCode === 409))
      expect(body(loser).error?.message).toBe('Someone has already taken that item.');
    for (const stack of stacks) {
      const rows = await ctx.database.db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.lootInstanceId, w.loot.id),
            sql`${transactions.details}->'source_item_instance_ids' @> ${JSON.stringify([stack.id])}::jsonb`,
          ),
        );
      expect(rows).toHaveLength(1);
    }
    const swords = await ctx.database.db
      .select({ container: itemInstances.containerId, n: sql<number>`sum(${itemInstances.quantity})::int` })
      .from(itemInstances)
      .where(eq(itemInstances.itemTemplateId, w.sword.id))
      .groupBy(itemInstances.containerId);
    expect(swords.reduce((sum, r) => sum + r.n, 0)).toBe(4);
    expect(swords.some((r) => r.container === w.loot.container.id)).toBe(false);
  });

  it('racing takes never take more than there is', async () => {
    const w = await world({ lines: (t) => [{ item_template_id: t.rope.id, quantity: 5 }] });
    const revealed = await reveal(w);
    const rope = stackOf(revealed, 'Rope');
    const takers = [
      { user: w.player, bag: w.hero.primary_container_id },
      { user: w.manager, bag: w.managerHero.primary_container_id },
      { user: w.player, bag: w.hero.primary_container_id },
    ];
    const answers = await Promise.all(
      takers.map(({ user, bag }) =>
        take(w, user, { item_instance_id: rope.id, target_container_id: bag, quantity: 2 }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 409]);
    const detail = body<LootInstance>(await get(w, w.gm)).data;
    expect(stackOf(detail, 'Rope').quantity).toBe(1);
  });
});

describe('a party deleted with its loot', () => {
  it('destroys the contents through the ledger before the cascade', async () => {
    const w = await world();
    expect((await callApi(ctx, 'DELETE', `/parties/${w.party.id}`, w.gm)).statusCode).toBe(204);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, w.loot.container.id),
          eq(transactions.transactionType, 'container_deletion'),
        ),
      );
    expect(rows.map((r) => [r.itemName, r.quantity]).sort()).toEqual([
      ['Gold piece', 30],
      ['Rope', 5],
      ['Sword', 1],
      ['Sword', 1],
    ]);
    expect(
      await ctx.database.db.select().from(containers).where(eq(containers.id, w.loot.container.id)),
    ).toEqual([]);
  });
});
