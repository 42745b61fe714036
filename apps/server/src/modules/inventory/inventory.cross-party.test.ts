import { inventoryMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const body = (response: { json(): unknown }) =>
  response.json() as { data: Record<string, unknown>[]; error: { code: string; details: unknown[] } };

async function stashOf(gm: SignedInUser, partyId: string) {
  return String(body(await callApi(ctx, 'GET', `/parties/${partyId}/containers`, gm)).data[0]?.id);
}

async function quantitiesIn(containerId: string) {
  const rows = await ctx.database.db
    .select({ quantity: itemInstances.quantity })
    .from(itemInstances)
    .where(eq(itemInstances.containerId, containerId));
  return rows.reduce((sum, row) => sum + row.quantity, 0);
}

/** Moves 10 of the first stack in `from` to `to`, as the player. */
async function moveTen(player: SignedInUser, from: string, to: string) {
  const [stack] = await ctx.database.db
    .select({ id: itemInstances.id })
    .from(itemInstances)
    .where(eq(itemInstances.containerId, from));
  return callApi(ctx, 'POST', '/containers/transfer', player, {
    item_instance_id: stack?.id,
    source_container_id: from,
    target_container_id: to,
    quantity: 10,
  });
}

/** A player in two campaigns of one GM, with a character in each and gold in both stashes. */
async function twoCampaigns() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const first = await createParty(ctx, gm);
  const second = await createParty(ctx, gm);
  const player = await createMember(ctx, first, 'player');
  await upgrade(ctx, player, 'tier_3');
  const joined = await callApi(ctx, 'POST', '/parties/join', player, { join_code: second.join_code });
  expect(joined.statusCode, joined.body).toBeLessThan(300);
  const inFirst = await createCharacter(ctx, player, { partyId: first.id });
  const inSecond = await createCharacter(ctx, player, { partyId: second.id });
  const gold = await coinTemplate(ctx, 'gp');
  const stashA = await stashOf(gm, first.id);
  const stashB = await stashOf(gm, second.id);
  const heroA = String(inFirst.primary_container_id);
  const heroB = String(inSecond.primary_container_id);
  const containers = [stashA, heroA, stashB, heroB];
  for (const container of containers) {
    const added = await callApi(ctx, 'POST', '/item_instances', gm, {
      item_template_id: gold.id,
      container_id: container,
      quantity: 100,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  return { player, stashA, heroA, stashB, heroB };
}

describe('moves between two parties of one player', () => {
  it('refuses every move from one party’s containers into another’s, and changes nothing', async () => {
    const { player, stashA, heroA, stashB, heroB } = await twoCampaigns();
    for (const [from, to] of [
      [stashA, heroB],
      [heroA, stashB],
      [heroA, heroB],
      [heroB, stashA],
    ] as const) {
      const moved = await moveTen(player, from, to);
      expect(moved.statusCode, moved.body).toBe(422);
      expect(body(moved).error.details).toEqual([
        { field: 'target_container_id', message: inventoryMessages.otherParty },
      ]);
    }
    for (const container of [stashA, heroA, stashB, heroB]) expect(await quantitiesIn(container)).toBe(100);
  });

  it('still moves between a party’s own containers', async () => {
    const { player, stashA, heroA } = await twoCampaigns();
    const moved = await moveTen(player, stashA, heroA);
    expect(moved.statusCode, moved.body).toBe(200);
    expect([await quantitiesIn(stashA), await quantitiesIn(heroA)]).toEqual([90, 110]);
  });
});
