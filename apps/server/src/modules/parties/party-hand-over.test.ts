import { randomUUID } from 'node:crypto';
import { type Party, type PartyMember, partyMessages } from '@haversack/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../../realtime/events.js';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

// A party's owner (parties.game_master_id) hands it over with PATCH parties/{id} { party: { game_master_id } }.

interface Body<T> {
  data: T;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());
afterEach(() => vi.restoreAllMocks());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = <T = Party>(response: { json(): unknown }) => response.json() as Body<T>;
const handOver = (partyId: string, actor: SignedInUser, gameMasterId: string) =>
  call('PATCH', `/parties/${partyId}`, actor, { party: { game_master_id: gameMasterId } });

async function roles(partyId: string, viewer: SignedInUser): Promise<Record<string, string>> {
  const members = body<PartyMember[]>(await call('GET', `/parties/${partyId}/members`, viewer)).data;
  return Object.fromEntries(members.map((m) => [m.user_id, m.role]));
}

async function partyWithMembers() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { join_permission: 'full' });
  const player = await createMember(ctx, party, 'player');
  const other = await createMember(ctx, party, 'player');
  return { gm, party, player, other };
}

describe('handing a party over', () => {
  it('makes the member its GM and owner; the old owner stays GM and may then leave', async () => {
    const { gm, party, player, other } = await partyWithMembers();
    const observer = await createMember(ctx, party, 'observer');
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    // Naming themselves changes nothing (and announces nothing).
    const toSelf = await handOver(party.id, gm, gm.user.id.toUpperCase());
    expect(toSelf.statusCode).toBe(200);
    expect(body(toSelf).data).toMatchObject({ game_master_id: gm.user.id, is_gm: true });
    expect(publish).not.toHaveBeenCalled();

    const handed = await handOver(party.id, gm, player.user.id);
    expect(handed.statusCode).toBe(200);
    expect(body(handed).data).toMatchObject({
      game_master_id: player.user.id,
      gm_name: player.user.username,
      is_gm: true,
      user_role: 'gm',
    });
    expect(await roles(party.id, gm)).toEqual({
      [gm.user.id]: 'gm',
      [player.user.id]: 'gm',
      [other.user.id]: 'player',
      [observer.user.id]: 'observer',
    });

    // Announced after the commit, as a role change naming the new GM, on both party channels.
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    const announced = events.filter((e) => e.partyId === party.id && e.action === 'member_role_changed');
    expect(announced.map((e) => e.channel).sort()).toEqual(['PartyChannel', 'PartyInventoryChannel']);
    expect(announced[0]).toMatchObject({
      userId: player.user.id,
      ids: {
        role: 'gm',
        recipient_user_id: player.user.id,
        recipient_notice: `${gm.user.username} handed ${party.name} to you: you are its Game Master now.`,
      },
      summary: `${gm.user.username} handed ${party.name} to ${player.user.username}`,
    });
    expect(events.some((e) => e.action === 'party_updated')).toBe(false);

    // The new owner runs the party: re-roles, removes, and is the one who cannot leave.
    const reroled = await call('PATCH', `/parties/${party.id}/members/${observer.user.id}`, player, {
      party_membership: { role: 'player' },
    });
    expect(reroled.statusCode).toBe(200);
    expect((await call('DELETE', `/parties/${party.id}/members/${other.user.id}`, player)).statusCode).toBe(
      204,
    );
    const newOwnerLeaves = await call('DELETE', `/parties/${party.id}/leave`, player);
    expect(newOwnerLeaves.statusCode).toBe(403);
    expect(body(newOwnerLeaves).error.message).toBe(partyMessages.gmCannotLeave);
    // spec/02 §4: the old owner is still a GM member, so nobody removes or re-roles them ...
    const removeOld = await call('DELETE', `/parties/${party.id}/members/${gm.user.id}`, player);
    expect(body(removeOld).error.message).toBe(partyMessages.gmCannotBeRemoved);
    // ... and the party is no longer theirs to hand over.
    const handBack = await handOver(party.id, gm, gm.user.id);
    expect(handBack.statusCode).toBe(403);
    expect(body(handBack).error.message).toBe(partyMessages.handOverOwnerOnly);

    expect((await call('DELETE', `/parties/${party.id}/leave`, gm)).statusCode).toBe(204);
    expect((await call('GET', `/parties/${party.id}`, gm)).statusCode).toBe(404);
    expect(await roles(party.id, player)).toEqual({
      [player.user.id]: 'gm',
      [observer.user.id]: 'player',
    });
    // Theirs to delete now, and no longer the old owner's.
    expect((await call('DELETE', `/parties/${party.id}`, player)).statusCode).toBe(204);
  });

  it('lets only the owner hand it over: 403 for another GM, a manager, a player and an observer', async () => {
    const { gm, party, player, other } = await partyWithMembers();
    const coGm = await createMember(ctx, party, 'gm');
    const manager = await createMember(ctx, party, 'manager');
    const observer = await createMember(ctx, party, 'observer');

    const byCoGm = await handOver(party.id, coGm, coGm.user.id);
    expect(byCoGm.statusCode).toBe(403);
    expect(body(byCoGm).error.message).toBe(partyMessages.handOverOwnerOnly);
    expect((await handOver(party.id, coGm, player.user.id)).statusCode).toBe(403);
    for (const actor of [manager, player, observer]) {
      const response = await handOver(party.id, actor, actor.user.id);
      expect(response.statusCode, actor.user.username).toBe(403);
      expect(body(response).error.code).toBe('FORBIDDEN');
    }
    const stranger = await createUser(ctx);
    expect((await handOver(party.id, stranger, stranger.user.id)).statusCode).toBe(404);
    expect((await call('PATCH', `/parties/${party.id}`, undefined, { party: {} })).statusCode).toBe(401);

    // Nothing changed hands.
    expect(body(await call('GET', `/parties/${party.id}`, gm)).data.game_master_id).toBe(gm.user.id);
    expect(await roles(party.id, gm)).toEqual({
      [gm.user.id]: 'gm',
      [coGm.user.id]: 'gm',
      [manager.user.id]: 'manager',
      [player.user.id]: 'player',
      [other.user.id]: 'player',
      [observer.user.id]: 'observer',
    });
  });

  it('refuses a target who is not a member with a VALIDATION_ERROR on party.game_master_id', async () => {
    const { gm, party, player } = await partyWithMembers();
    const stranger = await createUser(ctx);
    const left = await createMember(ctx, party, 'player');
    await call('DELETE', `/parties/${party.id}/leave`, left);
    const detail = [{ field: 'party.game_master_id', message: partyMessages.handOverTarget }];
    for (const target of [stranger.user.id, left.user.id, randomUUID(), 'not-a-uuid']) {
      const response = await handOver(party.id, gm, target);
      expect(response.statusCode, target).toBe(422);
      expect(body(response).error).toMatchObject({ code: 'VALIDATION_ERROR', details: detail });
    }
    expect(body(await call('GET', `/parties/${party.id}`, gm)).data.game_master_id).toBe(gm.user.id);
    expect((await roles(party.id, gm))[player.user.id]).toBe('player');
  });

  it('refuses on an archived party, as other edits do', async () => {
    const { gm, party, player } = await partyWithMembers();
    await call('POST', `/parties/${party.id}/archive`, gm);
    const response = await handOver(party.id, gm, player.user.id);
    expect(response.statusCode).toBe(403);
    expect(body(response).error.message).toBe(partyMessages.archived);
    expect((await roles(party.id, gm))[player.user.id]).toBe('player');
  });

  it('leaves exactly one owner when the owner hands it to two members at once', async () => {
    for (let round = 0; round < 3; round++) {
      const { gm, party, player, other } = await partyWithMembers();
      const responses = await Promise.all([
        handOver(party.id, gm, player.user.id),
        handOver(party.id, gm, other.user.id),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 403]);
      const winner = responses[0]?.statusCode === 200 ? player : other;
      const loser = winner === player ? other : player;
      const after = body(await call('GET', `/parties/${party.id}`, gm)).data;
      expect(after.game_master_id).toBe(winner.user.id);
      expect(await roles(party.id, gm)).toEqual({
        [gm.user.id]: 'gm',
        [winner.user.id]: 'gm',
        [loser.user.id]: 'player',
      });
    }
  });

  it('refuses a receiver whose own plan runs as many parties as it allows, so two Free accounts cannot chain hand-overs', async () => {
    const alice = await createUser(ctx);
    const first = await createParty(ctx, alice, { join_permission: 'full' });
    const bob = await createMember(ctx, first, 'player');
    expect((await handOver(first.id, alice, bob.user.id)).statusCode).toBe(200);
    expect((await call('DELETE', `/parties/${first.id}/leave`, alice)).statusCode).toBe(204);

    // Alice runs nothing now and may create again; Bob runs one party, all Free allows.
    const second = await createParty(ctx, alice, { join_permission: 'full' });
    await ctx.app.services.parties.join(bob.user.id, {
      join_code: String(second.join_code),
      role_request: 'player',
    });
    const refused = await handOver(second.id, alice, bob.user.id);
    expect(refused.statusCode).toBe(422);
    expect(body(refused).error.details).toEqual([
      {
        field: 'party.game_master_id',
        message: `${bob.user.username}’s Free plan allows 1 party they run. They can take this one over once they run fewer, or on a larger plan.`,
      },
    ]);
    expect(body(await call('GET', `/parties/${second.id}`, alice)).data.game_master_id).toBe(alice.user.id);
    expect(await roles(second.id, alice)).toEqual({ [alice.user.id]: 'gm', [bob.user.id]: 'player' });
  });

  it('gives a receiver with room for one more party only one of two parties handed over at once', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const receiver = await createUser(ctx);
    await upgrade(ctx, receiver, 'tier_1');
    // Adventurer runs 3 parties at most: two of the receiver's own, then room for one.
    await createParty(ctx, receiver);
    await createParty(ctx, receiver);
    const offered = [
      await createParty(ctx, gm, { join_permission: 'full' }),
      await createParty(ctx, gm, { join_permission: 'full' }),
    ];
    for (const party of offered) {
      await ctx.app.services.parties.join(receiver.user.id, {
        join_code: String(party.join_code),
        role_request: 'player',
      });
    }
    const responses = await Promise.all(offered.map((party) => handOver(party.id, gm, receiver.user.id)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const usage = (await ctx.app.services.entitlements.usage(ctx.database.db, receiver.user.id))
      .parties_created;
    expect(usage).toEqual({ used: 3, limit: 3 });
  });
});
