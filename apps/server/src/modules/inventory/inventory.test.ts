import { inventoryMessages, successEnvelope, transferResultSchema } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { inventoryRepository } from './inventory.repository.js';

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: Record<string, number>;
  message?: string;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;
/** A transfer's answer is stringified without zod (typedJsonResponse): it must still be the contract's. */
const expectTransferAnswer = (response: { json(): unknown }) => {
  const answer = response.json();
  expect(successEnvelope(transferResultSchema).strict().parse(answer)).toEqual(answer);
};

async function items(user: SignedInUser, containerId: string) {
  const list = body(await call('GET', `/containers/${containerId}/items?per_page=100`, user)).data;
  return list.map((i) => ({ name: String(i.name), quantity: Number(i.quantity), id: String(i.id) }));
}

async function playerWithCharacter() {
  const player = await createUser(ctx);
  const character = await createCharacter(ctx, player);
  return { player, character, backpack: String(character.primary_container_id) };
}

describe('adding items and stacking', () => {
  it('adds 30 arrows as a full stack of 20 and a stack of 10, then tops up', async () => {
    const { player, backpack } = await playerWithCharacter();
    const arrow = await createTemplate(ctx, {
      name: 'Arrow',
      weight: 0.05,
      baseValue: 5,
      currency: 'cp',
      stackSize: 20,
    });
    const added = await call('POST', '/item_instances', player, {
      item_template_id: arrow.id,
      container_id: backpack,
      quantity: 30,
    });
    expect(added.statusCode).toBe(201);
    expect((await items(player, backpack)).map((i) => i.quantity).sort()).toEqual([10, 20]);
    await call('POST', '/item_instances', player, {
      item_instance: { item_template_id: arrow.id, container_id: backpack, quantity: 15 },
    });
    expect((await items(player, backpack)).map((i) => i.quantity).sort((a, b) => a - b)).toEqual([5, 20, 20]);
    const container = body(await call('GET', `/containers/${backpack}`, player)).data;
    expect(container).toMatchObject({
      items_count: 3,
      current_weight: 2.25,
      capacity: { used: 2.25, max: 50, slots_used: 3, slots_max: 20 },
    });
  });

  it('computes effective values and totals as spec/02 §3 says', async () => {
    const { player, backpack } = await playerWithCharacter();
    const sword = await createTemplate(ctx, { name: 'Longsword', weight: 3, baseValue: 15, currency: 'gp' });
    const [created] = body(
      await call('POST', '/item_instances', player, { item_template_id: sword.id, container_id: backpack }),
    ).data;
    expect(created).toMatchObject({
      name: 'Longsword',
      weight: 3,
      totalWeight: 3,
      value: 15,
      totalValue: 15,
      currency: 'gp',
    });
    const renamed = await call('PATCH', `/item_instances/${created?.id}`, player, {
      item_instance: {
        name: 'Sting',
        instance_data: { value_override: 2, currency_override: 'pp', is_equipped: true, durability: 80 },
      },
    });
    expect(body(renamed).data).toMatchObject({ name: 'Sting', value: 2, currency: 'pp', totalValue: 20 });
    expect(body(renamed).data.instance_data).toMatchObject({
      name_override: 'Sting',
      is_equipped: true,
      durability: 80,
    });
  });

  it('refuses what does not fit with the spec messages and changes nothing', async () => {
    const player = await createUser(ctx);
    const character = await createCharacter(ctx, player, { maxWeight: 10, maxSlots: 2 });
    const backpack = String(character.primary_container_id);
    const anvil = await createTemplate(ctx, { name: 'Anvil', weight: 8 });
    await call('POST', '/item_instances', player, { item_template_id: anvil.id, container_id: backpack });
    const heavy = await call('POST', '/item_instances', player, {
      item_template_id: anvil.id,
      container_id: backpack,
    });
    expect(heavy.statusCode).toBe(422);
    expect(body(heavy).error).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
      message: inventoryMessages.weightExceeded,
    });
    const feather = await createTemplate(ctx, { name: 'Feather', weight: 0 });
    await call('POST', '/item_instances', player, { item_template_id: feather.id, container_id: backpack });
    const third = await call('POST', '/item_instances', player, {
      item_template_id: feather.id,
      container_id: backpack,
    });
    expect(body(third).error.message).toBe(inventoryMessages.slotsExceeded);
    expect(await items(player, backpack)).toHaveLength(2);
  });

  it('refuses private templates of others, bad input and strangers', async () => {
    const { player, backpack } = await playerWithCharacter();
    const other = await createUser(ctx);
    const secret = await createTemplate(ctx, { visibility: 'private', creatorId: other.user.id });
    expect(
      (await call('POST', '/item_instances', player, { item_template_id: secret.id, container_id: backpack }))
        .statusCode,
    ).toBe(422);
    const rope = await createTemplate(ctx);
    expect(
      (await call('POST', '/item_instances', other, { item_template_id: rope.id, container_id: backpack }))
        .statusCode,
    ).toBe(404);
    for (const payload of [
      {},
      { item_template_id: 'x', container_id: backpack },
      { item_template_id: rope.id, container_id: backpack, quantity: 0 },
      { item_template_id: rope.id, container_id: backpack, quantity: 'many' },
    ]) {
      expect((await call('POST', '/item_instances', player, payload)).statusCode).toBe(422);
    }
    expect(
      (
        await call('POST', '/item_instances', undefined, {
          item_template_id: rope.id,
          container_id: backpack,
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('containers', () => {
  it('refuses a limit lower than what the container already holds, naming it', async () => {
    const { player, character } = await playerWithCharacter();
    const bag = body(
      await call('POST', `/characters/${character.id}/containers`, player, { container: { name: 'Bag' } }),
    ).data;
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 1, stackSize: 0 });
    const torch = await createTemplate(ctx, { name: 'Torch', weight: 0.5 });
    await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: bag.id,
      quantity: 3,
    });
    await call('POST', '/item_instances', player, { item_template_id: torch.id, container_id: bag.id });
    const lowered = await call('PATCH', `/containers/${bag.id}`, player, {
      container: { max_weight: 2, max_slots: 1 },
    });
    expect(lowered.statusCode).toBe(422);
    expect(body(lowered).error.details).toEqual([
      {
        field: 'container.max_weight',
        message: 'This container already holds 3.5 lbs: its max weight cannot be lower',
      },
      {
        field: 'container.max_slots',
        message: 'This container already holds 2 stacks: its max slots cannot be lower',
      },
    ]);
    // Exactly what it holds, or no limit at all, is fine.
    const exact = await call('PATCH', `/containers/${bag.id}`, player, {
      container: { max_weight: 3.5, max_slots: 2 },
    });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(
      (
        await call('PATCH', `/containers/${bag.id}`, player, {
          container: { max_weight: 0, max_slots: null },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('creates, lists, edits and deletes containers with the spec validation', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const bad = await call('POST', `/characters/${character.id}/containers`, player, {
      container: { name: '  ', max_weight: -1 },
    });
    expect(bad.statusCode).toBe(422);
    expect(body(bad).error.details).toContainEqual({
      field: 'container.name',
      message: inventoryMessages.containerNameRequired,
    });
    const quiver = await call('POST', `/characters/${character.id}/containers`, player, {
      container: { name: 'Quiver', max_slots: '', max_weight: 0 },
    });
    expect(quiver.statusCode).toBe(201);
    expect(body(quiver).data).toMatchObject({
      name: 'Quiver',
      capacity: { max: null, slots_max: null },
      owner: { type: 'character' },
    });
    const list = body(await call('GET', `/characters/${character.id}/containers`, player)).data;
    expect(list.map((c) => c.name)).toEqual(['Backpack', 'Quiver']);
    const quiverId = String(body(quiver).data.id);
    expect(
      body(await call('PATCH', `/containers/${quiverId}`, player, { container: { max_slots: 2 } })).data,
    ).toMatchObject({ max_slots: 2 });
    // A rename keeps what it does not send: the capacity set above and the description.
    await call('PATCH', `/containers/${quiverId}`, player, {
      container: { description: 'Fletched', max_weight: 5 },
    });
    expect(
      body(await call('PATCH', `/containers/${quiverId}`, player, { container: { name: 'Arrow case' } }))
        .data,
    ).toMatchObject({ name: 'Arrow case', description: 'Fletched', max_slots: 2, max_weight: 5 });
    expect((await call('DELETE', `/containers/${backpack}`, player)).statusCode).toBe(403);

    const rope = await createTemplate(ctx, { name: 'Rope' });
    await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: quiverId });
    const notEmpty = await call('DELETE', `/containers/${quiverId}`, player);
    expect(notEmpty.statusCode).toBe(409);
    expect(body(notEmpty).error.message).toBe(inventoryMessages.containerNotEmpty);
    expect(
      (
        await call(
          'DELETE',
          `/characters/${character.id}/containers/${quiverId}?destination_container_id=${backpack}`,
          player,
        )
      ).statusCode,
    ).toBe(204);
    expect((await items(player, backpack)).map((i) => i.name)).toEqual(['Rope']);
    const ledger = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.sourceContainerId, quiverId));
    expect(ledger.map((t) => t.transactionType).sort()).toEqual(['container_deletion', 'transfer']);
  });

  it('follows the party’s encumbrance style', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'slots' });
    const player = await createMember(ctx, party, 'player');
    const character = await createCharacter(ctx, player, { partyId: party.id, maxWeight: 1, maxSlots: 5 });
    const boulder = await createTemplate(ctx, { weight: 500 });
    const response = await call('POST', '/item_instances', player, {
      item_template_id: boulder.id,
      container_id: String(character.primary_container_id),
    });
    expect(response.statusCode).toBe(201);
    expect(
      body(await call('GET', `/containers/${character.primary_container_id}/capacity`, player)).data,
    ).toMatchObject({
      enforces: { weight: false, slots: true },
    });
  });
});

describe('the items of a container', () => {
  it('filters and pages, each filter alone, together, and again in another order', async () => {
    const { player, backpack } = await playerWithCharacter();
    const names = ['Lantern', 'Lamp oil', 'Rope', 'Rations'];
    for (const [i, name] of names.entries()) {
      const template = await createTemplate(ctx, {
        name,
        baseValue: (i + 1) * 10,
        metadata: { rarity: i % 2 === 0 ? 'common' : 'rare' },
      });
      const added = await call('POST', '/item_instances', player, {
        item_template_id: template.id,
        container_id: backpack,
      });
      expect(added.statusCode).toBe(201);
    }
    const list = async (query: string) => {
      const response = await call('GET', `/containers/${backpack}/items?${query}`, player);
      expect(response.statusCode, query).toBe(200);
      const answer = body(response);
      return { names: answer.data.map((i) => String(i.name)), total: answer.meta?.total_count };
    };
    // On PostgreSQL each shape of the query is its own prepared statement (db/statements.ts): asking the
    // shapes in turn, and the first again, checks that no two shapes share a name.
    for (let round = 0; round < 2; round++) {
      expect(await list('per_page=10')).toEqual({
        names: ['Lamp oil', 'Lantern', 'Rations', 'Rope'],
        total: 4,
      });
      expect(await list('per_page=2&page=2')).toEqual({ names: ['Rations', 'Rope'], total: 4 });
      expect(await list('per_page=2&page=3')).toEqual({ names: [], total: 4 });
      expect(await list('search=la')).toEqual({ names: ['Lamp oil', 'Lantern'], total: 2 });
      expect(await list('rarity=rare')).toEqual({ names: ['Lamp oil', 'Rations'], total: 2 });
      expect(await list('min_value=25')).toEqual({ names: ['Rations', 'Rope'], total: 2 });
      expect(await list('max_value=25')).toEqual({ names: ['Lamp oil', 'Lantern'], total: 2 });
      expect(await list('search=r&rarity=common&min_value=25&max_value=35')).toEqual({
        names: ['Rope'],
        total: 1,
      });
      expect(await list('search=a&per_page=1&page=2')).toEqual({ names: ['Lantern'], total: 3 });
    }
  });

  it('leaves unpriced items out of a value range, unless an override gives them a value', async () => {
    // An unpriced item (contracts isUnpricedItem: the SRD gives it no price) has no value to compare, so
    // "max 10 gp" must not list a Bag of Holding as worth 0; the catalogue search does the same.
    const { player, backpack } = await playerWithCharacter();
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp' });
    const bag = await createTemplate(ctx, {
      name: 'Bag of Holding',
      baseValue: 0,
      currency: 'gp',
      metadata: { rarity: 'uncommon', priced: false },
    });
    const add = async (payload: Record<string, unknown>) => {
      const added = await call('POST', '/item_instances', player, { container_id: backpack, ...payload });
      expect(added.statusCode, added.body).toBe(201);
      return String(body(added).data[0]?.id);
    };
    await add({ item_template_id: rope.id });
    const unpriced = await add({ item_template_id: bag.id });
    await add({
      item_template_id: bag.id,
      instance_data: { name_override: 'Appraised bag', value_override: 5 },
    });
    const list = async (query: string) => {
      const response = await call('GET', `/containers/${backpack}/items?${query}`, player);
      expect(response.statusCode, query).toBe(200);
      const answer = body(response);
      return { names: answer.data.map((i) => String(i.name)), total: answer.meta?.total_count };
    };
    const everything = ['Appraised bag', 'Bag of Holding', 'Rope'];
    expect(await list('')).toEqual({ names: everything, total: 3 });
    expect(await list('rarity=uncommon')).toEqual({ names: ['Appraised bag', 'Bag of Holding'], total: 2 });
    const ranges: [string, string[]][] = [
      ['min_value=0', ['Appraised bag', 'Rope']],
      ['max_value=10', ['Appraised bag', 'Rope']],
      ['max_value=0', []],
      ['min_value=0&max_value=4', ['Rope']],
      ['min_value=5&max_value=5', ['Appraised bag']],
      ['search=bag&max_value=10', ['Appraised bag']],
    ];
    // Twice: the second round is answered from the kept pages (issue 13 §3), which must agree.
    for (let round = 0; round < 2; round++) {
      for (const [query, names] of ranges) {
        expect(await list(query), query).toEqual({ names, total: names.length });
      }
    }
    // A page past the end counts the range's items alone.
    expect(await list('min_value=0&per_page=1&page=5')).toEqual({ names: [], total: 2 });
    expect(await list('max_value=10&per_page=1&page=2')).toEqual({ names: ['Rope'], total: 2 });

    // The same through the repository inside a transaction (drizzle's prepared select, not the fast path).
    const filter = { page: 1, perPage: 10, maxValueCp: 1_000 };
    const inTransaction = await ctx.database.db.transaction((tx) =>
      inventoryRepository.listItems(tx, backpack, filter),
    );
    expect(inTransaction.rows.map((r) => r.template.name)).toEqual(['Bag of Holding', 'Rope']);
    expect(inTransaction.total).toBe(2);
    expect(await inventoryRepository.listItems(ctx.database.db, backpack, filter)).toEqual(inTransaction);

    // And across containers (GET /item_instances, the same filters).
    const instances = await call('GET', `/item_instances?container_id=${backpack}&max_value=10`, player);
    expect(body(instances).data.map((i) => String(i.name))).toEqual(['Appraised bag', 'Rope']);
    expect(
      body(await call('GET', `/item_instances?container_id=${backpack}`, player)).data.map((i) =>
        String(i.name),
      ),
    ).toEqual(everything);

    // Once appraised, the bag is in range: the kept page of that range is not answered again.
    const appraised = await call('PATCH', `/item_instances/${unpriced}`, player, {
      item_instance: { instance_data: { value_override: 8 } },
    });
    expect(appraised.statusCode, appraised.body).toBe(200);
    expect(await list('max_value=10')).toEqual({ names: everything, total: 3 });
    expect(await list('min_value=0&max_value=4')).toEqual({ names: ['Rope'], total: 1 });
  });

  it('finds items by their template’s tags too: "potion" finds the oil tagged potion', async () => {
    const { player, backpack } = await playerWithCharacter();
    for (const [name, tags] of [
      ['Oil of Etherealness', ['potion', 'category:potion']],
      ['Potion of Speed', []],
      ['Rope', ['gear']],
    ] as const) {
      const template = await createTemplate(ctx, { name, tags: [...tags] });
      await call('POST', '/item_instances', player, {
        item_template_id: template.id,
        container_id: backpack,
      });
    }
    const response = await call('GET', `/containers/${backpack}/items?search=potion`, player);
    expect(body(response).data.map((i) => String(i.name))).toEqual([
      'Oil of Etherealness',
      'Potion of Speed',
    ]);
    const gear = await call('GET', `/containers/${backpack}/items?search=GEA`, player);
    expect(body(gear).data.map((i) => String(i.name))).toEqual(['Rope']);
  });

  it('reads a page outside drizzle’s select exactly as drizzle’s select reads it', async () => {
    const { backpack } = await playerWithCharacter();
    for (const [i, name] of ['Lantern', 'Lamp oil', 'Rope'].entries()) {
      const template = await createTemplate(ctx, {
        name,
        weight: 1.25 * (i + 1),
        baseValue: (i + 1) * 10,
        tags: ['gear', `tag ${i}`],
        metadata: { rarity: i === 1 ? 'rare' : 'common' },
      });
      await ctx.database.db.insert(itemInstances).values({
        containerId: backpack,
        itemTemplateId: template.id,
        quantity: 3_000_000_000 + i,
        notes: i === 0 ? 'dented' : '',
        isIdentified: i !== 2,
        instanceData: i === 0 ? { name_override: 'Lamp of Ages', value_override: 7 } : {},
      });
    }
    const filters = [
      { page: 1, perPage: 10 },
      { page: 2, perPage: 2 },
      { page: 1, perPage: 10, search: 'la', rarity: 'common', minValueCp: 5, maxValueCp: 5_000 },
    ];
    for (const filter of filters) {
      // The fast path runs on the database itself; inside a transaction the page is drizzle's select.
      const fast = await inventoryRepository.listItems(ctx.database.db, backpack, filter);
      const drizzle = await ctx.database.db.transaction((tx) =>
        inventoryRepository.listItems(tx, backpack, filter),
      );
      expect(fast.rows.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(fast).toEqual(drizzle);
      expect(fast.rows[0]?.instance.createdAt).toBeInstanceOf(Date);
    }
  });
});

describe('who may act', () => {
  it('applies DESIGN §4 to party and character containers', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const stash = await call('POST', `/parties/${party.id}/containers`, gm, {
      container: { name: 'Party Stash' },
    });
    expect(stash.statusCode).toBe(201);
    const stashId = String(body(stash).data.id);
    const player = await createMember(ctx, party, 'player');
    const observer = await createMember(ctx, party, 'observer');
    const stranger = await createUser(ctx);
    const rope = await createTemplate(ctx, { name: 'Rope' });
    const add = (user: SignedInUser) =>
      call('POST', '/item_instances', user, { item_template_id: rope.id, container_id: stashId });

    expect((await add(player)).statusCode, 'player without a character').toBe(403);
    expect((await add(observer)).statusCode).toBe(403);
    expect((await add(stranger)).statusCode).toBe(404);
    expect((await call('GET', `/containers/${stashId}/items`, observer)).statusCode).toBe(200);
    expect((await call('GET', `/containers/${stashId}/items`, stranger)).statusCode).toBe(404);
    const character = await createCharacter(ctx, player, { partyId: party.id });
    // Acting on the stash also needs party_collaboration (inventory.features.test.ts).
    await upgrade(ctx, player, 'tier_1');
    expect((await add(player)).statusCode).toBe(201);
    expect((await add(gm)).statusCode).toBe(201);

    // The GM may act on a player's containers; another member may only look.
    const backpack = String(character.primary_container_id);
    expect(
      (await call('POST', '/item_instances', gm, { item_template_id: rope.id, container_id: backpack }))
        .statusCode,
    ).toBe(201);
    expect(
      (await call('POST', '/item_instances', observer, { item_template_id: rope.id, container_id: backpack }))
        .statusCode,
    ).toBe(403);
    expect((await call('GET', `/containers/${backpack}`, observer)).statusCode).toBe(200);
    expect(body(await call('GET', `/containers/${backpack}`, observer)).data.can_act).toBe(false);
  });
});

describe('transfers', () => {
  it('moves part of a stack, stacks on arrival, and writes the ledger', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const quiver = String(
      body(
        await call('POST', `/characters/${character.id}/containers`, player, {
          container: { name: 'Quiver' },
        }),
      ).data.id,
    );
    const arrow = await createTemplate(ctx, {
      name: 'Arrow',
      weight: 0.05,
      stackSize: 20,
      baseValue: 5,
      currency: 'cp',
    });
    await call('POST', '/item_instances', player, {
      item_template_id: arrow.id,
      container_id: backpack,
      quantity: 20,
    });
    await call('POST', '/item_instances', player, {
      item_template_id: arrow.id,
      container_id: quiver,
      quantity: 15,
    });
    const [stack] = await items(player, backpack);
    const moved = await call('POST', '/containers/transfer', player, {
      item_instance_id: stack?.id,
      source_container_id: backpack,
      target_container_id: quiver,
      quantity: 8,
    });
    expect(moved.statusCode).toBe(200);
    expect(body(moved).message).toBe('Item transferred successfully');
    expect(body(moved).data).toMatchObject({ success: true, moved: 8, source_instance: { quantity: 12 } });
    expectTransferAnswer(moved);
    expect((await items(player, quiver)).map((i) => i.quantity).sort((a, b) => a - b)).toEqual([3, 20]);
    const [entry] = body(
      await call('GET', `/transactions/character/${character.id}?transaction_type=transfer`, player),
    ).data.transactions as unknown as Record<string, unknown>[];
    expect(entry).toMatchObject({
      transaction_type: 'transfer',
      quantity: 8,
      transactable_data: { name: 'Arrow' },
      actor_data: { name: player.user.username },
      source_location_data: { id: backpack },
      destination_location_data: { id: quiver },
    });
  });

  it('refuses the same container, more than the stack, and moves that do not fit, changing nothing', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const pouch = String(
      body(
        await call('POST', `/characters/${character.id}/containers`, player, {
          container: { name: 'Pouch', max_weight: 1 },
        }),
      ).data.id,
    );
    const brick = await createTemplate(ctx, { name: 'Brick', weight: 2, stackSize: 10 });
    const [created] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: brick.id,
        container_id: backpack,
        quantity: 3,
      }),
    ).data;
    const base = { item_instance_id: created?.id, source_container_id: backpack };
    const same = await call('POST', '/containers/transfer', player, {
      ...base,
      target_container_id: backpack,
    });
    expect(body(same).error.message).toBe(inventoryMessages.sameContainer);
    // One more than the stack holds is refused for what it is, before any question of room.
    const tooMany = await call('POST', '/containers/transfer', player, {
      ...base,
      target_container_id: pouch,
      quantity: 4,
    });
    expect(tooMany.statusCode).toBe(422);
    expect(body(tooMany).error.details).toEqual([
      { field: 'quantity', message: inventoryMessages.quantityTooLarge },
    ]);
    const heavy = await call('POST', '/containers/transfer', player, {
      ...base,
      target_container_id: pouch,
      quantity: 1,
    });
    expect(body(heavy).error).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
      message: inventoryMessages.weightExceeded,
    });
    expect((await items(player, backpack)).map((i) => i.quantity)).toEqual([3]);
    expect(await items(player, pouch)).toEqual([]);
    const missingDestination = await call('POST', '/containers/transfer', player, { ...base });
    expect(body(missingDestination).error.details?.[0]).toMatchObject({
      field: 'target_container_id',
      message: 'Please select a destination',
    });
  });

  it('names deposits, withdrawals and the GM’s moves between characters and the party, and checks both ends', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const stashId = String(
      body(await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Stash' } })).data
        .id,
    );
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_1');
    const character = await createCharacter(ctx, player, { partyId: party.id });
    const backpack = String(character.primary_container_id);
    const gem = await createTemplate(ctx, { name: 'Gem', weight: 0, baseValue: 50 });
    const [created] = body(
      await call('POST', '/item_instances', player, { item_template_id: gem.id, container_id: backpack }),
    ).data;
    const outsider = await createUser(ctx);
    const theirs = await createCharacter(ctx, outsider);
    const foreign = await call('POST', '/containers/transfer', player, {
      item_instance_id: created?.id,
      source_container_id: backpack,
      target_container_id: theirs.primary_container_id,
    });
    expect(foreign.statusCode).toBe(404);
    const deposit = await call('POST', `/characters/${character.id}/transfer_item`, player, {
      item_instance_id: created?.id,
      from_container_id: backpack,
      to_container_id: stashId,
    });
    expect(deposit.statusCode).toBe(200);
    expectTransferAnswer(deposit);
    // Issue 14: the player putting into and taking out of the stash deposits and withdraws (spec/02 §3);
    // the GM moving someone else's character's things is a transfer between character and party.
    // The gem is a new stack wherever it arrives.
    let gemId = String((body(deposit).data.target_instances as unknown as { id: string }[])[0]?.id);
    const move = async (user: SignedInUser, from: string, to: string) => {
      const moved = await call('POST', '/containers/transfer', user, {
        item_instance_id: gemId,
        source_container_id: from,
        target_container_id: to,
      });
      expect(moved.statusCode).toBe(200);
      gemId = String((body(moved).data.target_instances as unknown as { id: string }[])[0]?.id);
    };
    await move(player, stashId, backpack);
    await move(gm, backpack, stashId);
    await move(gm, stashId, backpack);
    const partyLedger = body(await call('GET', `/transactions/party/${party.id}?per_page=50`, gm)).data
      .transactions as unknown as { transaction_type: string; actor_data: { id: string } }[];
    const moves = partyLedger
      .filter((t) => t.transaction_type.includes('party'))
      .map((t) => [t.transaction_type, t.actor_data.id])
      .reverse();
    expect(moves).toEqual([
      ['party_deposit', player.user.id],
      ['party_withdraw', player.user.id],
      ['character_to_party_transfer', gm.user.id],
      ['party_to_character_transfer', gm.user.id],
    ]);
    const filtered = body(
      await call('GET', `/transactions/character/${character.id}?transaction_type=party_deposit`, player),
    );
    expect(filtered.meta?.total_count).toBe(1);
    expect((await call('GET', `/transactions/party/${party.id}`, outsider)).statusCode).toBe(404);
  });
  it('lets a GM without a character hand out starting items from the stash and pass them between players', async () => {
    // What the party's Inventory tab and a container page offer such a GM (DESIGN §4 Who may act).
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const [stash] = body(await call('GET', `/parties/${party.id}/containers`, gm)).data;
    const stashId = String(stash?.id);
    const players = await Promise.all([
      createMember(ctx, party, 'player'),
      createMember(ctx, party, 'player'),
    ]);
    const [aria, brom] = await Promise.all(
      players.map((player) => createCharacter(ctx, player, { partyId: party.id })),
    );
    const partyCharacters = body(await call('GET', `/characters?party_id=${party.id}`, gm)).data;
    expect(partyCharacters.map((c) => c.is_owner)).toEqual([false, false]);
    const torch = await createTemplate(ctx, { name: 'Torch', weight: 1, stackSize: 10 });
    const [torches] = body(
      await call('POST', '/item_instances', gm, {
        item_template_id: torch.id,
        container_id: stashId,
        quantity: 4,
      }),
    ).data;

    const move = async (id: string, from: string, to: string, quantity: number) => {
      const moved = await call('POST', '/containers/transfer', gm, {
        item_instance_id: id,
        source_container_id: from,
        target_container_id: to,
        quantity,
      });
      expect(moved.statusCode).toBe(200);
      expectTransferAnswer(moved);
      return String((body(moved).data.target_instances as unknown as { id: string }[])[0]?.id);
    };
    const ariasPack = String(aria?.primary_container_id);
    const bromsPack = String(brom?.primary_container_id);
    const ariasTorches = await move(String(torches?.id), stashId, ariasPack, 3);
    await move(ariasTorches, ariasPack, bromsPack, 1);
    expect((await items(gm, stashId)).map((i) => i.quantity)).toEqual([1]);
    expect((await items(players[0] as SignedInUser, ariasPack)).map((i) => i.quantity)).toEqual([2]);
    expect((await items(players[1] as SignedInUser, bromsPack)).map((i) => i.quantity)).toEqual([1]);

    const rows = await ctx.database.db
      .select({ type: transactions.transactionType, actor: transactions.actorId })
      .from(transactions)
      .where(eq(transactions.itemTemplateId, torch.id));
    expect(rows.filter((row) => row.type !== 'item_creation')).toEqual([
      { type: 'party_to_character_transfer', actor: gm.user.id },
      { type: 'character_to_character_transfer', actor: gm.user.id },
    ]);
  });

  it('lets a GM without a character add marketplace items straight into a player’s container, not an outsider', async () => {
    // The marketplace's Add offers such a GM every party character's containers (DESIGN §4 Who may act).
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    const outsider = await createUser(ctx);
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 10, stackSize: 1 });
    const add = (user: SignedInUser) =>
      call('POST', '/item_instances', user, {
        item_template_id: rope.id,
        container_id: String(hero.primary_container_id),
        quantity: 1,
      });
    expect((await add(gm)).statusCode).toBe(201);
    expect((await add(outsider)).statusCode).toBe(404);
    expect((await items(player, String(hero.primary_container_id))).map((i) => i.quantity)).toEqual([1]);
    const [row] = await ctx.database.db
      .select({ type: transactions.transactionType, actor: transactions.actorId })
      .from(transactions)
      .where(eq(transactions.itemTemplateId, rope.id));
    expect(row).toEqual({ type: 'item_creation', actor: gm.user.id });
  });
});

describe('split, merge, adjust and destroy', () => {
  it('splits within 1 ≤ amount < quantity and merges back', async () => {
    const { player, backpack } = await playerWithCharacter();
    const arrow = await createTemplate(ctx, { name: 'Arrow', weight: 0.05, stackSize: 20 });
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: arrow.id,
        container_id: backpack,
        quantity: 10,
      }),
    ).data;
    for (const quantity of [0, 10, 11]) {
      const refused = await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity });
      expect(refused.statusCode, `split ${quantity}`).toBe(422);
    }
    const split = body(
      await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: 4 }),
    ).data;
    expect(split.map((s) => s.quantity)).toEqual([6, 4]);
    const merged = await call('POST', `/item_instances/${split[1]?.id}/merge`, player, {
      target_instance_id: stack?.id,
    });
    expect(body(merged).data).toMatchObject({ quantity: 10 });
    expect(await items(player, backpack)).toHaveLength(1);

    // Alike but too many together: the refusal says so, not that the stacks differ.
    const more = body(await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: 3 })).data;
    await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 19 } });
    const full = await call('POST', `/item_instances/${more[1]?.id}/merge`, player, {
      target_instance_id: stack?.id,
    });
    expect(full.statusCode).toBe(422);
    expect(body(full).error.details?.[0]).toMatchObject({
      field: 'target_instance_id',
      message: 'A stack of Arrow holds at most 20',
    });
    // One past stack_size is already too many; exactly stack_size merges.
    await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 18 } });
    const onePast = await call('POST', `/item_instances/${more[1]?.id}/merge`, player, {
      target_instance_id: stack?.id,
    });
    expect(onePast.statusCode).toBe(422);
    await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 17 } });
    const exact = await call('POST', `/item_instances/${more[1]?.id}/merge`, player, {
      target_instance_id: stack?.id,
    });
    expect(body(exact).data).toMatchObject({ quantity: 20 });
  });

  it('refuses a split that needs a slot the container does not have, and changes nothing', async () => {
    const player = await createUser(ctx);
    const character = await createCharacter(ctx, player, { maxWeight: null, maxSlots: 2 });
    const backpack = String(character.primary_container_id);
    const arrow = await createTemplate(ctx, { name: 'Arrow', weight: 0.05, stackSize: 20 });
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: arrow.id,
        container_id: backpack,
        quantity: 10,
      }),
    ).data;
    // The second slot is free: the split takes it.
    const split = await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: 4 });
    expect(split.statusCode).toBe(200);
    const refused = await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: 2 });
    expect(refused.statusCode).toBe(422);
    expect(body(refused).error).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
      message: inventoryMessages.slotsExceeded,
    });
    expect((await items(player, backpack)).map((i) => i.quantity).sort()).toEqual([4, 6]);
  });

  it('merges only within one container, and says so of alike stacks in two', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const pouch = body(
      await call('POST', '/containers', player, {
        container: { name: 'Belt pouch', character_id: character.id },
      }),
    ).data;
    const gold = await createTemplate(ctx, { name: 'Gold', weight: 0.02, stackSize: 0 });
    const add = async (containerId: string, quantity: number) =>
      body(
        await call('POST', '/item_instances', player, {
          item_template_id: gold.id,
          container_id: containerId,
          quantity,
        }),
      ).data[0];
    const inBackpack = await add(backpack, 10);
    const inPouch = await add(String(pouch.id), 5);
    // The stacks are alike: what keeps them apart is where they are (attack review).
    const merged = await call('POST', `/item_instances/${inBackpack?.id}/merge`, player, {
      target_instance_id: inPouch?.id,
    });
    expect(merged.statusCode).toBe(422);
    expect(body(merged).error.details).toEqual([
      {
        field: 'target_instance_id',
        message: 'Stacks can only be merged within one container: move one first.',
      },
    ]);
    expect((await items(player, backpack)).map((i) => i.quantity)).toEqual([10]);
    expect((await items(player, String(pouch.id))).map((i) => i.quantity)).toEqual([5]);
    // A stack the player cannot see anywhere is as if it did not exist: no word of where it is.
    const stranger = await playerWithCharacter();
    const theirs = body(
      await call('POST', '/item_instances', stranger.player, {
        item_template_id: gold.id,
        container_id: stranger.backpack,
        quantity: 1,
      }),
    ).data[0];
    const hidden = await call('POST', `/item_instances/${inBackpack?.id}/merge`, player, {
      target_instance_id: theirs?.id,
    });
    expect(hidden.statusCode).toBe(422);
    expect(body(hidden).error.details).toEqual([
      { field: 'target_instance_id', message: inventoryMessages.mergeDifferent },
    ]);
  });

  it('merges an attuned or equipped stack only with one in the same state, past no attunement limit', async () => {
    const { player, backpack } = await playerWithCharacter();
    const ring = await createTemplate(ctx, {
      name: 'Ring of Testing',
      stackSize: 20,
      metadata: { requires_attunement: true },
    });
    const add = async (quantity: number) =>
      body(
        await call('POST', '/item_instances', player, {
          item_template_id: ring.id,
          container_id: backpack,
          quantity,
        }),
      ).data[0];
    const attuned = await add(1);
    const attune = await call('PATCH', `/item_instances/${attuned?.id}`, player, {
      item_instance: { instance_data: { is_attuned: true } },
    });
    expect(attune.statusCode).toBe(200);
    const plain = await add(5);
    // Five plain rings into the attuned one would make six attuned, past the limit of three.
    const merged = await call('POST', `/item_instances/${plain?.id}/merge`, player, {
      target_instance_id: attuned?.id,
    });
    expect(merged.statusCode).toBe(422);
    expect(body(merged).error.details?.[0]).toEqual({
      field: 'target_instance_id',
      message: inventoryMessages.mergePersonalState,
    });
    const intoPlain = await call('POST', `/item_instances/${attuned?.id}/merge`, player, {
      target_instance_id: plain?.id,
    });
    expect(intoPlain.statusCode).toBe(422);
    const held = body(await call('GET', `/containers/${backpack}/items?per_page=100`, player)).data;
    const attunedOf = (i: { instance_data?: { is_attuned?: unknown } }) =>
      i.instance_data?.is_attuned === true;
    expect(held.map((i) => [i.quantity, attunedOf(i)]).sort()).toEqual([
      [1, true],
      [5, false],
    ]);

    // Two equipped halves of one stack still merge back.
    const arrow = await createTemplate(ctx, { name: 'Arrow', weight: 0.05, stackSize: 20 });
    const [quiver] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: arrow.id,
        container_id: backpack,
        quantity: 10,
      }),
    ).data;
    await call('PATCH', `/item_instances/${quiver?.id}`, player, {
      item_instance: { instance_data: { is_equipped: true } },
    });
    const halves = body(
      await call('POST', `/item_instances/${quiver?.id}/split`, player, { quantity: 4 }),
    ).data;
    const back = await call('POST', `/item_instances/${halves[1]?.id}/merge`, player, {
      target_instance_id: quiver?.id,
    });
    expect(back.statusCode).toBe(200);
    expect(body(back).data).toMatchObject({ quantity: 10 });
  });

  it('adjusts quantity within the stack size and destroys with a ledger row', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const torch = await createTemplate(ctx, { name: 'Torch', weight: 1, stackSize: 10 });
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: torch.id,
        container_id: backpack,
        quantity: 2,
      }),
    ).data;
    expect(
      (await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 11 } }))
        .statusCode,
    ).toBe(422);
    expect(
      body(await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 5 } }))
        .data,
    ).toMatchObject({ quantity: 5 });
    expect((await call('DELETE', `/item_instances/${stack?.id}`, player)).statusCode).toBe(204);
    const ledger = body(await call('GET', `/transactions/character/${character.id}?per_page=50`, player)).data
      .transactions as unknown as { transaction_type: string; quantity: number }[];
    expect(ledger.map((t) => [t.transaction_type, t.quantity])).toEqual(
      expect.arrayContaining([
        ['item_creation', 2],
        ['adjust', 3],
        ['item_destruction', 5],
      ]),
    );
  });
});

describe('currency conversion', () => {
  const convert = (user: SignedInUser, containerId: string, request: Record<string, unknown>) =>
    call('POST', `/containers/${containerId}/convert_currency`, user, request);
  it('turns 250 cp into 2 gp and 50 cp, and refuses what does not convert', async () => {
    const { player, backpack } = await playerWithCharacter();
    const cp = await coinTemplate(ctx, 'cp');
    await coinTemplate(ctx, 'gp');
    await call('POST', '/item_instances', player, {
      item_template_id: cp.id,
      container_id: backpack,
      quantity: 250,
    });
    const converted = await convert(player, backpack, {
      from: 'cp',
      to: 'gp',
    });
    expect(converted.statusCode).toBe(200);
    expect((await items(player, backpack)).map((i) => `${i.quantity} ${i.name}`).sort()).toEqual([
      '2 Gold piece',
      '50 Copper piece',
    ]);
    const uneven = await convert(player, backpack, {
      from: 'cp',
      to: 'gp',
      quantity: 30,
    });
    expect(uneven.statusCode).toBe(422);
    const same = await convert(player, backpack, {
      from: 'cp',
      to: 'cp',
      quantity: 10,
    });
    expect(same.statusCode).toBe(422);
    expect(body(same).error.details).toEqual([{ field: 'to', message: inventoryMessages.convertToSameCoin }]);
    const down = await convert(player, backpack, {
      from: 'gp',
      to: 'cp',
      quantity: 1,
    });
    expect(down.statusCode).toBe(200);
    expect((await items(player, backpack)).map((i) => `${i.quantity} ${i.name}`).sort()).toEqual([
      '1 Gold piece',
      '150 Copper piece',
    ]);
    // Asking for more coins than there are is said as such, not as an uneven amount.
    const short = await convert(player, backpack, {
      from: 'gp',
      to: 'cp',
      quantity: 2,
    });
    expect(short.statusCode).toBe(422);
    expect(body(short).error.details).toEqual([
      { field: 'quantity', message: inventoryMessages.notEnoughCoins },
    ]);
    expect(body(uneven).error.details).toEqual([
      { field: 'quantity', message: inventoryMessages.conversionUneven },
    ]);
  });
  it('refuses a conversion into coins the container cannot carry, changing nothing', async () => {
    const player = await createUser(ctx);
    const character = await createCharacter(ctx, player, { maxWeight: 1, maxSlots: null });
    const backpack = String(character.primary_container_id);
    const gp = await coinTemplate(ctx, 'gp');
    await coinTemplate(ctx, 'cp');
    await call('POST', '/item_instances', player, {
      item_template_id: gp.id,
      container_id: backpack,
      quantity: 1,
    });
    // 1 gp (0.02 lb) into 100 cp (2 lbs): 1.98 lbs more in a bag that holds 1 lb.
    const heavy = await convert(player, backpack, {
      from: 'gp',
      to: 'cp',
    });
    expect(heavy.statusCode).toBe(422);
    expect(body(heavy).error).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
      message: inventoryMessages.weightExceeded,
    });
    expect((await items(player, backpack)).map((i) => `${i.quantity} ${i.name}`)).toEqual(['1 Gold piece']);
  });
  it('marks only the seeded coins as money, not a look-alike template', async () => {
    const { player, backpack } = await playerWithCharacter();
    const gp = await coinTemplate(ctx, 'gp');
    const lookAlike = await createTemplate(ctx, { name: 'Gold piece', tags: ['currency'], stackSize: 0 });
    for (const template of [gp, lookAlike])
      await call('POST', '/item_instances', player, {
        item_template_id: template.id,
        container_id: backpack,
        quantity: 3,
      });
    const list = body(await call('GET', `/containers/${backpack}/items?per_page=100`, player))
      .data as unknown as {
      item_template_id: string;
      item_template: { coin: string | null };
    }[];
    const coinFor = (id: string) => list.find((i) => i.item_template_id === id)?.item_template.coin;
    expect(coinFor(gp.id)).toBe('gp');
    expect(coinFor(lookAlike.id)).toBeNull();
  });
});

describe('ledger reads', () => {
  it('filters by type and date, pages, and hides entries from strangers', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const rope = await createTemplate(ctx, { name: 'Rope' });
    for (let i = 0; i < 3; i++)
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: backpack });
    const page = body(
      await call(
        'GET',
        `/transactions/character/${character.id}?per_page=2&transaction_type=item_creation`,
        player,
      ),
    );
    expect(page.meta).toMatchObject({ total_count: 3, total_pages: 2, per_page: 2 });
    const today = new Date().toISOString().slice(0, 10);
    expect(
      body(await call('GET', `/transactions/character/${character.id}?start_date=${today}`, player)).meta
        ?.total_count,
    ).toBeGreaterThanOrEqual(5);
    expect(
      body(await call('GET', `/transactions/character/${character.id}?start_date=2999-01-01`, player)).meta
        ?.total_count,
    ).toBe(0);
    expect(
      (await call('GET', `/transactions/character/${character.id}?start_date=yesterday`, player)).statusCode,
    ).toBe(422);
    const id = (page.data.transactions as unknown as { id: string }[])[0]?.id;
    expect((await call('GET', `/transactions/${id}`, player)).statusCode).toBe(200);
    const stranger = await createUser(ctx);
    expect((await call('GET', `/transactions/${id}`, stranger)).statusCode).toBe(404);
    expect((await call('GET', `/transactions/character/${character.id}`, stranger)).statusCode).toBe(404);
  });
});

describe('monthly inventory actions', () => {
  it('stops a free user after 100 personal actions this month', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 0 });
    // 98 earlier actions this month, written straight to the ledger.
    await ctx.database.db.insert(transactions).values(
      Array.from({ length: 98 }, () => ({
        transactionType: 'adjust',
        actorId: player.user.id,
        characterId: character.id,
        scope: 'personal' as const,
        summary: 'earlier action',
      })),
    );
    const add = () =>
      call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: backpack });
    expect((await add()).statusCode).toBe(201);
    expect((await add()).statusCode).toBe(201);
    const refused = await add();
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(body(refused).error.message).toBe(
      'Your Free plan allows 100 personal inventory actions a month. Upgrade to keep going this month.',
    );
    expect(body(await call('GET', '/subscription/usage/inventory', player)).data).toMatchObject({
      personal: { used: 100, limit: 100 },
    });
  });
});

describe('deleting a character with gear', () => {
  it('destroys its items through the ledger', async () => {
    const { player, character, backpack } = await playerWithCharacter();
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 5 });
    await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: backpack,
      quantity: 3,
    });
    expect((await call('DELETE', `/characters/${character.id}`, player)).statusCode).toBe(204);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.characterId, String(character.id)));
    expect(
      rows
        .filter((r) => r.transactionType === 'character_deletion' && r.itemTemplateId === rope.id)
        .map((r) => r.quantity),
    ).toEqual([3]);
    // Every character's first container is a Backpack: the rows say whose, as a move's rows do.
    const whose = `Backpack (${character.name})`;
    expect(
      rows.find((r) => r.transactionType === 'character_deletion' && r.itemTemplateId === rope.id),
    ).toMatchObject({
      sourceName: whose,
      summary: `${player.user.username} destroyed 3 × Rope with ${whose}`,
    });
    expect(rows.find((r) => r.transactionType === 'container_deletion')?.sourceName).toBe(whose);
  });
});
