import type { AddressInfo } from 'node:net';
import { ACCESS_TOKEN_TTL_S } from '@haversack/contracts';
import type * as ActionCable from '@rails/actioncable';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { errorHandlerPlugin } from '../plugins/error-handler.js';
import { consumerFor, subscribe } from '../test/cable-client.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../test/factories.js';
import { buildTestApp, callApi, json, linkFromMail, type TestContext } from '../test/helper.js';
import { InProcessBroadcaster } from './broadcaster.js';
import {
  type CableLimits,
  cablePlugin,
  defaultCableLimits,
  onCableSocketError,
  PRESENCE_LEAVE_GRACE_MS,
} from './cable-server.js';
import { InProcessPresence } from './presence.js';

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
    frames,
    send: (command: string, identifier: string) => socket.send(JSON.stringify({ command, identifier })),
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
  // The player acts on the stash, which needs party_collaboration (not in Free).
  await upgrade(ctx, player, 'tier_1');
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
      summary: `${player.user.username} added 2 × Rope to Stash (${party.name})`,
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
    // Only the last tab closing takes the player offline, once the grace has passed: one "left", and no
    // second "joined" before it.
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
    const watcher = subscribe(consumer(gm), 'PartyChannel', party.id);
    await watcher.connected;
    await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
    await channel.rejected;
    await members.rejected;
    // Not coming back: offline at once, without the grace a reload gets.
    const removedAt = Date.now();
    const left = await watcher.next((m) => m.action === 'presence_changed' && m.user_id === player.user.id);
    expect(left).toMatchObject({ change_type: 'left' });
    expect(Date.now() - removedAt).toBeLessThan(PRESENCE_LEAVE_GRACE_MS / 2);
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

/** A raw socket subscribed to a party's inventory feed, to watch it end. */
async function watching(token: string, partyId: string) {
  const raw = rawSocket(token);
  const identifier = JSON.stringify({ channel: 'PartyInventoryChannel', party_id: partyId });
  await raw.frame((f) => f.type === 'welcome');
  raw.send('subscribe', identifier);
  await raw.frame((f) => f.type === 'confirm_subscription' && f.identifier === identifier);
  return raw;
}

const unauthorized = (reconnect: boolean) => ({ type: 'disconnect', reason: 'unauthorized', reconnect });

async function signIn(user: SignedInUser) {
  const response = await callApi(ctx, 'POST', '/auth/login', undefined, {
    email: user.user.email,
    password: user.password,
  });
  const session = json<{ data: { token: string; refresh_token: string } }>(response).data;
  return { ...session, auth: { authorization: `Bearer ${session.token}` } };
}

// A character's page follows its party's channels: the character read policy (its player or a member of its
// party, and the player is always one) is the channels' subscription policy, membership, and the character's
// changes are announced there by id.
describe('a character’s live updates, for whoever may read the character', () => {
  it('feeds the GM and the other members a player’s change to their character, and a stranger nothing', async () => {
    const { gm, party, player, hero } = await partyWithStash();
    const observer = await createMember(ctx, party, 'observer');
    const stranger = await createUser(ctx);
    for (const reader of [player, gm, observer])
      expect((await callApi(ctx, 'GET', `/characters/${hero.id}`, reader)).statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', `/characters/${hero.id}`, stranger)).statusCode).toBe(404);

    const gmSocket = consumer(gm);
    const gmRows = subscribe(gmSocket, 'PartyInventoryChannel', party.id);
    const gmParty = subscribe(gmSocket, 'PartyChannel', party.id);
    const observerRows = subscribe(consumer(observer), 'PartyInventoryChannel', party.id);
    const strangerSocket = consumer(stranger);
    const strangerRows = subscribe(strangerSocket, 'PartyInventoryChannel', party.id);
    const strangerParty = subscribe(strangerSocket, 'PartyChannel', party.id);
    await Promise.all([gmRows.connected, gmParty.connected, observerRows.connected]);
    await Promise.all([strangerRows.rejected, strangerParty.rejected]);

    const gold = await coinTemplate(ctx, 'gp');
    const added = await callApi(ctx, 'POST', '/item_instances', player, {
      item_template_id: gold.id,
      container_id: hero.primary_container_id,
      quantity: 10,
    });
    expect(added.statusCode, added.body).toBe(201);
    const row = await gmRows.next((m) => m.action === 'item_added');
    expect(row).toMatchObject({
      party_id: party.id,
      actor: { id: player.user.id },
      ids: { character_id: hero.id, destination_container_id: hero.primary_container_id },
    });
    // Ids and a sentence, which the page turns into a refetch of what it shows: never the inventory itself.
    expect(JSON.stringify(row).length).toBeLessThan(1_024);
    expect(await gmParty.next((m) => m.action === 'inventory_updated')).toMatchObject({
      actor: { id: player.user.id },
      ids: { character_id: hero.id },
    });
    expect(await observerRows.next((m) => m.action === 'item_added')).toMatchObject({
      ids: { character_id: hero.id },
    });
    // A later change the stranger could not have missed either, had they been fed: still nothing.
    await ctx.app.services.partyNotes.update(
      { id: player.user.id, username: player.user.username },
      party.id,
      { notes: 'done', version: 0 },
    );
    await gmParty.next((m) => m.action === 'notes_updated');
    expect(strangerRows.messages).toEqual([]);
    expect(strangerParty.messages).toEqual([]);
  });

  it('feeds the player the GM’s change to their character', async () => {
    const { gm, party, player, hero } = await partyWithStash();
    const socket = consumer(player);
    const rows = subscribe(socket, 'PartyInventoryChannel', party.id);
    const members = subscribe(socket, 'PartyChannel', party.id);
    await Promise.all([rows.connected, members.connected]);
    const gold = await coinTemplate(ctx, 'gp');
    // DESIGN §4: the GM may act on every container of the party, its characters' included.
    const added = await callApi(ctx, 'POST', '/item_instances', gm, {
      item_template_id: gold.id,
      container_id: hero.primary_container_id,
      quantity: 25,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await rows.next((m) => m.action === 'item_added')).toMatchObject({
      actor: { id: gm.user.id },
      ids: { character_id: hero.id, destination_container_id: hero.primary_container_id },
    });
    expect(await members.next((m) => m.action === 'inventory_updated')).toMatchObject({
      actor: { id: gm.user.id },
      ids: { character_id: hero.id },
    });
    const wealth = await callApi(ctx, 'GET', `/characters/${hero.id}/wealth`, player);
    expect(json<{ data: { coins: { gp: number } } }>(wealth).data.coins.gp).toBe(25);
  });
});

describe('the PartyChannel messages of spec/02 §7 (issue 14)', () => {
  it('sums up one operation in one inventory_updated and one party_activity, with the rows on the inventory channel', async () => {
    const { gm, party, player, stash } = await partyWithStash();
    // One socket for both channels, so that messages arrive in the order they were sent.
    const socket = consumer(gm);
    const members = subscribe(socket, 'PartyChannel', party.id);
    const rows = subscribe(socket, 'PartyInventoryChannel', party.id);
    await Promise.all([members.connected, rows.connected]);
    await coinTemplate(ctx, 'sp');
    const cp = await coinTemplate(ctx, 'cp');
    const who = { id: player.user.id, username: player.user.username };
    await ctx.app.services.inventory.createInstance(who, {
      item_template_id: cp.id,
      container_id: stash.id,
      quantity: 20,
    });
    await ctx.app.services.inventory.convertCurrency(who, stash.id, { from: 'cp', to: 'sp', quantity: 20 });
    const summary = `${player.user.username} converted 20 cp into 2 sp in Stash (${party.name})`;
    // A later change, so that everything the conversion sent has arrived when it does.
    await ctx.app.services.partyNotes.update(who, party.id, { notes: 'done', version: 0 });
    await members.next((m) => m.action === 'notes_updated');

    // The coins handed in and the coins got: one row each, each saying which it is.
    const got = `${player.user.username} got 2 sp for 20 cp in Stash (${party.name})`;
    expect(rows.messages.filter((m) => m.summary === summary).map((m) => m.action)).toEqual(['item_updated']);
    expect(rows.messages.filter((m) => m.summary === got).map((m) => m.action)).toEqual(['item_updated']);
    const told = members.messages.filter((m) => m.summary === summary);
    expect(told.map((m) => m.action).sort()).toEqual(['inventory_updated', 'party_activity']);
    for (const message of told)
      expect(message).toMatchObject({
        party_id: party.id,
        actor: { id: player.user.id, name: player.user.username },
      });
    // The adding before it was announced the same way, once.
    expect(
      members.messages.filter(
        (m) =>
          m.action === 'inventory_updated' &&
          m.summary === `${player.user.username} added 20 × Copper piece to Stash (${party.name})`,
      ),
    ).toHaveLength(1);
  });

  it('tells a gift’s receiver on inventory_updated, and the activity of a new character on party_activity', async () => {
    const { gm, party, player, hero } = await partyWithStash();
    const channel = subscribe(consumer(player), 'PartyChannel', party.id);
    await channel.connected;
    const gmHero = await createCharacter(ctx, gm, { partyId: party.id, name: 'Brom' });
    expect(await channel.next((m) => m.action === 'party_activity')).toMatchObject({
      summary: `${gm.user.username} created Brom`,
      ids: { character_id: gmHero.id },
    });
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 1 });
    const gmActor = { id: gm.user.id, username: gm.user.username };
    const [stack] = await ctx.app.services.inventory.createInstance(gmActor, {
      item_template_id: rope.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 2,
    });
    await ctx.app.services.inventory.give(gmActor, stack?.id ?? '', { character_id: hero.id, quantity: 1 });
    expect(
      await channel.next(
        (m) => m.action === 'inventory_updated' && m.summary === `Brom gave 1 × Rope to ${hero.name}`,
      ),
    ).toMatchObject({
      ids: {
        character_id: gmHero.id,
        recipient_character_id: hero.id,
        recipient_user_id: player.user.id,
        recipient_notice: 'Brom gave you 1 × Rope',
      },
    });
    // Both sides' histories list the gift: the activity names the giver's character and the receiver's.
    expect(
      await channel.next(
        (m) => m.action === 'party_activity' && m.summary === `Brom gave 1 × Rope to ${hero.name}`,
      ),
    ).toMatchObject({ ids: { character_id: gmHero.id, target_id: hero.id } });
  });

  // A rename, notes or a value changes no quantity and writes no ledger row, but other screens show them
  // (the party's wealth table counts a value): the edit is an item_updated and an inventory_updated.
  it('tells the party of an edit that writes no ledger row', async () => {
    const { gm, party, player, stash } = await partyWithStash();
    const socket = consumer(gm);
    const members = subscribe(socket, 'PartyChannel', party.id);
    const rows = subscribe(socket, 'PartyInventoryChannel', party.id);
    await Promise.all([members.connected, rows.connected]);
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 1 });
    const who = { id: player.user.id, username: player.user.username };
    const [stack] = await ctx.app.services.inventory.createInstance(who, {
      item_template_id: rope.id,
      container_id: stash.id,
      quantity: 1,
    });
    await ctx.app.services.inventory.updateInstance(who, stack?.id ?? '', {
      name: 'Elven rope',
      notes: 'From Lothlórien',
    });
    const summary = `${player.user.username} edited Elven rope in Stash (${party.name})`;
    expect(await rows.next((m) => m.summary === summary)).toMatchObject({
      action: 'item_updated',
      ids: { item_instance_id: stack?.id, destination_container_id: stash.id },
    });
    expect(await members.next((m) => m.summary === summary)).toMatchObject({
      action: 'inventory_updated',
      actor: { id: player.user.id },
    });
  });

  it('sends notes_updated to every member when the notes are saved', async () => {
    const { gm, party, player } = await partyWithStash();
    const channel = subscribe(consumer(gm), 'PartyChannel', party.id);
    await channel.connected;
    const saved = await callApi(ctx, 'PATCH', `/parties/${party.id}/notes`, player, {
      party_notes: { notes: 'Meet at the Yawning Portal', version: 0 },
    });
    expect(saved.statusCode).toBe(200);
    expect(await channel.next((m) => m.action === 'notes_updated')).toMatchObject({
      party_id: party.id,
      actor: { id: player.user.id, name: player.user.username },
      summary: `${player.user.username} updated the party notes`,
    });
  });

  it('sends party_update when a sponsorship starts or ends in the party, and party_updated for edits', async () => {
    const { gm, party, player } = await partyWithStash();
    const channel = subscribe(consumer(player), 'PartyChannel', party.id);
    await channel.connected;
    const patronage = await ctx.app.services.patronages.create(gm.user.id, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(await channel.next((m) => m.action === 'party_update')).toMatchObject({
      actor: { id: gm.user.id, name: gm.user.username },
      summary: `${gm.user.username} started a sponsorship`,
      ids: { patron_id: gm.user.id, beneficiary_id: player.user.id },
    });
    await ctx.app.services.patronages.revoke(player.user.id, patronage.id);
    expect(await channel.next((m) => m.action === 'party_update')).toMatchObject({
      actor: { id: player.user.id },
      summary: `${player.user.username} ended a sponsorship`,
    });
    await ctx.app.services.parties.update(gm.user.id, party.id, { setting: 'Waterdeep' });
    expect(await channel.next((m) => m.action === 'party_updated')).toMatchObject({
      summary: `${gm.user.username} updated the party`,
    });
  });
});

describe('the tab that asked for a change', () => {
  it('is named in the change’s live events when its request said so, and only then', async () => {
    const { gm, party, stash } = await partyWithStash();
    const watcher = await watching(gm.token, party.id);
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 0 });
    const add = (headers: Record<string, string>, quantity: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/item_instances',
        headers: { ...gm.auth, ...headers },
        payload: { item_template_id: rope.id, container_id: stash.id, quantity },
      });
    const added = (quantity: number) =>
      watcher.frame((f) => {
        const message = f.message as { action?: string; summary?: string } | undefined;
        return message?.action === 'item_added' && Boolean(message.summary?.includes(`${quantity} ×`));
      });
    expect((await add({ 'x-haversack-tab': 'tab_4f9a2c1e' }, 1)).statusCode).toBe(201);
    expect((await added(1)).message).toMatchObject({ tab: 'tab_4f9a2c1e', source: 'web' });
    expect((await add({}, 2)).statusCode).toBe(201);
    expect((await added(2)).message).not.toHaveProperty('tab');
    // Not a token the web app makes: ignored rather than echoed.
    expect((await add({ 'x-haversack-tab': '<script>' }, 3)).statusCode).toBe(201);
    expect((await added(3)).message).not.toHaveProperty('tab');
    watcher.socket.close();
  });
});

describe('a socket ends with its session (review F2)', () => {
  it('closes at logout, and only the socket of the session that logged out', async () => {
    const { gm, party, stash } = await partyWithStash();
    const other = await signIn(gm);
    const ending = await watching(gm.token, party.id);
    const staying = await watching(other.token, party.id);
    expect((await callApi(ctx, 'DELETE', '/auth/logout', gm)).statusCode).toBe(204);
    expect(await ending.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(false));
    await ending.closed;
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 0 });
    await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: rope.id, container_id: stash.id, quantity: 1 },
    );
    await staying.frame((f) => (f.message as { action?: string } | undefined)?.action === 'item_added');
    expect(
      ending.frames.some((f) => f.message && (f.message as { action?: string }).action === 'item_added'),
    ).toBe(false);
    staying.socket.close();
  });

  it('closes the other sessions’ sockets when the password changes, keeping this one', async () => {
    const { gm, party } = await partyWithStash();
    const other = await signIn(gm);
    const kept = await watching(gm.token, party.id);
    const ended = await watching(other.token, party.id);
    const change = await callApi(ctx, 'PUT', '/users/me/password', gm, {
      current_password: gm.password,
      password: 'Changed123',
      password_confirmation: 'Changed123',
    });
    expect(change.statusCode).toBe(200);
    expect(await ended.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(false));
    await ended.closed;
    // The socket of the session that made the change still answers.
    const identifier = JSON.stringify({ channel: 'PartyInventoryChannel', party_id: party.id });
    kept.socket.send(
      JSON.stringify({ command: 'message', identifier, data: JSON.stringify({ action: 'test_connection' }) }),
    );
    await kept.frame((f) => (f.message as { action?: string } | undefined)?.action === 'test_connection');
    expect(kept.frames.some((f) => f.type === 'disconnect')).toBe(false);
    kept.socket.close();
  });

  it('tells the other devices’ sockets that the account was deleted, which they could not ask afterwards', async () => {
    const { gm, party } = await partyWithStash();
    const phone = await signIn(gm);
    const onPhone = await watching(phone.token, party.id);
    const deleted = await callApi(ctx, 'DELETE', '/users/me', gm, { password: gm.password });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await onPhone.frame((f) => f.type === 'disconnect')).toEqual({
      ...unauthorized(false),
      session_end: 'account_deleted',
    });
    await onPhone.closed;
  });

  it('closes the socket of a device signed out from another, and only that one', async () => {
    const { gm, party } = await partyWithStash();
    const phone = await signIn(gm);
    const signedOut = await watching(phone.token, party.id);
    const kept = await watching(gm.token, party.id);
    const sessions = json<{ data: { id: string; current: boolean }[] }>(
      await callApi(ctx, 'GET', '/users/me/sessions', phone),
    ).data;
    const phoneSession = sessions.find((s) => s.current);
    expect((await callApi(ctx, 'DELETE', `/users/me/sessions/${phoneSession?.id}`, gm)).statusCode).toBe(204);
    expect(await signedOut.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(false));
    await signedOut.closed;
    expect(kept.frames.some((f) => f.type === 'disconnect')).toBe(false);
    kept.socket.close();
  });

  it('closes every socket of the user at a password reset', async () => {
    const { gm, party } = await partyWithStash();
    const other = await signIn(gm);
    const sockets = [await watching(gm.token, party.id), await watching(other.token, party.id)];
    await callApi(ctx, 'POST', '/auth/forgot_password', undefined, { email: gm.user.email });
    const token = (await linkFromMail(ctx, gm.user.email, 'reset-password')).split('/').at(-1) ?? '';
    const reset = await callApi(ctx, 'POST', '/auth/reset_password', undefined, {
      token,
      password: 'Reset1234',
      password_confirmation: 'Reset1234',
    });
    expect(reset.statusCode).toBe(200);
    for (const raw of sockets) {
      expect(await raw.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(false));
      await raw.closed;
    }
  });

  it('closes the socket of a session revoked for refresh-token reuse', async () => {
    const { gm, party } = await partyWithStash();
    const first = await callApi(ctx, 'POST', '/auth/refresh', undefined, { refresh_token: gm.refresh_token });
    const rotated = json<{ data: { token: string } }>(first).data;
    const raw = await watching(rotated.token, party.id);
    const replay = await callApi(ctx, 'POST', '/auth/refresh', undefined, {
      refresh_token: gm.refresh_token,
    });
    expect(json<{ error: { code: string } }>(replay).error.code).toBe('REVOKED_TOKEN');
    expect(await raw.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(false));
    await raw.closed;
  });

  it('closes when the access token expires, inviting a reconnect with a fresh one', async () => {
    const { gm, party } = await partyWithStash();
    const { sessionId, userId } = await ctx.app.services.accessTokens.verify(gm.token);
    // Issued long enough ago that it has a second or two to live: enough to connect and subscribe.
    const issuedAt = new Date(Date.now() - (ACCESS_TOKEN_TTL_S - 2) * 1000);
    const { token, expiresAt } = await ctx.app.services.accessTokens.issue({ userId, sessionId }, issuedAt);
    const raw = await watching(token, party.id);
    expect(await raw.frame((f) => f.type === 'disconnect')).toEqual(unauthorized(true));
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    await raw.closed;
  });
});

describe('subscriptions are keyed by channel and party (review F7)', () => {
  const inventory = (partyId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ channel: 'PartyInventoryChannel', party_id: partyId, ...extra });

  it('refuses extra keys and other spellings of a held feed, and delivers each change once', async () => {
    const { gm, party, stash } = await partyWithStash();
    const raw = rawSocket(gm.token);
    const reply = (identifier: string) =>
      raw.frame(
        (f) =>
          f.identifier === identifier &&
          (f.type === 'confirm_subscription' || f.type === 'reject_subscription'),
      );
    await raw.frame((f) => f.type === 'welcome');
    for (let n = 1; n <= 3; n++) {
      const hostile = inventory(party.id, { n });
      raw.send('subscribe', hostile);
      expect((await reply(hostile)).type).toBe('reject_subscription');
    }
    const canonical = inventory(party.id);
    raw.send('subscribe', canonical);
    expect((await reply(canonical)).type).toBe('confirm_subscription');
    const spellings = [
      JSON.stringify({ party_id: party.id, channel: 'PartyInventoryChannel' }),
      inventory(party.id.toUpperCase()),
      ` ${canonical}`,
    ];
    for (const spelling of spellings) {
      raw.send('subscribe', spelling);
      expect((await reply(spelling)).type).toBe('reject_subscription');
    }
    // The same identifier again (the official client repeats until answered) is confirmed, not doubled.
    const confirmations = () =>
      raw.frames.filter((f) => f.identifier === canonical && f.type === 'confirm_subscription').length;
    raw.send('subscribe', canonical);
    await raw.frame(() => confirmations() === 2);

    const rope = await createTemplate(ctx, { name: 'Rope', weight: 0 });
    const who = { id: gm.user.id, username: gm.user.username };
    const add = (quantity: number) =>
      ctx.app.services.inventory.createInstance(who, {
        item_template_id: rope.id,
        container_id: stash.id,
        quantity,
      });
    const added = (quantity: number) => (f: Record<string, unknown>) =>
      (f.message as { action?: string; summary?: string } | undefined)?.action === 'item_added' &&
      ((f.message as { summary: string }).summary.includes(`${quantity} × Rope`) ?? false);
    await add(2);
    await add(3);
    // Frames arrive in order: once the second change is here, every copy of the first would be too.
    await raw.frame(added(3));
    expect(raw.frames.filter(added(2))).toHaveLength(1);
    expect(raw.frames.filter((f) => f.message !== undefined).every((f) => f.identifier === canonical)).toBe(
      true,
    );
    raw.socket.close();
  });

  it('answers commands only under the identifier the subscription was made with', async () => {
    const { gm, party } = await partyWithStash();
    const raw = await watching(gm.token, party.id);
    const reordered = JSON.stringify({ party_id: party.id, channel: 'PartyInventoryChannel' });
    // Unsubscribing under another spelling leaves the feed alone.
    raw.send('unsubscribe', reordered);
    raw.socket.send(
      JSON.stringify({
        command: 'message',
        identifier: inventory(party.id),
        data: JSON.stringify({ action: 'test_connection' }),
      }),
    );
    const answer = await raw.frame(
      (f) => (f.message as { action?: string } | undefined)?.action === 'test_connection',
    );
    expect(answer.identifier).toBe(inventory(party.id));
    raw.socket.close();
  });
});

/**
 * The cable alone on a server of its own, on the test app's database and services, with `options` on top;
 * with `logLines`, what it logs is parsed into that array.
 */
async function startCableServer(options: {
  limits?: CableLimits;
  presenceLeaveGraceMs?: number;
  logLines?: Record<string, unknown>[];
}) {
  const { logLines, ...cableOptions } = options;
  const cable = Fastify({
    logger: logLines
      ? { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line)) } }
      : false,
  });
  await cable.register(errorHandlerPlugin);
  await cable.register(cablePlugin, {
    db: ctx.database.db,
    accessTokens: ctx.app.services.accessTokens,
    accounts: ctx.app.services.accounts,
    broadcaster: new InProcessBroadcaster(),
    presence: new InProcessPresence(),
    ...cableOptions,
  });
  await cable.listen({ port: 0, host: '127.0.0.1' });
  return { cable, port: (cable.server.address() as AddressInfo).port };
}

describe('a bounded number of subscriptions per connection', () => {
  let cable: FastifyInstance;
  let cableUrl: string;

  beforeAll(async () => {
    let port: number;
    ({ cable, port } = await startCableServer({
      limits: { ...defaultCableLimits, subscriptionsPerConnection: 3, subscribesPer10s: 100 },
    }));
    cableUrl = `ws://127.0.0.1:${port}/cable`;
  });
  afterAll(() => cable.close());

  it('refuses a subscription beyond the limit, those still being checked included', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const parties = [await createParty(ctx, gm), await createParty(ctx, gm)];
    const socket = new WebSocket(`${cableUrl}?token=${gm.token}`, ['actioncable-v1-json']);
    const replies = new Map<string, string>();
    const identifiers = parties.flatMap((party) =>
      ['PartyChannel', 'PartyInventoryChannel'].map((channel) =>
        JSON.stringify({ channel, party_id: party.id }),
      ),
    );
    const answered = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => replies.size >= count && resolve();
        socket.on('message', (data: Buffer) => {
          const frame = JSON.parse(data.toString()) as { type?: string; identifier?: string };
          if (frame.identifier && frame.type?.endsWith('subscription'))
            replies.set(frame.identifier, frame.type);
          check();
        });
      });
    const allFour = answered(4);
    await new Promise((resolve) => socket.once('open', resolve));
    // Sent at once: the fourth arrives while the first three are still being checked.
    for (const identifier of identifiers) socket.send(JSON.stringify({ command: 'subscribe', identifier }));
    await allFour;
    expect(identifiers.map((identifier) => replies.get(identifier))).toEqual([
      'confirm_subscription',
      'confirm_subscription',
      'confirm_subscription',
      'reject_subscription',
    ]);
    // Room again once one is given up.
    const last = identifiers[3] ?? '';
    replies.delete(last);
    const again = answered(4);
    socket.send(JSON.stringify({ command: 'unsubscribe', identifier: identifiers[0] }));
    socket.send(JSON.stringify({ command: 'subscribe', identifier: last }));
    await again;
    expect(replies.get(last)).toBe('confirm_subscription');
    socket.close();
  });
});

describe('a bounded number of commands per connection', () => {
  let cable: FastifyInstance;
  let cableUrl: string;

  beforeAll(async () => {
    let port: number;
    ({ cable, port } = await startCableServer({ limits: { ...defaultCableLimits, commandsPer10s: 20 } }));
    cableUrl = `ws://127.0.0.1:${port}/cable`;
  });
  afterAll(() => cable.close());

  it('answers commands up to the budget, then closes a connection that floods, without inviting it back', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const identifier = JSON.stringify({ channel: 'PartyChannel', party_id: party.id });
    const socket = new WebSocket(`${cableUrl}?token=${gm.token}`, ['actioncable-v1-json']);
    const frames: { type?: string; reason?: string; reconnect?: boolean; message?: { action?: string } }[] =
      [];
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ command: 'subscribe', identifier }));
    await vi.waitFor(() => expect(frames.some((f) => f.type === 'confirm_subscription')).toBe(true));
    const ping = JSON.stringify({
      command: 'message',
      identifier,
      data: JSON.stringify({ action: 'test_connection' }),
    });
    for (let i = 0; i < 19; i++) socket.send(ping);
    await vi.waitFor(() =>
      expect(frames.filter((f) => f.message?.action === 'test_connection')).toHaveLength(19),
    );
    for (let i = 0; i < 500; i++) socket.send(ping);
    await closed;
    expect(frames.filter((f) => f.message?.action === 'test_connection')).toHaveLength(19);
    expect(frames.at(-1)).toEqual({ type: 'disconnect', reason: 'invalid_request', reconnect: false });
  });
});

describe('a frame the protocol refuses', () => {
  const lines: Record<string, unknown>[] = [];
  let cable: FastifyInstance;
  let cableUrl: string;

  beforeAll(async () => {
    let port: number;
    ({ cable, port } = await startCableServer({ logLines: lines }));
    cableUrl = `ws://127.0.0.1:${port}/cable`;
  });
  afterAll(() => cable.close());

  /** Opens a welcomed socket, sends `frame` and answers the close code the server ended it with. */
  async function closeCodeAfter(send: (socket: WebSocket) => void) {
    const user = await createUser(ctx);
    const socket = new WebSocket(`${cableUrl}?token=${user.token}`, ['actioncable-v1-json']);
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('error', () => {});
    await new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { type?: string }).type === 'welcome') resolve();
      }),
    );
    send(socket);
    return closed;
  }

  // Any client can send these, so they are the client's fault, logged as warnings: at error level, with
  // a stack each, they would fill the error log (outside review of the real-time server).
  it.each([
    {
      what: 'a frame over the size limit',
      send: (socket: WebSocket) => socket.send('x'.repeat(defaultCableLimits.maxMessageBytes * 4)),
      closeCode: 1009,
      code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    },
    {
      what: 'a text frame that is not UTF-8',
      send: (socket: WebSocket) => socket.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false }),
      closeCode: 1007,
      code: 'WS_ERR_INVALID_UTF8',
    },
  ])(
    'closes on $what and logs a warning without a stack, not an error',
    async ({ send, closeCode, code }) => {
      lines.length = 0;
      expect(await closeCodeAfter(send)).toBe(closeCode);
      await vi.waitFor(() => expect(lines.some((line) => line.ws_error === code)).toBe(true));
      expect(lines.find((line) => line.ws_error === code)).toMatchObject({ level: 40 });
      expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
      expect(JSON.stringify(lines)).not.toContain('"stack"');
    },
  );

  it('still logs any other socket error as an error, with its stack', () => {
    const logged: { level: string; entry: unknown }[] = [];
    const log = {
      warn: (entry: unknown, ..._rest: unknown[]) => void logged.push({ level: 'warn', entry }),
      error: (entry: unknown, ..._rest: unknown[]) => void logged.push({ level: 'error', entry }),
    };
    const terminate = vi.fn();
    const failure = new Error('the handler broke');
    onCableSocketError(failure, { terminate }, { log });
    expect(logged).toEqual([{ level: 'error', entry: failure }]);
    expect(terminate).toHaveBeenCalledOnce();
  });
});

describe('presence outlives a quick re-subscription', () => {
  const graceMs = 1_000;
  let cable: FastifyInstance;
  let cableBase: string;

  beforeAll(async () => {
    let port: number;
    ({ cable, port } = await startCableServer({ presenceLeaveGraceMs: graceMs }));
    cableBase = `http://127.0.0.1:${port}`;
  });
  afterAll(() => cable.close());

  function consumerHere(user: SignedInUser) {
    const created = consumerFor(cableBase, user.token);
    consumers.push(created);
    return created;
  }
  const presenceOf = (user: SignedInUser) => (m: Record<string, unknown>) =>
    m.action === 'presence_changed' && m.user_id === user.user.id;

  it('tells the others nothing when a member reloads the page or moves between screens, and "left" once they stay away', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const latecomer = await createMember(ctx, party, 'player');
    const watcher = subscribe(consumerHere(gm), 'PartyChannel', party.id);
    await watcher.connected;
    const firstPage = consumerHere(player);
    await subscribe(firstPage, 'PartyChannel', party.id).connected;
    expect(await watcher.next(presenceOf(player))).toMatchObject({ change_type: 'joined' });

    // A reload: the page's socket closes and the next page opens another.
    firstPage.disconnect();
    const nextPage = consumerHere(player);
    const onNextPage = subscribe(nextPage, 'PartyChannel', party.id);
    await onNextPage.connected;
    // A screen without the party's channels and back: unsubscribed and subscribed again on one socket.
    onNextPage.unsubscribe();
    await subscribe(nextPage, 'PartyChannel', party.id).connected;
    // Whatever the player's comings and goings announced reaches the watcher before the latecomer's join.
    await subscribe(consumerHere(latecomer), 'PartyChannel', party.id).connected;
    await watcher.next(presenceOf(latecomer));
    expect(watcher.messages.filter(presenceOf(player))).toEqual([]);

    // Gone for good: "left", but only once the grace has passed.
    const leftAt = Date.now();
    nextPage.disconnect();
    const left = await watcher.next(presenceOf(player));
    expect(left).toMatchObject({ change_type: 'left' });
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(graceMs - 50);
    expect((left.online_users as { id: string }[]).map((u) => u.id).sort()).toEqual(
      [gm.user.id, latecomer.user.id].sort(),
    );
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

describe('NotificationsChannel', () => {
  it('tells a user on their own stream, and nobody else, that a notice was written for them', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const mine = subscribe(consumer(player), 'NotificationsChannel');
    const theirs = subscribe(consumer(gm), 'NotificationsChannel');
    await Promise.all([mine.connected, theirs.connected]);
    await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
    expect(await mine.next()).toEqual({ action: 'notification_created' });
    // The GM, who removed them, hears of no notice then: the first they hear of is one of their own.
    const patron = await createUser(ctx);
    await upgrade(ctx, patron, 'tier_2');
    const second = await createParty(ctx, patron);
    await upgrade(ctx, gm, 'tier_1');
    await ctx.app.services.parties.join(gm.user.id, {
      join_code: second.join_code ?? '',
      role_request: 'player',
    });
    await ctx.app.services.parties.removeMember(patron.user.id, second.id, gm.user.id);
    expect(await theirs.next()).toEqual({ action: 'notification_created' });
    expect(theirs.messages).toEqual([]);
  });

  it('tells the user’s other pages when they marked notices read, one or all', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const other = await createMember(ctx, party, 'player');
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    const mine = subscribe(consumer(player), 'NotificationsChannel');
    const theirs = subscribe(consumer(other), 'NotificationsChannel');
    await Promise.all([mine.connected, theirs.connected]);
    const [notice] = (await ctx.app.services.notifications.list(player.user.id, { page: 1, per_page: 1 }))
      .data;
    if (!notice) throw new Error('no notice');
    await ctx.app.services.notifications.markRead(player.user.id, notice.id);
    expect(await mine.next()).toEqual({ action: 'notifications_read' });
    await ctx.app.services.notifications.markAllRead(player.user.id);
    expect(await mine.next()).toEqual({ action: 'notifications_read' });
    expect(theirs.messages).toEqual([]);
  });

  // An invitation is kept in the invitee's pending invitations, not as a notice: their pages refetch that
  // list when one arrives, is withdrawn, or is answered on another of their pages.
  it('tells the invitee, and nobody else, that their pending invitations changed', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const invitee = await createUser(ctx);
    const other = await createUser(ctx);
    const mine = subscribe(consumer(invitee), 'NotificationsChannel');
    const theirs = subscribe(consumer(gm), 'NotificationsChannel');
    const others = subscribe(consumer(other), 'NotificationsChannel');
    await Promise.all([mine.connected, theirs.connected, others.connected]);
    const parties = ctx.app.services.parties;
    const invite = (by: { username: string } | { email: string }) =>
      parties.invite(gm.user.id, party.id, { ...by, role: 'player', message: '' });
    const byName = await invite({ username: invitee.user.username });
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    await parties.revokeInvitation(gm.user.id, party.id, byName.id);
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    const byMail = await invite({ email: invitee.user.email });
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    await parties.declineInvitation(invitee.user.id, byMail.id);
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    // A refused invitation (already a member) tells nobody.
    await expect(invite({ username: gm.user.username })).rejects.toThrow();
    const again = await invite({ username: invitee.user.username });
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    await parties.acceptInvitation(invitee.user.id, again.id);
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    expect(mine.messages).toEqual([]);
    expect(theirs.messages).toEqual([]);
    expect(others.messages).toEqual([]);
  });

  it('tells a pending invitee that their invitation went with its party', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const invitee = await createUser(ctx);
    const mine = subscribe(consumer(invitee), 'NotificationsChannel');
    await mine.connected;
    await ctx.app.services.parties.invite(gm.user.id, party.id, {
      username: invitee.user.username,
      role: 'player',
      message: '',
    });
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    await ctx.app.services.parties.delete(gm.user, party.id);
    expect(await mine.next()).toEqual({ action: 'invitations_changed' });
    expect(await ctx.app.services.parties.myInvitations(invitee.user.id)).toEqual([]);
    expect(mine.messages).toEqual([]);
  });

  it('takes no parameters: an identifier naming a party or a user is refused', async () => {
    const user = await createUser(ctx);
    const party = await createParty(ctx, user);
    await subscribe(consumer(user), 'NotificationsChannel', party.id).rejected;
  });
});
