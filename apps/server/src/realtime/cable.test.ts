import type { AddressInfo } from 'node:net';
import type * as ActionCable from '@rails/actioncable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { consumerFor, subscribe } from '../test/cable-client.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../test/factories.js';
import { buildTestApp, type TestContext } from '../test/helper.js';

let ctx: TestContext;
let baseUrl: string;
const consumers: ActionCable.Consumer[] = [];

beforeAll(async () => {
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const consumer of consumers) consumer.disconnect();
  await ctx.close();
});

function consumer(user: SignedInUser) {
  const created = consumerFor(baseUrl, user.token);
  consumers.push(created);
  return created;
}

/** A raw socket, to see the protocol's own frames. */
function rawSocket(token: string) {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/cable?token=${token}`, [
    'actioncable-v1-json',
    'actioncable-unsupported',
  ]);
  const frames: Record<string, unknown>[] = [];
  const waiters: {
    test: (f: Record<string, unknown>) => boolean;
    resolve: (f: Record<string, unknown>) => void;
  }[] = [];
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    frames.push(frame);
    for (const w of [...waiters])
      if (w.test(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(frame);
      }
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    socket,
    closed,
    frame: (test: (f: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const seen = frames.find(test);
        if (seen) return resolve(seen);
        waiters.push({ test, resolve });
      }),
  };
}

async function partyWithStash() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id });
  const stash = await ctx.app.services.inventory.createContainer(
    { id: gm.user.id, username: gm.user.username },
    { partyId: party.id },
    { name: 'Stash', description: '', max_weight: 5, max_slots: null },
  );
  return { gm, party, player, hero, stash };
}

describe('the Action Cable protocol', () => {
  it('welcomes with the subprotocol and pings every 3 s', async () => {
    const user = await createUser(ctx);
    const raw = rawSocket(user.token);
    await raw.frame((f) => f.type === 'welcome');
    expect(raw.socket.protocol).toBe('actioncable-v1-json');
    const ping = await raw.frame((f) => f.type === 'ping');
    expect(typeof ping.message).toBe('number');
    raw.socket.close();
  });

  it('disconnects a bad, expired or revoked token as unauthorized, without reconnecting', async () => {
    const raw = rawSocket('not-a-token');
    expect(await raw.frame((f) => f.type === 'disconnect')).toEqual({
      type: 'disconnect',
      reason: 'unauthorized',
      reconnect: false,
    });
    await raw.closed;
    const user = await createUser(ctx);
    await ctx.app.services.accounts.logout(
      (await ctx.app.services.accessTokens.verify(user.token)).sessionId,
    );
    const revoked = rawSocket(user.token);
    expect(await revoked.frame((f) => f.type === 'disconnect')).toMatchObject({ reason: 'unauthorized' });
  });

  it('ignores malformed commands and rejects unknown channels', async () => {
    const user = await createUser(ctx);
    const raw = rawSocket(user.token);
    await raw.frame((f) => f.type === 'welcome');
    raw.socket.send('not json');
    raw.socket.send(
      JSON.stringify({
        command: 'subscribe',
        identifier: JSON.stringify({ channel: 'AdminChannel', party_id: crypto.randomUUID() }),
      }),
    );
    expect(await raw.frame((f) => f.type === 'reject_subscription')).toBeTruthy();
    raw.socket.close();
  });
});

describe('party channels with the official client', () => {
  it('rejects non-members and confirms members', async () => {
    const { gm, party } = await partyWithStash();
    const stranger = await createUser(ctx);
    await subscribe(consumer(stranger), 'PartyChannel', party.id).rejected;
    await subscribe(consumer(gm), 'PartyInventoryChannel', party.id).connected;
  });

  it('delivers inventory changes after commit, never a rolled-back one, with actor and summary', async () => {
    const { gm, party, player, stash } = await partyWithStash();
    const channel = subscribe(consumer(gm), 'PartyInventoryChannel', party.id);
    await channel.connected;
    const anvil = await createTemplate(ctx, { name: 'Anvil', weight: 50 });
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 1 });
    const who = { id: player.user.id, username: player.user.username };
    // Refused for capacity: rolled back, so it must never reach anyone.
    await expect(
      ctx.app.services.inventory.createInstance(who, {
        item_template_id: anvil.id,
        container_id: stash.id,
        quantity: 1,
      }),
    ).rejects.toThrow();
    await ctx.app.services.inventory.createInstance(who, {
      item_template_id: rope.id,
      container_id: stash.id,
      quantity: 2,
    });
    const first = await channel.next((m) => m.action !== 'presence_update');
    expect(first).toMatchObject({
      action: 'item_added',
      party_id: party.id,
      actor: { id: player.user.id, name: player.user.username },
      summary: `${player.user.username} added 2 × Rope to Stash`,
      ids: { destination_container_id: stash.id },
    });
  });

  it('does not deliver other parties’ events', async () => {
    const a = await partyWithStash();
    const b = await partyWithStash();
    const channel = subscribe(consumer(a.gm), 'PartyInventoryChannel', a.party.id);
    await channel.connected;
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 0 });
    await ctx.app.services.inventory.createInstance(
      { id: b.gm.user.id, username: b.gm.user.username },
      { item_template_id: rope.id, container_id: b.stash.id, quantity: 1 },
    );
    await ctx.app.services.inventory.createInstance(
      { id: a.gm.user.id, username: a.gm.user.username },
      { item_template_id: rope.id, container_id: a.stash.id, quantity: 3 },
    );
    const first = await channel.next((m) => m.action === 'item_added');
    expect(first).toMatchObject({ party_id: a.party.id, ids: { destination_container_id: a.stash.id } });
  });

  it('counts a user with two tabs once in presence', async () => {
    const { gm, party, player } = await partyWithStash();
    const watcher = subscribe(consumer(gm), 'PartyChannel', party.id);
    await watcher.connected;
    const tabOne = consumer(player);
    const tabTwo = consumer(player);
    await subscribe(tabOne, 'PartyChannel', party.id).connected;
    const joined = await watcher.next((m) => m.action === 'presence_changed' && m.user_id === player.user.id);
    expect(joined).toMatchObject({ change_type: 'joined' });
    expect((joined.online_users as { id: string }[]).map((u) => u.id).sort()).toEqual(
      [gm.user.id, player.user.id].sort(),
    );
    await subscribe(tabTwo, 'PartyChannel', party.id).connected;
    tabOne.disconnect();
    tabTwo.disconnect();
    // Only the last tab closing takes the player offline: one "left", and no second "joined" before it.
    const next = await watcher.next((m) => m.action === 'presence_changed' && m.user_id === player.user.id);
    expect(next).toMatchObject({ change_type: 'left' });
    expect((next.online_users as { id: string }[]).map((u) => u.id)).toEqual([gm.user.id]);
  });

  it('ends the subscriptions of a member removed from the party at once', async () => {
    const { gm, party, player } = await partyWithStash();
    const channel = subscribe(consumer(player), 'PartyInventoryChannel', party.id);
    await channel.connected;
    const members = subscribe(consumer(player), 'PartyChannel', party.id);
    await members.connected;
    await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
    await channel.rejected;
    await members.rejected;
  });

  it('announces membership and character changes on PartyChannel', async () => {
    const { gm, party } = await partyWithStash();
    const channel = subscribe(consumer(gm), 'PartyChannel', party.id);
    await channel.connected;
    const newcomer = await createMember(ctx, party, 'observer');
    expect(await channel.next((m) => m.action === 'member_added')).toMatchObject({
      user_id: newcomer.user.id,
    });
    await ctx.app.services.parties.changeRole(gm.user.id, party.id, newcomer.user.id, 'player');
    expect(await channel.next((m) => m.action === 'member_role_changed')).toMatchObject({
      user_id: newcomer.user.id,
      ids: { role: 'player' },
    });
    await createCharacter(ctx, newcomer, { partyId: party.id, name: 'Pippin' });
    expect(await channel.next((m) => m.action === 'character_assigned')).toMatchObject({
      summary: expect.stringContaining('Pippin'),
    });
  });

  it('answers test_connection', async () => {
    const { gm, party } = await partyWithStash();
    const cable = consumer(gm);
    const received: Record<string, unknown>[] = [];
    let resolveAnswer = () => {};
    const answered = new Promise<void>((resolve) => {
      resolveAnswer = resolve;
    });
    const subscription = cable.subscriptions.create(
      { channel: 'PartyInventoryChannel', party_id: party.id },
      {
        connected() {
          subscription.perform('test_connection');
        },
        received(message: Record<string, unknown>) {
          received.push(message);
          if (message.action === 'test_connection') resolveAnswer();
        },
      },
    );
    await answered;
    expect(received.find((m) => m.action === 'test_connection')).toMatchObject({ ok: true });
  });
});

describe('shutdown', () => {
  it('tells clients to reconnect when the server stops', async () => {
    const other = await buildTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.app.server.address() as AddressInfo).port;
    const user = await createUser(other);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${user.token}`, ['actioncable-v1-json']);
    const frames: Record<string, unknown>[] = [];
    const welcomed = new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as Record<string, unknown>;
        frames.push(frame);
        if (frame.type === 'welcome') resolve();
      }),
    );
    await welcomed;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await other.close();
    await closed;
    expect(frames).toContainEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
  });
});
