import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function quantityOfTemplate(): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(eq(itemInstances.itemTemplateId, templateId));
  return Number(row?.n);
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
  return {
    party,
    leaver,
    other,
    hero,
    bag,
    friendBag,
    stash: stash.id,
    inBag: await addStacks(leaver, bag, 4),
    inFriendBag: await addStacks(other, friendBag, 4),
    inStash: await addStacks(gm, stash.id, 4),
  };
}
type World = Awaited<ReturnType<typeof world>>;

/** Moves into and out of the leaver's character: its own transfers out, a friend's gifts and the GM's handing out. */
function movesOf(w: World) {
  return [
    ...w.inBag.map((stack) => () => transfer(w.leaver, stack, w.bag, w.stash)),
    ...w.inFriendBag.map((stack) => () => give(w.other, stack, w.hero.id)),
    ...w.inStash.map((stack) => () => transfer(gm, stack, w.stash, w.bag)),
  ];
}

async function race(departure: (w: World) => Promise<{ statusCode: number; body: string }>) {
  const before = await quantityOfTemplate();
  for (let round = 0; round < 4; round++) {
    const w = await world();
    const moves = movesOf(w);
    // The departure starts among the moves, at a different place each round.
    const at = (round * 3) % moves.length;
    const responses = await Promise.all([
      ...moves.slice(0, at).map((move) => move()),
      departure(w),
      ...moves.slice(at).map((move) => move()),
    ]);
    expectNoFailure(responses);
    // Leaving moves nothing: every sword is still somewhere, where the ledger says it is.
    expect(await quantityOfTemplate()).toBe(before + 12 * (round + 1));
    const places = [w.bag, w.friendBag, w.stash];
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

  it('the member takes the character out: no deadlock, every item accounted for', async () => {
    await race((w) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/characters/${w.hero.id}`,
        headers: w.leaver.auth,
        payload: { character: { party_id: null } },
      }),
    );
  });
});
