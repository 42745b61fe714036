import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
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
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * Deleting an account while its owner moves coins between the party stash and their character (M1 of the
 * API attack review). On PostgreSQL the deletion and the transfers wait for each other's locks: the
 * deletion must take them in the order the moves do, so that neither side deadlocks (a 409 PostgreSQL
 * broke) or answers a 500, and every coin is either still somewhere or destroyed through the ledger.
 */
let ctx: TestContext;
let admin: SignedInAdmin;
let gm: SignedInUser;
let goldId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  goldId = (await coinTemplate(ctx, 'gp')).id;
});

afterAll(async () => {
  await ctx?.close();
});

/**
 * A party with a stash of 500 gp, and a new player in it whose character holds 100 gp. The party is the
 * GM's, or the player's own (`runsParty`), alone in it: then it goes with their account.
 */
async function playerMovingGold(options: { runsParty?: boolean } = {}) {
  let party: Awaited<ReturnType<typeof createParty>>;
  let player: SignedInUser;
  if (options.runsParty) {
    player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    party = await createParty(ctx, player, { encumbrance_style: 'none' });
  } else {
    party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_3');
  }
  const partyGm = options.runsParty ? player : gm;
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const bag = String(hero.primary_container_id);
  const stash = await ctx.app.services.inventory.createContainer(
    { id: partyGm.user.id, username: partyGm.user.username },
    { partyId: party.id },
    { name: 'Stash', description: '', max_weight: null, max_slots: null },
  );
  const place = async (who: SignedInUser, containerId: string, quantity: number) => {
    const [created] = await ctx.app.services.inventory.createInstance(
      { id: who.user.id, username: who.user.username },
      { item_template_id: goldId, container_id: containerId, quantity },
    );
    return String(created?.id);
  };
  return {
    party,
    player,
    bag,
    stash: stash.id,
    inStash: await place(partyGm, stash.id, 500),
    inBag: await place(player, bag, 100),
  };
}

/** 40 transfers of 1 gp, half each way, with the deletion sent in the middle of them. */
async function transfersAround(
  setup: Awaited<ReturnType<typeof playerMovingGold>>,
  deletion: () => Promise<Answer>,
) {
  const { player, bag, stash, inStash, inBag, party } = setup;
  const transfer = (stack: string, from: string, to: string) =>
    callApi(ctx, 'POST', '/containers/transfer', player, {
      item_instance_id: stack,
      source_container_id: from,
      target_container_id: to,
      quantity: 1,
      party_id: party.id,
    });
  const sent: Promise<Answer>[] = [];
  let deleted: Promise<Answer> | undefined;
  for (let i = 0; i < 20; i++) {
    sent.push(transfer(inStash, stash, bag), transfer(inBag, bag, stash));
    if (i === 10) {
      deleted = deletion();
      sent.push(deleted);
    }
  }
  const answers = await Promise.all(sent);
  return { answers, deletion: await (deleted as Promise<Answer>) };
}

type Answer = Awaited<ReturnType<typeof callApi>>;

/**
 * The answers that failed: each answer must be a success or a refusal a client is told about (the account
 * or the character gone: 401, 404), never a 500, and never the 409 of a deadlock PostgreSQL broke.
 */
function failuresOf(answers: Answer[]) {
  return answers
    .filter((answer) => answer.statusCode >= 500 || answer.statusCode === 409)
    .map((answer) => `${answer.statusCode} ${answer.json().error.message}`);
}

/** Gold that exists, and gold the ledger says was destroyed with a character. */
async function goldAccountedFor(containerIds: string[]): Promise<{ held: number; destroyed: number }> {
  const [held] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(and(eq(itemInstances.itemTemplateId, goldId), inArray(itemInstances.containerId, containerIds)));
  const [destroyed] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${transactions.quantity}), 0)::int` })
    .from(transactions)
    .where(
      and(
        eq(transactions.itemTemplateId, goldId),
        inArray(transactions.sourceContainerId, containerIds),
        inArray(transactions.transactionType, ['character_deletion', 'container_deletion', 'delete']),
      ),
    );
  return { held: Number(held?.n), destroyed: Number(destroyed?.n) };
}

async function expectNothingLost(
  setup: Awaited<ReturnType<typeof playerMovingGold>>,
  deletion: Answer,
  /** The party went with the account, its stash with it. */
  gone = false,
) {
  const containerIds = [setup.stash, setup.bag];
  const { held, destroyed } = await goldAccountedFor(containerIds);
  expect(held + destroyed).toBe(600);
  // The ledger alone rebuilds what is left, and what the deletion destroyed replays to nothing.
  expect(await replayLedger(ctx.database.db, containerIds)).toEqual(
    await actualContents(ctx.database.db, containerIds),
  );
  if (deletion.statusCode < 300) {
    const destroyed = gone ? containerIds : [setup.bag];
    expect(await actualContents(ctx.database.db, destroyed)).toEqual(new Map());
  }
}

describe('deleting an account while its owner moves items', () => {
  it('the owner deletes their own account mid-transfers: no 500, no deadlock, nothing lost', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const setup = await playerMovingGold();
      const { answers, deletion } = await transfersAround(setup, () =>
        callApi(ctx, 'DELETE', '/users/me', setup.player, { password: setup.player.password }),
      );
      failures.push(...failuresOf(answers));
      if (deletion.statusCode !== 204) failures.push(`the deletion answered ${deletion.statusCode}`);
      await expectNothingLost(setup, deletion);
    }
    // Every round's failures at once: how many rounds failed says how often the race is lost.
    expect(failures).toEqual([]);
  });

  it('a GM alone in their party deletes their account mid-transfers: the party goes, nothing lost', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const setup = await playerMovingGold({ runsParty: true });
      const { answers, deletion } = await transfersAround(setup, () =>
        callApi(ctx, 'DELETE', '/users/me', setup.player, { password: setup.player.password }),
      );
      failures.push(...failuresOf(answers));
      if (deletion.statusCode !== 204) failures.push(`the deletion answered ${deletion.statusCode}`);
      await expectNothingLost(setup, deletion, true);
    }
    expect(failures).toEqual([]);
  });

  it('an admin deletes the account mid-transfers: no 500, no deadlock, nothing lost', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const setup = await playerMovingGold();
      const { answers, deletion } = await transfersAround(setup, () =>
        callApi(ctx, 'DELETE', `/admin/users/${setup.player.user.id}`, admin.adminAuth, {
          confirm_email: setup.player.user.email,
        }),
      );
      failures.push(...failuresOf(answers));
      if (deletion.statusCode !== 200) failures.push(`the deletion answered ${deletion.statusCode}`);
      await expectNothingLost(setup, deletion);
    }
    expect(failures).toEqual([]);
  });
});
