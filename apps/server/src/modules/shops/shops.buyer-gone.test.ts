import {
  type ShopInstance,
  type ShopRequest,
  type ShopTemplate,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * A pending purchase request whose buyer's character or container is deleted goes back on sale in the
 * deletion's own transaction, as one whose buyer leaves the party does: else it stays pending with its
 * goods off the shelf, and Approve can only answer 409.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const body = <T>(response: { json(): unknown }) =>
  response.json() as { data: T; error?: { message: string } };

async function count(containerId: string, templateId: string) {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
  return Number(row?.n ?? 0);
}

/** A party with a shop of 10 rope that waits for the GM on every purchase, and a player's character with a bag of coins. */
async function world() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Ropewalk' } }),
  ).data;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: 10, price_cp: 250 },
  });
  const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: template.id, party_id: party.id, approval_threshold_cp: 0 },
  });
  expect(deployed.statusCode).toBe(201);
  const shop = body<ShopInstance>(deployed).data;
  const made = await callApi(ctx, 'POST', '/containers', player, {
    container: { name: 'Coin bag', character_id: hero.id },
  });
  expect(made.statusCode, made.body).toBe(201);
  const bag = body<{ id: string }>(made).data.id;
  const gold = await coinTemplate(ctx, 'gp');
  await ctx.app.services.inventory.createInstance(
    { id: player.user.id, username: player.user.username },
    { item_template_id: gold.id, container_id: bag, quantity: 5 },
  );
  const stack = shop.container.item_instances[0];
  if (!stack || !hero.primary_container_id) throw new Error('world setup failed');
  const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
    purchase: {
      item_instance_id: stack.id,
      quantity: 2,
      buyer_character_id: hero.id,
      buyer_container_id: bag,
    },
  });
  expect(asked.statusCode, asked.body).toBe(202);
  const request = body<TradeResult>(asked).data.request as ShopRequest;
  const stock = shop.container.id;
  expect(await count(stock, rope.id)).toBe(8);
  return { gm, party, player, hero, backpack: hero.primary_container_id, bag, rope, shop, stock, request };
}
type World = Awaited<ReturnType<typeof world>>;

async function requestNow(w: World) {
  const listed = body<ShopRequest[]>(
    await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
  ).data;
  return listed.find((r) => r.id === w.request.id);
}

/** The goods are back on the shelf through the ledger, the hold is gone, and Approve has nothing to approve. */
async function expectReleased(w: World, status: 'cancelled' | 'declined') {
  expect(await count(w.stock, w.rope.id)).toBe(10);
  const hold = w.request.hold_container_id ?? '';
  expect(await ctx.database.db.select().from(containers).where(eq(containers.id, hold))).toEqual([]);
  const released = await ctx.database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.sourceContainerId, hold), eq(transactions.destinationContainerId, w.stock)));
  expect(released).toEqual([
    expect.objectContaining({
      transactionType: 'transfer',
      partyId: w.party.id,
      quantity: 2,
      details: expect.objectContaining({ hold: 'released', shop_request_id: w.request.id }),
    }),
  ]);
  expect(await replayLedger(ctx.database.db, [w.stock, hold])).toEqual(
    await actualContents(ctx.database.db, [w.stock, hold]),
  );
  const approved = await callApi(ctx, 'POST', `/shop_requests/${w.request.id}/approve`, w.gm);
  expect([approved.statusCode, body(approved).error?.message]).toEqual([
    409,
    shopMessages.requestDecided(status),
  ]);
}

describe('a purchase request whose buyer is deleted', () => {
  it('is cancelled when its player deletes the buyer’s character, in the same transaction', async () => {
    const w = await world();
    const deleted = await callApi(ctx, 'DELETE', `/characters/${w.hero.id}`, w.player);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await requestNow(w)).toMatchObject({
      status: 'cancelled',
      reason: shopMessages.requestCharacterDeleted,
    });
    await expectReleased(w, 'cancelled');
  });

  it('is cancelled when its player deletes the container it was for, its coins moved elsewhere', async () => {
    const w = await world();
    const deleted = await callApi(
      ctx,
      'DELETE',
      `/containers/${w.bag}?destination_container_id=${w.backpack}`,
      w.player,
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await requestNow(w)).toMatchObject({
      status: 'cancelled',
      reason: shopMessages.requestContainerDeleted,
    });
    await expectReleased(w, 'cancelled');
  });

  it('is declined, with the reason, when the GM deletes the container it was for', async () => {
    const w = await world();
    const deleted = await callApi(
      ctx,
      'DELETE',
      `/containers/${w.bag}?destination_container_id=${w.backpack}`,
      w.gm,
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await requestNow(w)).toMatchObject({
      status: 'declined',
      reason: shopMessages.requestContainerDeleted,
    });
    await expectReleased(w, 'declined');
  });

  it('is declined when the GM deletes the stash a party-fund request was to be paid from', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
    const chest = await callApi(ctx, 'POST', '/containers', gm, {
      container: { name: 'Wagon chest', party_id: party.id },
    });
    expect(chest.statusCode, chest.body).toBe(201);
    const gold = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: gold.id, container_id: stash?.id ?? '', quantity: 10 },
    );
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Ropewalk' } }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: rope.id, quantity: 10, price_cp: 250 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: {
          shop_template_id: template.id,
          party_id: party.id,
          approval_threshold_cp: 0,
          party_fund_allowed: true,
        },
      }),
    ).data;
    const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: shop.container.item_instances[0]?.id,
        quantity: 2,
        buyer_character_id: hero.id,
        buyer_container_id: hero.primary_container_id,
        payment_source: 'party',
        payer_container_id: stash?.id,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const request = body<TradeResult>(asked).data.request as ShopRequest;
    const chestId = body<{ id: string }>(chest).data.id;
    const deleted = await callApi(
      ctx,
      'DELETE',
      `/containers/${stash?.id}?destination_container_id=${chestId}`,
      gm,
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    const [listed] = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${shop.id}/requests?status=all`, gm),
    ).data;
    // The container the purchase was for (the hero's Backpack) is still there: the reason names the one
    // that went (attack review 25).
    expect(listed).toMatchObject({
      id: request.id,
      status: 'declined',
      reason: shopMessages.requestPayerContainerDeleted,
    });
    expect(await count(shop.container.id, rope.id)).toBe(10);
  });

  it('races the GM’s approval: exactly one wins, never a deadlock, and the shelf matches the ledger', async () => {
    // On PostgreSQL, the deletion waiting for the shop the approval holds, and the approval for the
    // character the deletion held, deadlocked: the deletion failed with a 409 that named nothing.
    for (const [first, delayMs] of [
      ['delete', 0],
      ['approve', 0],
      ['delete', 2],
      ['approve', 2],
      ['delete', 10],
      ['approve', 10],
    ] as const) {
      const w = await world();
      const approve = () => callApi(ctx, 'POST', `/shop_requests/${w.request.id}/approve`, w.gm);
      const remove = () => callApi(ctx, 'DELETE', `/characters/${w.hero.id}`, w.player);
      const later = <T>(start: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => setTimeout(() => start().then(resolve, reject), delayMs));
      const [deleted, approved] =
        first === 'delete'
          ? await Promise.all([remove(), later(approve)])
          : await Promise.all([later(remove), approve()]);
      expect(deleted.statusCode, deleted.body).toBe(204);
      const request = await requestNow(w);
      if (approved.statusCode === 200) {
        // Approved first: the rope was the character's, and went with it through the ledger.
        expect(request).toMatchObject({ status: 'approved' });
        expect(await count(w.stock, w.rope.id)).toBe(8);
      } else {
        expect([approved.statusCode, body(approved).error?.message]).toEqual([
          409,
          shopMessages.requestDecided('cancelled'),
        ]);
        expect(request).toMatchObject({ status: 'cancelled', reason: shopMessages.requestCharacterDeleted });
        expect(await count(w.stock, w.rope.id)).toBe(10);
      }
      const hold = w.request.hold_container_id ?? '';
      const places = [w.stock, hold, w.bag, w.backpack];
      expect(await replayLedger(ctx.database.db, places)).toEqual(
        await actualContents(ctx.database.db, places),
      );
    }
  });

  it('stays as it was when the deletion is refused', async () => {
    const w = await world();
    // Not empty and no destination: 409, and the request still waits with its goods held.
    const refused = await callApi(ctx, 'DELETE', `/containers/${w.bag}`, w.player);
    expect(refused.statusCode).toBe(409);
    const stranger = await createUser(ctx);
    expect((await callApi(ctx, 'DELETE', `/characters/${w.hero.id}`, stranger)).statusCode).toBe(404);
    expect(await requestNow(w)).toMatchObject({ status: 'pending' });
    expect(await count(w.stock, w.rope.id)).toBe(8);
  });
});

/**
 * A buyer's character that leaves the party (its player's PATCH party_id null) takes its pending requests
 * out with it, in the same transaction, as its deletion does (attack review 25 L2): else their goods stay
 * held off the shelf, and Approve can only answer 409 "no longer in this party".
 */
describe('a purchase request whose buyer’s character leaves the party', () => {
  /** What the party's ledger says the character took along as it left. */
  const takenAlong = async (w: World) =>
    (
      await ctx.database.db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.characterId, w.hero.id),
            sql`${transactions.details}->>'reason' = 'left_party'`,
          ),
        )
    ).map((row) => [row.itemName, row.quantity]);
  const leave = (w: World) =>
    callApi(ctx, 'PATCH', `/characters/${w.hero.id}`, w.player, { character: { party_id: null } });

  it('is cancelled when its player takes the character out of the party, in the same transaction', async () => {
    const w = await world();
    const left = await leave(w);
    expect(left.statusCode, left.body).toBe(200);
    expect(await requestNow(w)).toMatchObject({
      status: 'cancelled',
      reason: shopMessages.requestCharacterLeft,
    });
    await expectReleased(w, 'cancelled');
    // The character's rows in the party's ledger list what it took: its coins, not the rope it never got.
    expect(await takenAlong(w)).toEqual([['Gold piece', 5]]);
  });

  it('stays pending when the character changes but stays, and when the GM may not take it out', async () => {
    const w = await world();
    const renamed = await callApi(ctx, 'PATCH', `/characters/${w.hero.id}`, w.player, {
      character: { name: 'Pip the Bold', party_id: w.party.id },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Only the character's player changes it: the GM takes it out only by removing the player, whose own
    // requests that removal declines ("The buyer is no longer in the party.").
    const byGm = await callApi(ctx, 'PATCH', `/characters/${w.hero.id}`, w.gm, {
      character: { party_id: null },
    });
    expect(byGm.statusCode).toBe(403);
    expect(await requestNow(w)).toMatchObject({ status: 'pending' });
    expect(await count(w.stock, w.rope.id)).toBe(8);
  });

  it('races the GM’s approval: exactly one wins, and the shelf and the bag match the ledger', async () => {
    // Each side started first in turn, the other a moment later or at once.
    for (const [first, delayMs] of [
      ['leave', 0],
      ['approve', 0],
      ['leave', 2],
      ['approve', 2],
      ['leave', 10],
      ['approve', 10],
    ] as const) {
      const w = await world();
      const approve = () => callApi(ctx, 'POST', `/shop_requests/${w.request.id}/approve`, w.gm);
      const later = <T>(start: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => setTimeout(() => start().then(resolve, reject), delayMs));
      const [left, approved] =
        first === 'leave'
          ? await Promise.all([leave(w), later(approve)])
          : await Promise.all([later(() => leave(w)), approve()]);
      expect(left.statusCode, left.body).toBe(200);
      const request = await requestNow(w);
      if (approved.statusCode === 200) {
        // Approved first: the character left with the rope it bought.
        expect(request).toMatchObject({ status: 'approved' });
        expect(await count(w.stock, w.rope.id)).toBe(8);
        expect(await count(w.bag, w.rope.id)).toBe(2);
        expect(await takenAlong(w)).toContainEqual(['Rope', 2]);
      } else {
        expect([approved.statusCode, body(approved).error?.message]).toEqual([
          409,
          shopMessages.requestDecided('cancelled'),
        ]);
        expect(request).toMatchObject({ status: 'cancelled', reason: shopMessages.requestCharacterLeft });
        expect(await count(w.stock, w.rope.id)).toBe(10);
        expect(await count(w.bag, w.rope.id)).toBe(0);
        expect(await takenAlong(w)).toEqual([['Gold piece', 5]]);
      }
      const hold = w.request.hold_container_id ?? '';
      const places = [w.stock, hold, w.bag, w.backpack];
      expect(await replayLedger(ctx.database.db, places)).toEqual(
        await actualContents(ctx.database.db, places),
      );
      const character = body<{ party_id: string | null }>(
        await callApi(ctx, 'GET', `/characters/${w.hero.id}`, w.player),
      ).data;
      expect(character.party_id).toBeNull();
    }
  });
});
