import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';

/**
 * Deleting a character or a party while its items move (issue 13's race reviews). On PostgreSQL each side
 * waits for the other's locks: the deletion must either wait for the moves or make them fail cleanly
 * (4xx), never deadlock into a 500, and every item that was not destroyed through the ledger is still
 * somewhere.
 */
let ctx: TestContext;
let gm: SignedInUser;
let player: SignedInUser;
let partyId: string;
let stashId: string;
let templateId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  partyId = party.id;
  player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  const stash = await ctx.app.services.inventory.createContainer(
    { id: gm.user.id, username: gm.user.username },
    { partyId },
    { name: 'Stash', description: '', max_weight: null, max_slots: null },
  );
  stashId = stash.id;
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

/**
 * Each side either went first or found the other's work done (a 404 for a container or a character that
 * is gone): no 500, and no 409 either, which is what a deadlock PostgreSQL broke would answer.
 */
function expectNoFailure(responses: { statusCode: number }[]) {
  expect(responses.map((r) => r.statusCode).filter((status) => status >= 500 || status === 409)).toEqual([]);
}

function transfer(user: SignedInUser, stack: string, from: string, to: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/containers/transfer',
    headers: user.auth,
    payload: { item_instance_id: stack, source_container_id: from, target_container_id: to },
  });
}

async function quantityIn(containerId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
  return Number(row?.n);
}

/** Stacks of the race's template that exist, and those the ledger says were destroyed. */
async function itemsAccountedFor(): Promise<{ held: number; destroyed: number }> {
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
  return { held: Number(held?.n), destroyed: Number(destroyed?.n) };
}

describe('deleting an owner while its items move', () => {
  it('a character deleted during transfers out of its bag: no 500, every item accounted for', async () => {
    let made = 0;
    for (let round = 0; round < 4; round++) {
      const hero = await createCharacter(ctx, player, { partyId, maxWeight: null, maxSlots: null });
      const bag = String(hero.primary_container_id);
      const stacks = await addStacks(player, bag, 8);
      made += 8;
      const inStashBefore = await quantityIn(stashId);
      const responses = await Promise.all([
        ...stacks.slice(0, 4).map((stack) => transfer(player, stack, bag, stashId)),
        ctx.app.inject({ method: 'DELETE', url: `/api/v1/characters/${hero.id}`, headers: player.auth }),
        ...stacks.slice(4).map((stack) => transfer(player, stack, bag, stashId)),
      ]);
      expectNoFailure(responses);
      // What reached the stash stays there: the deletion destroys only what is still in the bag.
      const moved = responses.filter(
        (r) => r.statusCode === 200 && r.json().data?.moved !== undefined,
      ).length;
      expect((await quantityIn(stashId)) - inStashBefore).toBe(moved);
      const { held, destroyed } = await itemsAccountedFor();
      expect(held + destroyed).toBe(made);
    }
  });

  it('a character deleted while another player gives it items: no 500, every item accounted for', async () => {
    const giver = await createCharacter(ctx, gm, { partyId, maxWeight: null, maxSlots: null });
    const giverBag = String(giver.primary_container_id);
    const before = await itemsAccountedFor();
    let made = 0;
    for (let round = 0; round < 4; round++) {
      const hero = await createCharacter(ctx, player, { partyId, maxWeight: null, maxSlots: null });
      const stacks = await addStacks(gm, giverBag, 6);
      made += 6;
      const give = (stack: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/v1/item_instances/${stack}/give`,
          headers: gm.auth,
          payload: { character_id: hero.id },
        });
      const responses = await Promise.all([
        ...stacks.slice(0, 3).map(give),
        ctx.app.inject({ method: 'DELETE', url: `/api/v1/characters/${hero.id}`, headers: player.auth }),
        ...stacks.slice(3).map(give),
      ]);
      expectNoFailure(responses);
      const after = await itemsAccountedFor();
      expect(after.held + after.destroyed).toBe(before.held + before.destroyed + made);
    }
  });

  it('a party deleted during moves between its stash and a member: no 500, every item accounted for', async () => {
    const before = await itemsAccountedFor();
    let made = 0;
    for (let round = 0; round < 3; round++) {
      const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
      await ctx.app.services.parties.join(player.user.id, {
        join_code: String(party.join_code),
        role_request: 'player',
      });
      const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
      const bag = String(hero.primary_container_id);
      const stash = await ctx.app.services.inventory.createContainer(
        { id: gm.user.id, username: gm.user.username },
        { partyId: party.id },
        { name: 'Stash', description: '', max_weight: null, max_slots: null },
      );
      const inStash = await addStacks(gm, stash.id, 6);
      const inBag = await addStacks(player, bag, 6);
      made += 12;
      const responses = await Promise.all([
        ...inStash.slice(0, 3).map((stack) => transfer(player, stack, stash.id, bag)),
        ...inBag.slice(0, 3).map((stack) => transfer(player, stack, bag, stash.id)),
        ctx.app.inject({ method: 'DELETE', url: `/api/v1/parties/${party.id}`, headers: gm.auth }),
        ...inStash.slice(3).map((stack) => transfer(player, stack, stash.id, bag)),
        ...inBag.slice(3).map((stack) => transfer(player, stack, bag, stash.id)),
      ]);
      expectNoFailure(responses);
      const after = await itemsAccountedFor();
      expect(after.held + after.destroyed).toBe(before.held + before.destroyed + made);
    }
  });
});
