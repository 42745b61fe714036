import type { Notification, NotificationList, ShopInstance, ShopTemplate } from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../db/schema/notifications.js';
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
import { asSentence } from './notifications.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

async function inbox(user: SignedInUser, query = '') {
  const res = await callApi(ctx, 'GET', `/notifications${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationList;
}

/** Every notice a user has, straight from the table (the actor's own must stay empty). */
async function stored(user: SignedInUser) {
  return ctx.database.db.select().from(notifications).where(eq(notifications.userId, user.user.id));
}

/** A GM on a paid plan with a party and a player in it, each with a character. */
async function table() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { name: 'Pip', partyId: party.id });
  if (!hero.primary_container_id) throw new Error('no bag');
  return { gm, party, player, hero, heroBag: hero.primary_container_id };
}

describe('the inbox', () => {
  it('answers 401 without a session', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/notifications' });
    expect(res.statusCode).toBe(401);
    const read = await ctx.app.inject({ method: 'POST', url: '/api/v1/notifications/read_all' });
    expect(read.statusCode).toBe(401);
  });

  it('lists newest first with paging and the unread count; marks one, then all, read', async () => {
    const { gm, party, player } = await table();
    const other = await createMember(ctx, party, 'player');
    // Two notices for the player: removed from a second party, then the first archived.
    const second = await createParty(ctx, gm);
    await upgrade(ctx, player, 'tier_1');
    await ctx.app.services.parties.join(player.user.id, {
      join_code: second.join_code ?? '',
      role_request: 'player',
    });
    await ctx.app.services.parties.removeMember(gm.user.id, second.id, player.user.id);
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);

    const all = await inbox(player);
    expect(all.meta).toMatchObject({ total_count: 2, unread_count: 2, current_page: 1, total_pages: 1 });
    expect(all.data.map((n) => n.kind)).toEqual(['party_archived', 'member_removed']);
    const paged = await inbox(player, '?per_page=1&page=2');
    expect(paged.data.map((n) => n.kind)).toEqual(['member_removed']);
    expect(paged.meta).toMatchObject({ total_pages: 2, per_page: 1 });

    const [newest] = all.data;
    if (!newest) throw new Error('no notice');
    // Someone else's notice is not found, read or not; nor is a made-up one.
    const theirs = await callApi(ctx, 'POST', `/notifications/${newest.id}/read`, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Notification not found.' },
    });
    const none = await callApi(ctx, 'POST', `/notifications/${crypto.randomUUID()}/read`, player);
    expect(none.statusCode).toBe(404);
    expect((await inbox(player)).meta.unread_count).toBe(2);

    const read = await callApi(ctx, 'POST', `/notifications/${newest.id}/read`, player);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as { data: Notification }).data.read_at).not.toBeNull();
    expect((await inbox(player)).meta.unread_count).toBe(1);
    // Another user's read_all leaves this inbox as it is.
    await callApi(ctx, 'POST', '/notifications/read_all', other);
    expect((await inbox(player)).meta.unread_count).toBe(1);
    const allRead = await callApi(ctx, 'POST', '/notifications/read_all', player);
    expect(allRead.statusCode).toBe(200);
    expect(allRead.json()).toMatchObject({ data: { unread_count: 0 } });
    const after = await inbox(player);
    expect(after.meta.unread_count).toBe(0);
    expect(after.data.every((n) => n.read_at !== null)).toBe(true);
  });

  it('keeps the newest 200 of a user', async () => {
    const { gm, party, player } = await table();
    const service = ctx.app.services.notifications;
    await ctx.database.db.transaction(async (tx) => {
      const notice = {
        userId: player.user.id,
        actorId: gm.user.id,
        kind: 'party_archived' as const,
        partyId: party.id,
        partyName: party.name,
        link: null,
      };
      await service.write(
        tx,
        Array.from({ length: 205 }, (_, i) => ({ ...notice, message: `notice ${i}` })),
      );
    });
    expect((await stored(player)).length).toBe(200);
  });
});

describe('repeats fold', () => {
  /** A GM's NPC with a purse, and a player's character to give to. */
  async function purse(coins: number) {
    const { gm, party, player, hero } = await table();
    const npc = await createCharacter(ctx, gm, { name: 'Garrick', partyId: party.id });
    const gp = await coinTemplate(ctx, 'gp');
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: gp.id,
      container_id: npc.primary_container_id ?? '',
      quantity: coins,
    });
    if (!stack) throw new Error('no gold');
    const give = (quantity = 1) =>
      callApi(ctx, 'POST', `/item_instances/${stack.id}/give`, gm, { character_id: hero.id, quantity });
    return { gm, party, player, hero, give };
  }

  it('the same give over and over, even at once, is one unread notice with its count; real notices stay', async () => {
    const { gm, party, player, give } = await purse(400);
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, false);
    const results = await Promise.all(Array.from({ length: 12 }, () => give()));
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect((await give(2)).statusCode).toBe(200);
    const { data, meta } = await inbox(player);
    expect(data.map((n) => [n.kind, n.message, n.repeat_count])).toEqual([
      ['items_received', 'Garrick gave 2 × Gold piece to Pip.', 13],
      ['party_unarchived', expect.any(String), 1],
      ['party_archived', expect.any(String), 1],
    ]);
    expect(meta).toMatchObject({ total_count: 3, unread_count: 3 });

    // Once read, the next give starts a new notice.
    await callApi(ctx, 'POST', '/notifications/read_all', player);
    await give();
    const after = await inbox(player);
    expect(after.data.map((n) => [n.repeat_count, n.read_at === null])).toEqual([
      [1, true],
      [13, false],
      [1, false],
      [1, false],
    ]);
  });

  it('a fold is moved to now; an hour on, a repeat is a new notice', async () => {
    const { player, give } = await purse(10);
    await give();
    const [first] = await stored(player);
    if (!first) throw new Error('no notice');
    await ctx.database.db
      .update(notifications)
      .set({ createdAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(notifications.id, first.id));
    await give();
    expect((await stored(player)).length).toBe(2);
  });

  it('prunes read notices before unread ones', async () => {
    const { gm, party, player } = await table();
    const service = ctx.app.services.notifications;
    const notice = {
      userId: player.user.id,
      actorId: gm.user.id,
      kind: 'party_archived' as const,
      partyId: party.id,
      partyName: party.name,
      link: null,
    };
    await ctx.database.db.transaction((tx) =>
      service.write(tx, [{ ...notice, kind: 'member_removed', message: 'the oldest, unread' }]),
    );
    await ctx.database.db.transaction((tx) =>
      service.write(
        tx,
        Array.from({ length: 199 }, (_, i) => ({ ...notice, message: `read ${i}` })),
      ),
    );
    await callApi(ctx, 'POST', '/notifications/read_all', player);
    await ctx.database.db
      .update(notifications)
      .set({ readAt: null })
      .where(and(eq(notifications.userId, player.user.id), eq(notifications.kind, 'member_removed')));
    await ctx.database.db.transaction((tx) => service.write(tx, [{ ...notice, message: 'new' }]));
    const kept = (await stored(player)).map((n) => n.payload.message);
    expect(kept.length).toBe(200);
    expect(kept).toContain('the oldest, unread');
    expect(kept).toContain('new');
  });
});

describe('what writes a notice', () => {
  it('a sponsorship started, ended by the patron, and ended by the patron’s plan: the beneficiary, and the patron of the plan’s end', async () => {
    const patron = await createUser(ctx);
    await upgrade(ctx, patron, 'tier_2');
    const party = await createParty(ctx, patron);
    const player = await createMember(ctx, party, 'player');
    const created = await callApi(ctx, 'POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const started = await inbox(player);
    expect(started.data).toEqual([
      expect.objectContaining({
        kind: 'sponsorship_started',
        message: `${patron.user.username} now sponsors you in ${party.name}.`,
        party_id: party.id,
        party_name: party.name,
        link: { kind: 'party', path: `/parties/${party.id}`, label: party.name },
        read_at: null,
      }),
    ]);
    const id = (created.json() as { data: { id: string } }).data.id;
    await callApi(ctx, 'DELETE', `/patronages/${id}`, patron);
    expect((await inbox(player)).data.map((n) => n.kind)).toEqual([
      'sponsorship_ended',
      'sponsorship_started',
    ]);

    await callApi(ctx, 'POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    await callApi(ctx, 'POST', '/subscription/cancel', patron, { cancel_at_period_end: false });
    const [dropped] = (await inbox(player)).data;
    expect(dropped).toMatchObject({
      kind: 'sponsorship_ended',
      message: `${patron.user.username}’s plan no longer covers your sponsorship in ${party.name}: your own plan applies there now.`,
    });
    // The second start, while the first is unread, folds into it: the same act again.
    expect((await inbox(player)).data.map((n) => [n.kind, n.repeat_count])).toEqual([
      ['sponsorship_ended', 1],
      ['sponsorship_started', 2],
      ['sponsorship_ended', 1],
    ]);
    // The patron did not end it themselves: their plan did, and they are told which (review).
    expect((await stored(patron)).map((n) => [n.kind, n.payload.message])).toEqual([
      [
        'sponsorship_ended',
        `Your plan no longer covers your sponsorship of ${player.user.username} in ${party.name}: it has ended.`,
      ],
    ]);
  });

  it('a sponsorship the beneficiary ends, or that ends as they leave: the patron only', async () => {
    const patron = await createUser(ctx);
    await upgrade(ctx, patron, 'tier_2');
    const party = await createParty(ctx, patron);
    const player = await createMember(ctx, party, 'player');
    const created = await callApi(ctx, 'POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    const id = (created.json() as { data: { id: string } }).data.id;
    await callApi(ctx, 'DELETE', `/patronages/${id}`, player);
    await callApi(ctx, 'POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    await ctx.app.services.parties.leave(player.user.id, party.id);
    expect((await inbox(patron)).data.map((n) => n.message)).toEqual([
      `${player.user.username} left ${party.name}: your sponsorship of them there has ended.`,
      `${player.user.username} ended your sponsorship of them in ${party.name}.`,
    ]);
    // Told of the start only, never of their own ending or leaving.
    // (Both starts, the second while the first was unread, are the one notice, counted twice.)
    expect((await stored(player)).map((n) => [n.kind, n.repeatCount])).toEqual([['sponsorship_started', 2]]);
  });

  it('the GM removing a member: the member, not the GM', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
    expect((await inbox(player)).data).toEqual([
      expect.objectContaining({
        kind: 'member_removed',
        message: `${gm.user.username} removed you from ${party.name}.`,
        link: null,
      }),
    ]);
    expect(await stored(gm)).toEqual([]);
  });

  it('a removed member’s older notices lead nowhere in the party until they are back in it', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, false);
    const archived = () => inbox(player).then(({ data }) => data.find((n) => n.kind === 'party_archived'));
    expect((await archived())?.link).toEqual({
      kind: 'party',
      path: `/parties/${party.id}`,
      label: party.name,
    });

    await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
    expect(await archived()).toMatchObject({ party_id: party.id, party_name: party.name, link: null });
    const read = await callApi(ctx, 'POST', `/notifications/${(await archived())?.id}/read`, player);
    expect((read.json() as { data: Notification }).data.link).toBeNull();

    await ctx.app.services.parties.join(player.user.id, {
      join_code: party.join_code ?? '',
      role_request: 'player',
    });
    expect((await archived())?.link).toMatchObject({ path: `/parties/${party.id}` });
  });

  it('unarchiving a party: every member but the GM', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, false);
    // Unarchiving a party that is not archived changes nothing, and says nothing.
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, false);
    const { data } = await inbox(player);
    expect(data.map((n) => [n.kind, n.message])).toEqual([
      ['party_unarchived', `${gm.user.username} unarchived ${party.name}: it can be changed again.`],
      ['party_archived', expect.any(String)],
    ]);
    expect(data[0]?.link).toMatchObject({ kind: 'party', path: `/parties/${party.id}` });
    expect(await stored(gm)).toEqual([]);
  });

  it('a member’s role changed, or the party handed to them: that member, once each', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.changeRole(gm.user.id, party.id, player.user.id, 'manager');
    // The same role again changes nothing, and says nothing.
    await ctx.app.services.parties.changeRole(gm.user.id, party.id, player.user.id, 'manager');
    await ctx.app.services.parties.update(gm.user.id, party.id, { game_master_id: player.user.id });
    const { data } = await inbox(player);
    expect(data.map((n) => [n.kind, n.message, n.link?.path])).toEqual([
      [
        'party_handed_over',
        `${gm.user.username} handed ${party.name} to you: you are its Game Master now.`,
        `/parties/${party.id}`,
      ],
      ['role_changed', `${gm.user.username} made you a manager in ${party.name}.`, `/parties/${party.id}`],
    ]);
    expect(await stored(gm)).toEqual([]);
  });

  it('a renamed party: the notice keeps the old name in its sentence, its link names the party as it is now', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.changeRole(gm.user.id, party.id, player.user.id, 'manager');
    await ctx.app.services.parties.update(gm.user.id, party.id, { name: 'The Crimson Company (renamed)' });
    const { data } = await inbox(player);
    expect(data.map((n) => [n.message, n.party_name, n.link])).toEqual([
      [
        `${gm.user.username} made you a manager in ${party.name}.`,
        party.name,
        { kind: 'party', path: `/parties/${party.id}`, label: 'The Crimson Company (renamed)' },
      ],
    ]);
    // Marking it read answers the same link.
    const read = await callApi(ctx, 'POST', `/notifications/${data[0]?.id}/read`, player);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as { data: Notification }).data.link?.label).toBe('The Crimson Company (renamed)');
  });

  it('a GM’s account deleted: the member the party passes to', async () => {
    const { gm, party } = await table();
    const manager = await createMember(ctx, party, 'manager');
    const closed = await callApi(ctx, 'DELETE', '/users/me', gm, { password: gm.password });
    expect(closed.statusCode, closed.body).toBe(204);
    const { data } = await inbox(manager);
    expect(data.map((n) => [n.kind, n.message, n.link?.path])).toEqual([
      [
        'party_handed_over',
        `The account of ${party.name}’s Game Master was deleted: you are its Game Master now.`,
        `/parties/${party.id}`,
      ],
    ]);
  });

  it('a member leaving writes nothing', async () => {
    const { gm, party, player } = await table();
    await ctx.app.services.parties.leave(player.user.id, party.id);
    expect(await stored(player)).toEqual([]);
    expect(await stored(gm)).toEqual([]);
  });

  it('archiving and deleting a party: every member but the GM, once each', async () => {
    const { gm, party, player } = await table();
    const observer = await createMember(ctx, party, 'observer');
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    // Archiving an archived party again changes nothing, and says nothing.
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
    await ctx.app.services.parties.delete(actorOf(gm), party.id);
    for (const member of [player, observer]) {
      const { data } = await inbox(member);
      expect(data.map((n) => [n.kind, n.message])).toEqual([
        [
          'party_deleted',
          `${gm.user.username} deleted ${party.name}. Your characters left it with their gear.`,
        ],
        [
          'party_archived',
          `${gm.user.username} archived ${party.name}: you can still look, but nothing in it can be changed until it is unarchived.`,
        ],
      ]);
      expect(data[0]).toMatchObject({ party_id: null, party_name: party.name, link: null });
      // The archive notice led to the party; with the party gone, it leads nowhere (not to "Party Not Found").
      expect(data[1]).toMatchObject({ party_id: null, party_name: party.name, link: null });
    }
    expect(await stored(gm)).toEqual([]);
  });

  it('a gift to another player’s character: its player, once per gift; none to one’s own', async () => {
    const { gm, party, player, hero } = await table();
    const other = await createMember(ctx, party, 'player');
    const aria = await createCharacter(ctx, other, { name: 'Aria', partyId: party.id });
    const spare = await createCharacter(ctx, other, { name: 'Spare', partyId: party.id });
    const potion = await createTemplate(ctx, { name: 'Healing potion', stackSize: 0 });
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(other), {
      item_template_id: potion.id,
      container_id: aria.primary_container_id ?? '',
      quantity: 5,
    });
    if (!stack) throw new Error('no potions');
    const give = (to: string, quantity: number) =>
      callApi(ctx, 'POST', `/item_instances/${stack.id}/give`, other, { character_id: to, quantity });
    expect((await give(hero.id, 3)).statusCode).toBe(200);
    expect((await give(spare.id, 1)).statusCode).toBe(200);
    expect((await inbox(player)).data).toEqual([
      expect.objectContaining({
        kind: 'items_received',
        message: 'Aria gave 3 × Healing potion to Pip.',
        link: { kind: 'character', path: `/characters/${hero.id}`, label: 'Pip' },
      }),
    ]);
    expect(await stored(other)).toEqual([]);
    expect(await stored(gm)).toEqual([]);
  });

  it('the GM moving items into a player’s character, or adding them there: the player, once each', async () => {
    const { gm, party, player, heroBag } = await table();
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const stash = (await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id }))[0];
    if (!stash) throw new Error('no stash');
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: rope.id,
      container_id: stash.id,
      quantity: 4,
    });
    if (!stack) throw new Error('no rope');
    const moved = await callApi(ctx, 'POST', '/containers/transfer', gm, {
      item_instance_id: stack.id,
      source_container_id: stash.id,
      target_container_id: heroBag,
      quantity: 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: rope.id,
      container_id: heroBag,
      quantity: 1,
    });
    const { data } = await inbox(player);
    expect(data.map((n) => n.message)).toEqual([
      expect.stringMatching(new RegExp(`^${gm.user.username} added 1 × Rope to .*Pip`)),
      `${gm.user.username} gave 2 × Rope to Pip.`,
    ]);
    expect(await stored(gm)).toEqual([]);
  });

  it("a transfer out of the giver's own character names that character, as a give does", async () => {
    const { gm, party, player, heroBag } = await table();
    const npc = await createCharacter(ctx, gm, { name: 'Garrick', partyId: party.id });
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: rope.id,
      container_id: npc.primary_container_id ?? '',
      quantity: 4,
    });
    if (!stack) throw new Error('no rope');
    const moved = await callApi(ctx, 'POST', '/containers/transfer', gm, {
      item_instance_id: stack.id,
      source_container_id: npc.primary_container_id,
      target_container_id: heroBag,
      quantity: 2,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const { data } = await inbox(player);
    expect(data.map((n) => n.message)).toEqual(['Garrick gave 2 × Rope to Pip.']);
  });

  it('a refused move writes no notice (rolled back with it)', async () => {
    const { gm, party, player, heroBag } = await table();
    const anvil = await createTemplate(ctx, { name: 'Anvil', stackSize: 0, weight: 500 });
    const stash = (await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id }))[0];
    if (!stash) throw new Error('no stash');
    await ctx.app.services.parties.update(gm.user.id, party.id, { encumbrance_style: 'weight' });
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: anvil.id,
      container_id: stash.id,
      quantity: 10,
    });
    if (!stack) throw new Error('no anvils');
    await ctx.app.services.inventory.updateContainer(actorOf(gm), heroBag, { max_weight: 100 });
    const refused = await callApi(ctx, 'POST', '/containers/transfer', gm, {
      item_instance_id: stack.id,
      source_container_id: stash.id,
      target_container_id: heroBag,
      quantity: 10,
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(await stored(player)).toEqual([]);
  });

  it('the GM approving or declining a purchase request: the buyer; the buyer cancelling: nobody', async () => {
    const { gm, party, player, hero, heroBag } = await table();
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 1 });
    const template = (
      (
        await callApi(ctx, 'POST', '/shop_templates', gm, {
          shop_template: { name: 'Corner Shop', visibility: 'public', default_restock_days: 2 },
        })
      ).json() as { data: ShopTemplate }
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: rope.id, quantity: 3, price_cp: 100 },
    });
    const shop = (
      (
        await callApi(ctx, 'POST', '/shop_instances', gm, {
          shop_instance: { shop_template_id: template.id, party_id: party.id, approval_threshold_cp: 50 },
        })
      ).json() as { data: ShopInstance }
    ).data;
    await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: { approval_threshold_cp: 50 },
    });
    const gp = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(actorOf(player), {
      item_template_id: gp.id,
      container_id: heroBag,
      quantity: 10,
    });
    const ask = async (stackId: string) => {
      const res = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
        purchase: {
          item_instance_id: stackId,
          quantity: 1,
          buyer_character_id: hero.id,
          buyer_container_id: heroBag,
        },
      });
      expect(res.statusCode, res.body).toBe(202);
      return (res.json() as { data: { request: { id: string } } }).data.request.id;
    };
    const [a = '', b = '', c = ''] = shop.container.item_instances.map((i) => i.id);
    const approved = await callApi(ctx, 'POST', `/shop_requests/${await ask(a)}/approve`, gm, {});
    expect(approved.statusCode, approved.body).toBe(200);
    const declined = await callApi(ctx, 'POST', `/shop_requests/${await ask(b)}/decline`, gm, {
      reason: 'Not today',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    const cancelled = await callApi(ctx, 'POST', `/shop_requests/${await ask(c)}/cancel`, player, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const { data } = await inbox(player);
    expect(data.map((n) => [n.kind, n.message, n.link?.path])).toEqual([
      [
        'purchase_declined',
        expect.stringContaining(`${gm.user.username} declined your purchase of 1 × Rope at Corner Shop`),
        `/shops/instances/${shop.id}`,
      ],
      [
        'purchase_approved',
        `${gm.user.username} approved your purchase of 1 × Rope at Corner Shop.`,
        `/shops/instances/${shop.id}`,
      ],
    ]);
    expect(await stored(gm)).toEqual([]);
  });

  it('loot distributed by the GM: each player dealt a share, once; not the GM’s own character', async () => {
    const { gm, party, player, hero } = await table();
    const own = await createCharacter(ctx, gm, { name: 'Npc', partyId: party.id });
    const gem = await createTemplate(ctx, { name: 'Gem', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [
      { item_template_id: gem.id, quantity: 4 },
      { currency: 'gp', quantity: 10 },
    ]);
    const loot = await deployLoot(ctx, gm, party.id, template.id, { name: 'Goblin hoard', reveal: true });
    // The reveal is told (see below); a preview runs the same distribution and rolls it back: nothing more.
    const kinds = async () => (await stored(player)).map((row) => row.kind);
    expect(await kinds()).toEqual(['loot_revealed']);
    const preview = await callApi(ctx, 'POST', `/loot_instances/${loot.id}/distribute`, gm, {
      distribute: { character_ids: [hero.id, own.id], distribution_mode: 'even', preview: true },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(await kinds()).toEqual(['loot_revealed']);
    const dealt = await callApi(ctx, 'POST', `/loot_instances/${loot.id}/distribute`, gm, {
      distribute: { character_ids: [hero.id, own.id], distribution_mode: 'even' },
    });
    expect(dealt.statusCode, dealt.body).toBe(200);
    expect((await inbox(player)).data).toEqual([
      expect.objectContaining({
        kind: 'loot_received',
        message: expect.stringMatching(
          new RegExp(`^${gm.user.username} distributed Goblin hoard: Pip received .*2 × Gem`),
        ),
        link: { kind: 'character', path: `/characters/${hero.id}`, label: 'Pip' },
      }),
      expect.objectContaining({ kind: 'loot_revealed' }),
    ]);
    expect(await stored(gm)).toEqual([]);
  });

  it('loot distributed: a large share groups its thousands, as every quantity does', async () => {
    // Review (coins, 8): quantities in notification texts were written "4000 × Gem".
    const { gm, party, player, hero } = await table();
    const own = await createCharacter(ctx, gm, { name: 'Npc', partyId: party.id });
    const gem = await createTemplate(ctx, { name: 'Gem', stackSize: 0, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 8_000 }]);
    const loot = await deployLoot(ctx, gm, party.id, template.id, { name: 'Dragon hoard', reveal: true });
    const dealt = await callApi(ctx, 'POST', `/loot_instances/${loot.id}/distribute`, gm, {
      distribute: { character_ids: [hero.id, own.id], distribution_mode: 'even' },
    });
    expect(dealt.statusCode, dealt.body).toBe(200);
    expect((await inbox(player)).data.map((n) => n.message)).toEqual([
      `${gm.user.username} distributed Dragon hoard: Pip received 4,000 × Gem.`,
      `${gm.user.username} revealed Dragon hoard in ${party.name}.`,
    ]);
  });

  it('loot revealed by the GM: each member with a character, once; not hidden loot, nor the GM', async () => {
    const { gm, party, player } = await table();
    await createCharacter(ctx, gm, { name: 'Npc', partyId: party.id });
    const other = await createMember(ctx, party, 'player');
    await createCharacter(ctx, other, { name: 'Rook', partyId: party.id });
    const watcher = await createMember(ctx, party, 'observer');
    const idle = await createMember(ctx, party, 'player');
    const template = await createLootTemplate(ctx, gm, [{ currency: 'gp', quantity: 10 }]);
    const told = vi.spyOn(ctx.app.services.events, 'noticesWritten');
    try {
      // Deployed (hidden) and edited while hidden: nobody is told.
      const loot = await deployLoot(ctx, gm, party.id, template.id, { name: 'Goblin pockets' });
      const edited = await callApi(ctx, 'PATCH', `/loot_instances/${loot.id}`, gm, {
        loot_instance: { description: 'Still hidden' },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      for (const member of [player, other, watcher, idle, gm]) expect(await stored(member)).toEqual([]);
      expect(told).not.toHaveBeenCalled();

      const revealed = await callApi(ctx, 'POST', `/loot_instances/${loot.id}/reveal`, gm);
      expect(revealed.statusCode, revealed.body).toBe(200);
      // Told live after the commit: the members with a character, not the GM who revealed it.
      expect(told).toHaveBeenCalledTimes(1);
      expect([...(told.mock.calls[0]?.[0] ?? [])].sort()).toEqual([player.user.id, other.user.id].sort());
      for (const member of [player, other]) {
        expect((await inbox(member)).data).toEqual([
          {
            id: expect.any(String),
            kind: 'loot_revealed',
            message: `${gm.user.username} revealed Goblin pockets in ${party.name}.`,
            party_id: party.id,
            party_name: party.name,
            link: { kind: 'party', path: `/parties/${party.id}?tab=loot`, label: 'Party Loot' },
            repeat_count: 1,
            created_at: expect.any(String),
            read_at: null,
          },
        ]);
      }
      for (const member of [gm, watcher, idle]) expect(await stored(member)).toEqual([]);

      // Revealing loot already revealed tells nobody again.
      const again = await callApi(ctx, 'POST', `/loot_instances/${loot.id}/reveal`, gm);
      expect(again.statusCode, again.body).toBe(200);
      const shown = await callApi(ctx, 'PATCH', `/loot_instances/${loot.id}`, gm, {
        loot_instance: { is_revealed: true, description: 'Now shown' },
      });
      expect(shown.statusCode, shown.body).toBe(200);
      for (const member of [player, other]) {
        expect((await stored(member)).map((row) => [row.kind, row.repeatCount])).toEqual([
          ['loot_revealed', 1],
        ]);
      }
      expect(told).toHaveBeenCalledTimes(1);
    } finally {
      told.mockRestore();
    }
  });
});

describe('live', () => {
  it('tells the user’s stream after the commit, and nothing for a refused act', async () => {
    const { gm, party, player } = await table();
    const told = vi.spyOn(ctx.app.services.events, 'noticesWritten');
    try {
      await expect(
        ctx.app.services.parties.removeMember(player.user.id, party.id, gm.user.id),
      ).rejects.toThrow();
      expect(told).not.toHaveBeenCalled();
      await ctx.app.services.parties.removeMember(gm.user.id, party.id, player.user.id);
      expect(told).toHaveBeenCalledWith([player.user.id]);
    } finally {
      told.mockRestore();
    }
  });
});

describe('asSentence', () => {
  it('ends a notice with a full stop unless it already ends as a sentence', () => {
    expect(asSentence('Aria gave 3 × Healing potion to Pip')).toBe('Aria gave 3 × Healing potion to Pip.');
    expect(asSentence('Mira removed you from Mistwood.')).toBe('Mira removed you from Mistwood.');
    expect(asSentence('Mira declined your purchase: Why not ask?')).toBe(
      'Mira declined your purchase: Why not ask?',
    );
    expect(asSentence('Mira declined your purchase: No!')).toBe('Mira declined your purchase: No!');
  });
});
