import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { characters } from '../../db/schema/characters.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { notifications } from '../../db/schema/notifications.js';
import { parties } from '../../db/schema/parties.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * The party's row lock against the rows that name the party. Every insert of a notice, a membership, a
 * container… naming the party takes a key-share lock on its row (its foreign key's check), which
 * `for update` waits for and `for no key update` does not. What only changes the party's other columns, or
 * only needs to take turns with the party's other changes, must not make those inserts wait, nor wait for
 * them; a deletion must, and must not deadlock with them either (PostgreSQL answers a deadlock with 409).
 */
let ctx: TestContext;
let gm: SignedInUser;
let templateId: string;
const onPostgres = Boolean(inject('postgresTemplate'));

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  templateId = (await createTemplate(ctx, { name: 'Dagger', weight: 0, stackSize: 1 })).id;
});

afterAll(async () => {
  await ctx?.close();
});

type Response = { statusCode: number; body: string };
type Rows<T> = { rows: T[] };

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
  return callApi(ctx, 'POST', '/containers/transfer', user, {
    item_instance_id: stack,
    source_container_id: from,
    target_container_id: to,
  });
}

function give(user: SignedInUser, stack: string, characterId: string) {
  return callApi(ctx, 'POST', `/item_instances/${stack}/give`, user, { character_id: characterId });
}

/** No 500, and no 409 either, which is what a deadlock PostgreSQL broke would answer. */
function expectNoFailure(responses: Response[]) {
  expect(responses.filter((r) => r.statusCode >= 500 || r.statusCode === 409).map((r) => r.body)).toEqual([]);
}

/** Daggers that exist, and those the ledger says a deletion destroyed. */
async function daggersAccountedFor(): Promise<number> {
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
 * A party with a stash and three players, each with a character holding daggers: every player gives to the
 * next one's character (a notice to its player, naming the party), the GM hands out from the stash (a
 * notice too), and the players put daggers in the stash.
 */
async function world() {
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const players = [
    await createMember(ctx, party, 'player'),
    await createMember(ctx, party, 'player'),
    await createMember(ctx, party, 'player'),
  ];
  // Putting into the party's stash is party collaboration, which a paid plan brings.
  for (const player of players) await upgrade(ctx, player, 'tier_3');
  const heroes = [];
  for (const player of players)
    heroes.push(await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null }));
  const stash = await ctx.app.services.inventory.createContainer(
    { id: gm.user.id, username: gm.user.username },
    { partyId: party.id },
    { name: 'Stash', description: '', max_weight: null, max_slots: null },
  );
  const bags = heroes.map((hero) => String(hero.primary_container_id));
  const held = [];
  for (const [i, player] of players.entries()) held.push(await addStacks(player, String(bags[i]), 4));
  return { party, players, heroes, bags, stash: stash.id, inStash: await addStacks(gm, stash.id, 4), held };
}
type World = Awaited<ReturnType<typeof world>>;

/** 20 moves: 2 gifts and 2 puts into the stash by each player, 4 hand-outs from the stash by the GM. */
function movesOf(w: World) {
  const moves: (() => Promise<Response>)[] = [];
  for (const [i, player] of w.players.entries()) {
    const next = (i + 1) % w.players.length;
    const [a, b, c, d] = w.held[i] ?? [];
    const bag = String(w.bags[i]);
    const receiver = String(w.heroes[next]?.id);
    moves.push(
      () => give(player, String(a), receiver),
      () => transfer(player, String(b), bag, w.stash),
      () => give(player, String(c), receiver),
      () => transfer(player, String(d), bag, w.stash),
    );
  }
  for (const [i, stack] of w.inStash.entries())
    moves.push(() => transfer(gm, stack, w.stash, String(w.bags[i % w.bags.length])));
  return moves;
}

/** The moves, with `acts` started among them at a different place each round. */
async function raceRound(w: World, round: number, acts: (() => Promise<Response>)[]) {
  const moves = movesOf(w);
  const at = (round * 7) % moves.length;
  const all = [...moves.slice(0, at), ...acts, ...moves.slice(at)];
  const responses = await Promise.all(all.map((start) => start()));
  const actResponses = responses.slice(at, at + acts.length);
  const moveResponses = [...responses.slice(0, at), ...responses.slice(at + acts.length)];
  return { actResponses, moveResponses };
}

async function ledgerMatches(containerIds: string[]) {
  expect(await replayLedger(ctx.database.db, containerIds)).toEqual(
    await actualContents(ctx.database.db, containerIds),
  );
}

describe('the GM deletes the party while its members give and move items', () => {
  it('no deadlock: each move went first or is refused with a 4xx, and nothing is left naming the party', async () => {
    const before = await daggersAccountedFor();
    for (let round = 0; round < 4; round++) {
      const w = await world();
      const { actResponses, moveResponses } = await raceRound(w, round, [
        () => callApi(ctx, 'DELETE', `/parties/${w.party.id}`, gm),
      ]);
      expectNoFailure([...actResponses, ...moveResponses]);
      expect(actResponses.map((r) => r.statusCode)).toEqual([204]);
      for (const response of moveResponses)
        expect([200, 404, 422], response.body).toContain(response.statusCode);
      // A gift refused after the deletion says why, in the words of the refusal.
      for (const response of moveResponses.filter((r) => r.statusCode >= 400))
        expect(JSON.parse(response.body).error.message, response.body).toEqual(expect.any(String));
      // The party is gone with its stash (through the ledger); its characters keep their gear and left it.
      const [left] = await ctx.database.db.select().from(parties).where(eq(parties.id, w.party.id));
      expect(left).toBeUndefined();
      const heroes = await ctx.database.db
        .select({ partyId: characters.partyId })
        .from(characters)
        .where(
          inArray(
            characters.id,
            w.heroes.map((hero) => hero.id),
          ),
        );
      expect(heroes.map((hero) => hero.partyId)).toEqual([null, null, null]);
      const stash = await ctx.database.db.select().from(containers).where(eq(containers.id, w.stash));
      expect(stash).toEqual([]);
      expect(await daggersAccountedFor()).toBe(before + 16 * (round + 1));
      // The stash's daggers were destroyed through the ledger: it replays to nothing.
      await ledgerMatches([...w.bags, w.stash]);
      // Every player was told of the deletion, in a notice that keeps the party's name only.
      const told = await ctx.database.db
        .select({ partyId: notifications.partyId })
        .from(notifications)
        .where(
          and(
            inArray(
              notifications.userId,
              w.players.map((player) => player.user.id),
            ),
            eq(notifications.kind, 'party_deleted'),
          ),
        );
      expect(told).toEqual([{ partyId: null }, { partyId: null }, { partyId: null }]);
    }
  });
});

describe('the GM changes roles and hands the party over while its members give and move items', () => {
  it('no deadlock: the role changes, the hand-over and every move succeed', async () => {
    const before = await daggersAccountedFor();
    for (let round = 0; round < 4; round++) {
      const w = await world();
      const [first, second, third] = w.players.map((player) => player.user.id);
      const { actResponses, moveResponses } = await raceRound(w, round, [
        () =>
          callApi(ctx, 'PATCH', `/parties/${w.party.id}/members/${first}`, gm, {
            party_membership: { role: 'manager' },
          }),
        () =>
          callApi(ctx, 'PATCH', `/parties/${w.party.id}/members/${second}`, gm, {
            party_membership: { role: 'manager' },
          }),
        () => callApi(ctx, 'PATCH', `/parties/${w.party.id}`, gm, { party: { game_master_id: third } }),
        () =>
          callApi(ctx, 'PATCH', `/parties/${w.party.id}/members/${first}`, gm, {
            party_membership: { role: 'player' },
          }),
      ]);
      expectNoFailure([...actResponses, ...moveResponses]);
      expect(actResponses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(moveResponses.map((r) => r.statusCode)).toEqual(moveResponses.map(() => 200));
      expect(await daggersAccountedFor()).toBe(before + 16 * (round + 1));
      await ledgerMatches([...w.bags, w.stash]);
      const [party] = await ctx.database.db.select().from(parties).where(eq(parties.id, w.party.id));
      expect(party?.gameMasterId).toBe(third);
    }
  });
});

/**
 * Another transaction holds the lock a row naming the party takes (its foreign key's check: a notice or a
 * membership being written) while `act` runs. Answers whether `act` finished while it was held, or had to
 * wait for it (seen in pg_stat_activity: a backend blocked by the holder), in which case it is let go on.
 */
async function whileNamed(partyId: string, act: () => Promise<Response>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holderPid = 0;
  let held = () => {};
  const isHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const holder = ctx.database.db.transaction(async (tx) => {
    const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as Rows<{
      pid: number;
    }>;
    holderPid = Number(result.rows[0]?.pid);
    await tx.execute(sql`select 1 from ${parties} where ${parties.id} = ${partyId} for key share`);
    held();
    await released;
  });
  await isHeld;
  let done: Response | undefined;
  const acting = act().then((response) => {
    done = response;
    return response;
  });
  let waited = false;
  try {
    while (!done) {
      const blocked = (await ctx.database.db.execute(
        sql`select pid from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`,
      )) as unknown as Rows<{ pid: number }>;
      if (blocked.rows.length > 0) {
        waited = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    release();
    await holder;
  }
  return { waited, response: await acting };
}

describe.runIf(onPostgres)('what waits for the rows naming the party (PostgreSQL)', () => {
  async function partyWithMember() {
    const party = await createParty(ctx, gm);
    const member = await createMember(ctx, party, 'player');
    return { party, member };
  }

  it('a role change, a hand-over, archiving, notes, joining, invitations and sponsorships do not', async () => {
    const acts: Record<string, () => Promise<{ waited: boolean; response: Response }>> = {
      'role change': async () => {
        const { party, member } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'PATCH', `/parties/${party.id}/members/${member.user.id}`, gm, {
            party_membership: { role: 'manager' },
          }),
        );
      },
      'hand-over': async () => {
        const { party, member } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'PATCH', `/parties/${party.id}`, gm, { party: { game_master_id: member.user.id } }),
        );
      },
      archiving: async () => {
        const { party } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'PATCH', `/parties/${party.id}`, gm, { party: { is_archived: true } }),
        );
      },
      renaming: async () => {
        const { party } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'PATCH', `/parties/${party.id}`, gm, { party: { name: 'Renamed' } }),
        );
      },
      notes: async () => {
        const { party, member } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'PATCH', `/parties/${party.id}/notes`, member, {
            party_notes: { notes: 'Met a dragon.', version: 0 },
          }),
        );
      },
      'joining by code': async () => {
        const { party } = await partyWithMember();
        const newcomer = await createUser(ctx);
        return whileNamed(party.id, () =>
          callApi(ctx, 'POST', '/parties/join', newcomer, {
            join_code: party.join_code,
            role_request: 'player',
          }),
        );
      },
      'an invitation': async () => {
        const { party } = await partyWithMember();
        const invitee = await createUser(ctx);
        return whileNamed(party.id, () =>
          callApi(ctx, 'POST', `/parties/${party.id}/invitations`, gm, {
            party_invitation: { username: invitee.user.username, role: 'player' },
          }),
        );
      },
      'accepting an invitation': async () => {
        const { party } = await partyWithMember();
        const invitee = await createUser(ctx);
        const invited = await callApi(ctx, 'POST', `/parties/${party.id}/invitations`, gm, {
          party_invitation: { username: invitee.user.username, role: 'player' },
        });
        const invitationId = String(invited.json().data.id);
        return whileNamed(party.id, () =>
          callApi(ctx, 'POST', `/invitations/${invitationId}/accept`, invitee),
        );
      },
      'revoking an invitation': async () => {
        const { party } = await partyWithMember();
        const invitee = await createUser(ctx);
        const invited = await callApi(ctx, 'POST', `/parties/${party.id}/invitations`, gm, {
          party_invitation: { username: invitee.user.username, role: 'player' },
        });
        const invitationId = String(invited.json().data.id);
        return whileNamed(party.id, () =>
          callApi(ctx, 'DELETE', `/parties/${party.id}/invitations/${invitationId}`, gm),
        );
      },
      'a sponsorship': async () => {
        const { party, member } = await partyWithMember();
        return whileNamed(party.id, () =>
          callApi(ctx, 'POST', '/patronages', gm, {
            beneficiary_id: member.user.id,
            party_id: party.id,
            granted_tier: 'tier_2',
          }),
        );
      },
    };
    const waited: Record<string, boolean> = {};
    for (const [name, run] of Object.entries(acts)) {
      const outcome = await run();
      waited[name] = outcome.waited;
      expect(outcome.response.statusCode, `${name}: ${outcome.response.body}`).toBeLessThan(300);
    }
    expect(waited).toEqual(Object.fromEntries(Object.keys(acts).map((name) => [name, false])));
  });

  // They change the party's keys, which waits for its key share locks whatever lock is taken first; also
  // what shows that `whileNamed` sees a wait when there is one.
  it('a deletion, a new join code and a change of who may join do (they change the party’s keys)', async () => {
    const deletion = await partyWithMember();
    const code = await partyWithMember();
    const permission = await partyWithMember();
    const outcomes = {
      deletion: await whileNamed(deletion.party.id, () =>
        callApi(ctx, 'DELETE', `/parties/${deletion.party.id}`, gm),
      ),
      'new join code': await whileNamed(code.party.id, () =>
        callApi(ctx, 'POST', `/parties/${code.party.id}/regenerate_join_code`, gm),
      ),
      'join permission': await whileNamed(permission.party.id, () =>
        callApi(ctx, 'PATCH', `/parties/${permission.party.id}`, gm, {
          party: { join_permission: 'restricted' },
        }),
      ),
    };
    expect(
      Object.fromEntries(
        Object.entries(outcomes).map(([name, o]) => [
          name,
          { waited: o.waited, status: o.response.statusCode },
        ]),
      ),
    ).toEqual({
      deletion: { waited: true, status: 204 },
      'new join code': { waited: true, status: 200 },
      'join permission': { waited: true, status: 200 },
    });
  });
});
