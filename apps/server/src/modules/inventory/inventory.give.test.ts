import { inventoryMessages, partyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import type { DomainEvent } from '../../realtime/events.js';
import { inventorySummaries } from '../../realtime/party-summaries.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Stack {
  id: string;
  name: string;
  quantity: number;
  instance_data: Record<string, unknown>;
}
interface Body {
  data: Stack & Stack[] & { moved: number; transaction_ids: string[] };
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** A party with two players, Pip (holding 5 ropes) and Brom, each with a character. */
async function partyOfTwo() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const pipPlayer = await createMember(ctx, party, 'player');
  const bromPlayer = await createMember(ctx, party, 'player');
  const pip = await createCharacter(ctx, pipPlayer, { name: 'Pip', partyId: party.id });
  const brom = await createCharacter(ctx, bromPlayer, { name: 'Brom', partyId: party.id });
  const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
  const added = await call('POST', '/item_instances', pipPlayer, {
    item_template_id: rope.id,
    container_id: pip.primary_container_id,
    quantity: 5,
  });
  const ropeId = String(body(added).data[0]?.id);
  return { gm, party, pipPlayer, bromPlayer, pip, brom, rope, ropeId };
}

const give = (user: SignedInUser, itemId: string, payload: unknown) =>
  call('POST', `/item_instances/${itemId}/give`, user, payload);

async function itemsIn(user: SignedInUser, containerId: unknown): Promise<Stack[]> {
  return body(await call('GET', `/containers/${String(containerId)}/items?per_page=100`, user)).data;
}

/** A second container, Pouch, for the character, made by its player; answered as the server gives it. */
async function pouchFor(player: SignedInUser, character: { id: string }): Promise<Stack> {
  return body(
    await call('POST', '/containers', player, { container: { character_id: character.id, name: 'Pouch' } }),
  ).data;
}

const putIn = (user: SignedInUser, templateId: string, containerId: unknown, quantity: number) =>
  call('POST', '/item_instances', user, {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });

/** Moves `quantity` of a stack out of `from` (the container holding it) into `to`. */
const moveOut = (user: SignedInUser, itemId: string, from: unknown, to: unknown, quantity: number) =>
  call('POST', '/containers/transfer', user, {
    item_instance_id: itemId,
    source_container_id: from,
    target_container_id: to,
    quantity,
  });

/** Deletes a container, its items moved to `destination` first. */
const removeInto = (user: SignedInUser, containerId: string, destination: unknown) =>
  call('DELETE', `/containers/${containerId}?destination_container_id=${String(destination)}`, user);

describe('giving an item to another character of the party (issue 12 §8)', () => {
  it("moves it into the receiver's primary container, writes the ledger and tells the receiver", async () => {
    const { pipPlayer, bromPlayer, pip, brom, ropeId, party } = await partyOfTwo();
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    const response = await give(pipPlayer, ropeId, { character_id: brom.id, quantity: 2 });
    expect(response.statusCode).toBe(200);
    expect(body(response).data.moved).toBe(2);
    expect((await itemsIn(pipPlayer, pip.primary_container_id)).map((s) => s.quantity)).toEqual([3]);
    expect((await itemsIn(bromPlayer, brom.primary_container_id)).map((s) => [s.name, s.quantity])).toEqual([
      ['Rope', 2],
    ]);

    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, String(body(response).data.transaction_ids[0])));
    expect(row).toMatchObject({
      transactionType: 'character_to_character_transfer',
      partyId: party.id,
      characterId: pip.id,
      targetName: 'Brom',
      quantity: 2,
      sourceContainerId: pip.primary_container_id,
      destinationContainerId: brom.primary_container_id,
      summary: 'Pip gave 2 × Rope to Brom',
    });

    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const moved = events.find((e) => e.partyId === party.id && e.action === 'item_moved');
    expect(moved?.ids).toMatchObject({
      destination_container_id: brom.primary_container_id,
      recipient_character_id: brom.id,
      recipient_user_id: bromPlayer.user.id,
      recipient_notice: 'Pip gave you 2 × Rope',
    });
  });

  it('gives the whole stack by default, and the receiver is neither wearing nor attuned to it', async () => {
    const { pipPlayer, bromPlayer, pip, brom } = await partyOfTwo();
    const cloak = await createTemplate(ctx, {
      name: 'Cloak of Protection',
      metadata: { rarity: 'uncommon', requires_attunement: true },
    });
    const [added] = body(
      await call('POST', '/item_instances', pipPlayer, {
        item_template_id: cloak.id,
        container_id: pip.primary_container_id,
      }),
    ).data;
    await call('PATCH', `/item_instances/${added?.id}`, pipPlayer, {
      item_instance: { instance_data: { is_attuned: true, is_equipped: true } },
    });
    expect((await give(pipPlayer, String(added?.id), { character_id: brom.id })).statusCode).toBe(200);
    const received = (await itemsIn(bromPlayer, brom.primary_container_id)).find(
      (s) => s.name === cloak.name,
    );
    expect(received?.quantity).toBe(1);
    expect(received?.instance_data.is_attuned).toBeUndefined();
    expect(received?.instance_data.is_equipped).toBeUndefined();
  });

  it('refuses characters outside the party, itself, too many, and other people’s items, changing nothing', async () => {
    const { pipPlayer, bromPlayer, pip, brom, ropeId } = await partyOfTwo();
    const outsider = await createCharacter(ctx, await createUser(ctx), { name: 'Stranger' });
    const loner = await createCharacter(ctx, pipPlayer, { name: 'Pip’s other hero' });

    // A character Pip's player may not see is answered as an unknown one.
    const outside = await give(pipPlayer, ropeId, { character_id: outsider.id });
    expect(outside.statusCode).toBe(422);
    expect(body(outside).error.message).toBe('Character not found.');
    const unparty = await give(pipPlayer, ropeId, { character_id: loner.id });
    expect(body(unparty).error.message).toBe(inventoryMessages.giveOutsideParty);

    const self = await give(pipPlayer, ropeId, { character_id: pip.id });
    expect(self.statusCode).toBe(422);
    expect(body(self).error.message).toBe(inventoryMessages.giveToOtherCharacter);
    // A sentence, like every other refusal the web app and /give show.
    expect(inventoryMessages.giveToOtherCharacter).toBe(
      'Choose another character: this is the one giving it.',
    );

    const tooMany = await give(pipPlayer, ropeId, { character_id: brom.id, quantity: 6 });
    expect(tooMany.statusCode).toBe(422);
    expect(body(tooMany).error.details).toEqual([
      { field: 'quantity', message: inventoryMessages.quantityTooLarge },
    ]);

    const missing = await give(pipPlayer, ropeId, {});
    expect(missing.statusCode).toBe(422);
    expect(body(missing).error.details?.[0]).toMatchObject({
      field: 'character_id',
      message: inventoryMessages.giveRecipientRequired,
    });

    // Brom may look at Pip's backpack but not hand its rope to himself.
    expect((await give(bromPlayer, ropeId, { character_id: brom.id })).statusCode).toBe(403);
    expect((await give(await createUser(ctx), ropeId, { character_id: brom.id })).statusCode).toBe(404);

    expect((await itemsIn(pipPlayer, pip.primary_container_id)).map((s) => s.quantity)).toEqual([5]);
    expect(await itemsIn(bromPlayer, brom.primary_container_id)).toEqual([]);
  });

  it('answers a character the giver may not see exactly as an unknown one, and tells apart only those it may see', async () => {
    const { pipPlayer, ropeId } = await partyOfTwo();
    const unknown = await give(pipPlayer, ropeId, { character_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(422);
    expect(body(unknown).error).toMatchObject({
      message: 'Character not found.',
      details: [{ field: 'character_id', message: 'Character not found.' }],
    });
    // Another's character without a party, and one in a party Pip's player is not in.
    const stranger = await createCharacter(ctx, await createUser(ctx), { name: 'Stranger' });
    const otherGm = await createUser(ctx);
    await upgrade(ctx, otherGm, 'tier_3');
    const otherParty = await createParty(ctx, otherGm);
    const otherMember = await createMember(ctx, otherParty, 'player');
    const faraway = await createCharacter(ctx, otherMember, { name: 'Faraway', partyId: otherParty.id });
    for (const hidden of [stranger, faraway]) {
      const answer = await give(pipPlayer, ropeId, { character_id: hidden.id });
      expect(answer.statusCode, hidden.name).toBe(unknown.statusCode);
      expect(answer.json(), hidden.name).toEqual(unknown.json());
      expect((await call('GET', `/characters/${hidden.id}`, pipPlayer)).statusCode).toBe(404);
    }
    // Ones Pip's player may see: their own without a party, and one of another party they belong to.
    const loner = await createCharacter(ctx, pipPlayer, { name: 'Loner' });
    await ctx.app.services.parties.join(pipPlayer.user.id, {
      join_code: String(otherParty.join_code),
      role_request: 'player',
    });
    const neighbour = await createCharacter(ctx, otherMember, { name: 'Neighbour', partyId: otherParty.id });
    for (const seen of [loner, neighbour]) {
      expect((await call('GET', `/characters/${seen.id}`, pipPlayer)).statusCode, seen.name).toBe(200);
      const answer = await give(pipPlayer, ropeId, { character_id: seen.id });
      expect(answer.statusCode, seen.name).toBe(422);
      expect(body(answer).error.message, seen.name).toBe(inventoryMessages.giveOutsideParty);
    }
  });

  it('refuses an observer and an archived party', async () => {
    const { gm, party, pipPlayer, brom, ropeId, rope } = await partyOfTwo();
    const observer = await createMember(ctx, party, 'observer');
    const watcher = await createCharacter(ctx, observer, { name: 'Watcher', partyId: party.id });
    const [held] = body(
      await call('POST', '/item_instances', observer, {
        item_template_id: rope.id,
        container_id: watcher.primary_container_id,
      }),
    ).data;
    const fromObserver = await give(observer, String(held?.id), { character_id: brom.id });
    expect(fromObserver.statusCode).toBe(403);
    expect(body(fromObserver).error.message).toBe(inventoryMessages.giveAsObserver);

    expect((await call('POST', `/parties/${party.id}/archive`, gm)).statusCode).toBe(200);
    const archived = await give(pipPlayer, ropeId, { character_id: brom.id });
    expect(archived.statusCode).toBe(403);
    expect(body(archived).error.message).toBe(partyMessages.archived);
  });
});

describe('undoing a gift (DESIGN §4 Undo, Who may act)', () => {
  it('offers no Undo to the giver, who may not change the receiver’s container, but does to the GM', async () => {
    const { gm, pipPlayer, pip, brom, ropeId, party } = await partyOfTwo();
    const gift = await give(pipPlayer, ropeId, { character_id: brom.id, quantity: 1 });
    const giftId = String(body(gift).data.transaction_ids[0]);
    const gmGift = await give(gm, ropeId, { character_id: brom.id, quantity: 1 });
    const gmGiftId = String(body(gmGift).data.transaction_ids[0]);

    type Listed = { id: string; undoable?: boolean };
    const listed = async (user: SignedInUser, url: string) =>
      (response(await call('GET', url, user)) as { data: { transactions: Listed[] } }).data.transactions;
    const response = (answer: { json(): unknown }) => answer.json();
    const undoableIn = (rows: Listed[], id: string) => rows.find((row) => row.id === id)?.undoable;

    expect(undoableIn(await listed(pipPlayer, `/transactions/character/${pip.id}`), giftId)).toBe(false);
    expect(undoableIn(await listed(pipPlayer, `/transactions/party/${party.id}`), giftId)).toBe(false);
    expect(
      (response(await call('GET', `/transactions/${giftId}`, pipPlayer)) as { data: Listed }).data.undoable,
    ).toBe(false);
    // The GM acts on every container of the party: their own gift can be moved back.
    expect(undoableIn(await listed(gm, `/transactions/party/${party.id}`), gmGiftId)).toBe(true);
    // Someone else's move is theirs alone to undo: not offered to the GM, in the list or on its own.
    expect(undoableIn(await listed(gm, `/transactions/party/${party.id}`), giftId)).toBe(false);
    expect(
      (response(await call('GET', `/transactions/${gmGiftId}`, pipPlayer)) as { data: Listed }).data.undoable,
    ).toBe(false);
    expect((await call('POST', `/transactions/${gmGiftId}/undo`, gm)).statusCode).toBe(200);
    // And the server refuses the giver's, as the history said.
    expect((await call('POST', `/transactions/${giftId}/undo`, pipPlayer)).statusCode).toBe(403);
  });
});

describe('a give or move made by someone else than the character’s player (review newgm M1)', () => {
  interface Inbox {
    data: { kind: string; message: string; link: { path: string } | null }[];
  }
  const inbox = async (user: SignedInUser) =>
    ((await call('GET', '/notifications', user)).json() as Inbox).data.map((n) => [
      n.kind,
      n.message,
      n.link?.path,
    ]);

  it('names the GM who gave it and the character it came from, and tells that character’s player', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip, brom, ropeId } = await partyOfTwo();
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    const response = await give(gm, ropeId, { character_id: brom.id, quantity: 2 });
    expect(response.statusCode, response.body).toBe(200);

    const said = `${gm.user.username} gave 2 × Rope from Pip to Brom`;
    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, String(body(response).data.transaction_ids[0])));
    expect(row).toMatchObject({ actorId: gm.user.id, characterId: pip.id, summary: said });

    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const moved = events.find((e) => e.partyId === party.id && e.action === 'item_moved');
    expect(moved?.ids).toMatchObject({
      recipient_user_id: bromPlayer.user.id,
      recipient_notice: `${gm.user.username} gave you 2 × Rope from Pip`,
      source_owner_user_id: pipPlayer.user.id,
      source_owner_notice: said,
    });

    expect(await inbox(bromPlayer)).toEqual([['items_received', `${said}.`, `/characters/${brom.id}`]]);
    expect(await inbox(pipPlayer)).toEqual([['items_moved', `${said}.`, `/characters/${pip.id}`]]);
    expect(await inbox(gm)).toEqual([]);
  });

  it('a player giving from their own character tells only the receiver, naming the character', async () => {
    const { pipPlayer, bromPlayer, brom, ropeId } = await partyOfTwo();
    expect((await give(pipPlayer, ropeId, { character_id: brom.id, quantity: 1 })).statusCode).toBe(200);
    expect(await inbox(pipPlayer)).toEqual([]);
    expect((await inbox(bromPlayer)).map(([kind, message]) => [kind, message])).toEqual([
      ['items_received', 'Pip gave 1 × Rope to Brom.'],
    ]);
  });

  it('the GM moving items out of a player’s character: to the stash, to another player, within it', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip, brom, ropeId } = await partyOfTwo();
    const stash = (await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id }))[0];
    if (!stash) throw new Error('no stash');
    const pouch = await pouchFor(pipPlayer, pip);
    expect(pouch.id).toBeTruthy();
    const transfer = (target: unknown) => moveOut(gm, ropeId, pip.primary_container_id, target, 1);
    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    expect((await transfer(stash.id)).statusCode).toBe(200);
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const toStash = `${gm.user.username} moved 1 × Rope from Backpack (Pip) to ${stash.name} (${party.name})`;
    expect(events.find((e) => e.action === 'item_moved')?.ids).toMatchObject({
      source_owner_user_id: pipPlayer.user.id,
      source_owner_notice: toStash,
    });
    expect((await transfer(brom.primary_container_id)).statusCode).toBe(200);
    expect((await transfer(pouch.id)).statusCode).toBe(200);

    expect((await inbox(pipPlayer)).map(([kind, message]) => [kind, message])).toEqual([
      ['items_moved', `${gm.user.username} moved 1 × Rope from Backpack to Pouch.`],
      ['items_moved', `${gm.user.username} gave 1 × Rope from Pip to Brom.`],
      ['items_moved', `${toStash}.`],
    ]);
    expect((await inbox(bromPlayer)).map(([kind, message]) => [kind, message])).toEqual([
      ['items_received', `${gm.user.username} gave 1 × Rope from Pip to Brom.`],
    ]);
  });

  it('the GM undoing a move tells the player it takes items from, and the one it gives them back to', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip, brom, ropeId } = await partyOfTwo();
    const pouch = await pouchFor(pipPlayer, pip);
    const transfer = (target: unknown) => moveOut(gm, ropeId, pip.primary_container_id, target, 2);
    const toBrom = String(body(await transfer(brom.primary_container_id)).data.transaction_ids[0]);
    const toPouch = String(body(await transfer(pouch.id)).data.transaction_ids[0]);
    // Told of the moves themselves already (the test above); the undos' notices come on top, newest first.
    const newer = async (user: SignedInUser, told: number) => {
      const all = await inbox(user);
      return all.slice(0, all.length - told);
    };
    const before = { pip: (await inbox(pipPlayer)).length, brom: (await inbox(bromPlayer)).length };

    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    expect((await call('POST', `/transactions/${toBrom}/undo`, gm)).statusCode).toBe(200);
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const backFromBrom = `${gm.user.username} undid a move: 2 × Rope went back from Backpack (Brom) to Backpack (Pip)`;
    expect(events.find((e) => e.partyId === party.id && e.action === 'item_moved')?.ids).toMatchObject({
      source_owner_user_id: bromPlayer.user.id,
      source_owner_notice: backFromBrom,
      recipient_user_id: pipPlayer.user.id,
      recipient_notice: backFromBrom,
    });
    expect((await call('POST', `/transactions/${toPouch}/undo`, gm)).statusCode).toBe(200);

    expect(await newer(pipPlayer, before.pip)).toEqual([
      [
        'items_moved',
        `${gm.user.username} undid a move: 2 × Rope went back from Pouch to Backpack.`,
        `/characters/${pip.id}`,
      ],
      ['items_received', `${backFromBrom}.`, `/characters/${pip.id}`],
    ]);
    expect(await newer(bromPlayer, before.brom)).toEqual([
      ['items_moved', `${backFromBrom}.`, `/characters/${brom.id}`],
    ]);
    expect(await inbox(gm)).toEqual([]);
  });

  it('a player undoing their own move is not told of it', async () => {
    const { pipPlayer, pip, ropeId } = await partyOfTwo();
    const pouch = await pouchFor(pipPlayer, pip);
    const moved = await moveOut(pipPlayer, ropeId, pip.primary_container_id, pouch.id, 1);
    const id = String(body(moved).data.transaction_ids[0]);
    expect((await call('POST', `/transactions/${id}/undo`, pipPlayer)).statusCode).toBe(200);
    expect(await inbox(pipPlayer)).toEqual([]);
  });

  it('the GM deleting a character’s container tells its player where its contents went, once', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip, brom, rope } = await partyOfTwo();
    const lantern = await createTemplate(ctx, { name: 'Lantern', stackSize: 0 });
    const pouchOf = async () => (await pouchFor(pipPlayer, pip)).id;
    const fill = async (pouch: string) => {
      for (const [template, quantity] of [
        [rope.id, 2],
        [lantern.id, 1],
      ] as const) {
        const added = await putIn(pipPlayer, template, pouch, quantity);
        expect(added.statusCode, added.body).toBe(201);
      }
    };
    const remove = (pouch: string, destination: unknown) => removeInto(gm, pouch, destination);

    const intoBrom = await pouchOf();
    await fill(intoBrom);
    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    const deleted = await remove(intoBrom, brom.primary_container_id);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const toBrom = `${gm.user.username} deleted Pouch (Pip) and moved 1 × Lantern, 2 × Rope to Backpack (Brom)`;
    // The one inventory_updated the party hears of the deletion carries the notices (event-bus.ts).
    const summary = inventorySummaries(events).find((e) => e.partyId === party.id);
    expect(summary?.ids).toMatchObject({
      source_owner_user_id: pipPlayer.user.id,
      source_owner_notice: toBrom,
      recipient_user_id: bromPlayer.user.id,
      recipient_notice: toBrom,
    });

    const withinPip = await pouchOf();
    await fill(withinPip);
    expect((await remove(withinPip, pip.primary_container_id)).statusCode).toBe(204);
    // Emptied beforehand, a container's deletion moves nothing, but it is still gone: its player is told.
    const empty = await pouchOf();
    expect((await remove(empty, pip.primary_container_id)).statusCode).toBe(204);

    expect(await inbox(pipPlayer)).toEqual([
      ['items_moved', `${gm.user.username} deleted Pouch (Pip).`, `/characters/${pip.id}`],
      [
        'items_moved',
        `${gm.user.username} deleted Pouch and moved 1 × Lantern, 2 × Rope to Backpack.`,
        `/characters/${pip.id}`,
      ],
      ['items_moved', `${toBrom}.`, `/characters/${pip.id}`],
    ]);
    expect(await inbox(bromPlayer)).toEqual([['items_received', `${toBrom}.`, `/characters/${brom.id}`]]);
    expect(await inbox(gm)).toEqual([]);
  });

  it('the GM deleting an empty container of a character tells its player, once, and nobody else', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip } = await partyOfTwo();
    const pouch = (await pouchFor(pipPlayer, pip)).id;
    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    const deleted = await call('DELETE', `/containers/${pouch}`, gm);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    const told = `${gm.user.username} deleted Pouch (Pip)`;
    // Told live too, by the one inventory_updated the party hears of the deletion.
    const summary = inventorySummaries(events).find((e) => e.partyId === party.id);
    expect(summary?.ids).toMatchObject({
      source_owner_user_id: pipPlayer.user.id,
      source_owner_notice: told,
    });
    expect(summary?.ids).not.toHaveProperty('recipient_user_id');

    expect(await inbox(pipPlayer)).toEqual([['items_moved', `${told}.`, `/characters/${pip.id}`]]);
    expect(await inbox(bromPlayer)).toEqual([]);
    expect(await inbox(gm)).toEqual([]);
  });

  it('a player deleting their own empty container, or the GM an empty party container, tells nobody', async () => {
    const { gm, party, pipPlayer, bromPlayer, pip } = await partyOfTwo();
    const ownPouch = (await pouchFor(pipPlayer, pip)).id;
    const chest = String(
      body(await call('POST', '/containers', gm, { container: { party_id: party.id, name: 'Chest' } })).data
        .id,
    );
    expect((await call('DELETE', `/containers/${ownPouch}`, pipPlayer)).statusCode).toBe(204);
    expect((await call('DELETE', `/containers/${chest}`, gm)).statusCode).toBe(204);
    expect(await inbox(pipPlayer)).toEqual([]);
    expect(await inbox(bromPlayer)).toEqual([]);
    expect(await inbox(gm)).toEqual([]);
  });

  it('a deletion into another character of the same player tells only the receiving one', async () => {
    const { gm, party, pipPlayer, pip, rope } = await partyOfTwo();
    const pippa = await createCharacter(ctx, pipPlayer, { name: 'Pippa', partyId: party.id });
    const pouch = (await pouchFor(pipPlayer, pip)).id;
    await putIn(pipPlayer, rope.id, pouch, 3);
    const deleted = await removeInto(gm, pouch, pippa.primary_container_id);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await inbox(pipPlayer)).toEqual([
      [
        'items_received',
        `${gm.user.username} deleted Pouch (Pip) and moved 3 × Rope to Backpack (Pippa).`,
        `/characters/${pippa.id}`,
      ],
    ]);
  });

  it('a player deleting their own container with its contents is not told of it', async () => {
    const { pipPlayer, pip, rope } = await partyOfTwo();
    const pouch = (await pouchFor(pipPlayer, pip)).id;
    await putIn(pipPlayer, rope.id, pouch, 1);
    const deleted = await removeInto(pipPlayer, pouch, pip.primary_container_id);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await inbox(pipPlayer)).toEqual([]);
  });

  it('a deletion’s notice lists its first items by name and counts the rest', async () => {
    const { gm, pipPlayer, pip } = await partyOfTwo();
    const pouch = (await pouchFor(pipPlayer, pip)).id;
    for (const name of ['Torch', 'Chalk', 'Bell', 'Flint', 'Candle']) {
      const template = await createTemplate(ctx, { name, stackSize: 0 });
      await putIn(pipPlayer, template.id, pouch, 1);
    }
    const deleted = await removeInto(gm, pouch, pip.primary_container_id);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await inbox(pipPlayer)).map(([, message]) => message)).toEqual([
      `${gm.user.username} deleted Pouch and moved 1 × Bell, 1 × Candle, 1 × Chalk and 2 more to Backpack.`,
    ]);
  });
});
