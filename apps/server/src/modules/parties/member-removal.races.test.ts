import type { ShopInstance, ShopTemplate } from '@haversack/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { shopRequests } from '../../db/schema/shop-requests.js';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  deployLoot,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * A member leaving the party (removed by the GM, leaving, or taking a character out) while items move into
 * and out of their character's containers. On PostgreSQL each side waits for the other's locks: the
 * departure must either wait for the moves or make them fail cleanly (4xx), never deadlock into a 409
 * or a 500, and every item is still somewhere, as the ledger says.
 */
let ctx: TestContext;
let gm: SignedInUser;
let templateId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  templateId = (await createTemplate(ctx, { name: 'Longsword', weight: 0, stackSize: 1 })).id;
});

afterAll(async () => {
  await ctx?.close();
});

async function addStacks(user: SignedInUser, containerId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const [created] = await ctx.app.services.inventory.createInstance(
      { id: user.user.id, username: user.user.username },
      { item_template_id: templateId, container_id: containerId, quantity: 1 },
    );
    ids.push(String(created?.id));
  }
  return ids;
}

function transfer(user: SignedInUser, stack: string, from: string, to: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/containers/transfer',
    headers: user.auth,
    payload: { item_instance_id: stack, source_container_id: from, target_container_id: to },
  });
}

function give(user: SignedInUser, stack: string, characterId: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/item_instances/${stack}/give`,
    headers: user.auth,
    payload: { character_id: characterId },
  });
}

/**
 * Each side either went first or found the other's work done (a 4xx saying the character or container is
 * no longer in reach): no 500, and no 409 either, which is what a deadlock PostgreSQL broke would answer.
 */
function expectNoFailure(responses: { statusCode: number; body: string }[]) {
  expect(responses.filter((r) => r.statusCode >= 500 || r.statusCode === 409).map((r) => r.body)).toEqual([]);
}

/** Swords that exist, and those the ledger says a deletion destroyed. */
async function quantityOfTemplate(): Promise<number> {
  const [held] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(eq(itemInstances.itemTemplateId, templateId));
  const [destroyed] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${transactions.quantity}), 0)::int` })
    .from(transactions)
    .where(
      and(
        eq(transactions.itemTemplateId, templateId),
        inArray(transactions.transactionType, ['character_deletion', 'container_deletion', 'delete']),
      ),
    );
  return Number(held?.n) + Number(destroyed?.n);
}

/**
 * A party with a stash, a member (`leaver`) whose character holds 4 swords, and another player whose
 * character holds 4 swords to give: what each round races.
 */
async function world() {
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const leaver = await createMember(ctx, party, 'player');
  const other = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, leaver, { partyId: party.id, maxWeight: null, maxSlots: null });
  const friend = await createCharacter(ctx, other, { partyId: party.id, maxWeight: null, maxSlots: null });
  const stash = await ctx.app.services.inventory.createContainer(
    { id: gm.user.id, username: gm.user.username },
    { partyId: party.id },
    { name: 'Stash', description: '', max_weight: null, max_slots: null },
  );
  const bag = String(hero.primary_container_id);
  const friendBag = String(friend.primary_container_id);
  // A shop whose every purchase by a player waits for the GM, and loot the GM hands out.
  const shopTemplate = (
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Armoury' } })
  ).json().data as ShopTemplate;
  await callApi(ctx, 'POST', `/shop_templates/${shopTemplate.id}/add_item`, gm, {
    shop_item: { item_template_id: templateId, quantity: 3, price_cp: 100 },
  });
  const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id, approval_threshold_cp: 0 },
  });
  expect(deployed.statusCode, deployed.body).toBe(201);
  const shop = deployed.json().data as ShopInstance;
  await ctx.app.services.inventory.createInstance(
    { id: leaver.user.id, username: leaver.user.username },
    { item_template_id: (await coinTemplate(ctx, 'gp')).id, container_id: bag, quantity: 20 },
  );
  const lootTemplate = await createLootTemplate(ctx, gm, [{ item_template_id: templateId, quantity: 3 }]);
  const loot = await deployLoot(ctx, gm, party.id, lootTemplate.id, { reveal: true });
  return {
    party,
    leaver,
    other,
    hero,
    bag,
    friendBag,
    stash: stash.id,
    shop,
    loot,
    inBag: await addStacks(leaver, bag, 4),
    inFriendBag: await addStacks(other, friendBag, 4),
    inStash: await addStacks(gm, stash.id, 4),
  };
}
type World = Awaited<ReturnType<typeof world>>;

/**
 * Moves into and out of the leaver's character: its own transfers out and purchase requests, a friend's
 * gifts, and the GM handing out from the stash and the loot.
 */
function movesOf(w: World) {
  return [
    ...w.inBag.map((stack) => () => transfer(w.leaver, stack, w.bag, w.stash)),
    ...w.inFriendBag.map((stack) => () => give(w.other, stack, w.hero.id)),
    ...w.inStash.map((stack) => () => transfer(gm, stack, w.stash, w.bag)),
    ...w.shop.container.item_instances.map(
      (stack) => () =>
        callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.leaver, {
          purchase: {
            item_instance_id: stack.id,
            quantity: 1,
            buyer_character_id: w.hero.id,
            buyer_container_id: w.bag,
          },
        }),
    ),
    ...w.loot.container.item_instances.map(
      (stack) => () =>
        callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/take`, gm, {
          take: { item_instance_id: stack.id, target_container_id: w.bag, quantity: 1 },
        }),
    ),
  ];
}

/** Every container of the round, the shop's holds for the requests filed among them. */
async function placesOf(w: World): Promise<string[]> {
  const holds = await ctx.database.db
    .select({ id: containers.id })
    .from(containers)
    .where(eq(containers.shopInstanceId, w.shop.id));
  return [w.bag, w.friendBag, w.stash, w.loot.container.id, ...holds.map((hold) => hold.id)];
}

/** The requests for the leaver's character still waiting in the round's shop (it is the only buyer). */
async function pendingRequests(w: World): Promise<number> {
  const rows = await ctx.database.db
    .select({ id: shopRequests.id })
    .from(shopRequests)
    .where(and(eq(shopRequests.shopInstanceId, w.shop.id), eq(shopRequests.status, 'pending')));
  return rows.length;
}

async function race(
  departure: (w: World) => Promise<{ statusCode: number; body: string }>,
  /** Whether the departure releases, in its own transaction, every request filed for the character. */
  options: { releasesRequests?: boolean } = {},
) {
  const before = await quantityOfTemplate();
  for (let round = 0; round < 4; round++) {
    const w = await world();
    const moves = movesOf(w);
    // The departure starts among the moves, at a different place each round.
    const at = (round * 5) % moves.length;
    const responses = await Promise.all([
      ...moves.slice(0, at).map((move) => move()),
      departure(w),
      ...moves.slice(at).map((move) => move()),
    ]);
    expectNoFailure(responses);
    // Leaving moves nothing, a deletion destroys through the ledger: every sword and coin is still
    // somewhere, or gone with the character, as the ledger says.
    expect(await quantityOfTemplate()).toBe(before + 18 * (round + 1));
    const places = await placesOf(w);
    if (options.releasesRequests) expect(await pendingRequests(w)).toBe(0);
    expect(await replayLedger(ctx.database.db, places)).toEqual(
      await actualContents(ctx.database.db, places),
    );
  }
}

describe('a member leaving while their character’s items move', () => {
  it('the GM removes the member: no deadlock, every item accounted for', async () => {
    await race((w) =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/parties/${w.party.id}/members/${w.leaver.user.id}`,
        headers: gm.auth,
      }),
    );
  });

  it('the member leaves: no deadlock, every item accounted for', async () => {
    await race((w) =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/parties/${w.party.id}/leave`,
        headers: w.leaver.auth,
      }),
    );
  });

  it('the member deletes the character: no deadlock, every item accounted for', async () => {
    await race(
      (w) =>
        ctx.app.inject({
          method: 'DELETE',
          url: `/api/v1/characters/${w.hero.id}`,
          headers: w.leaver.auth,
        }),
      { releasesRequests: true },
    );
  });

  it('the member takes the character out: no deadlock, every item accounted for', async () => {
    await race(
      (w) =>
        ctx.app.inject({
          method: 'PATCH',
          url: `/api/v1/characters/${w.hero.id}`,
          headers: w.leaver.auth,
          payload: { character: { party_id: null } },
        }),
      { releasesRequests: true },
    );
  });
});
