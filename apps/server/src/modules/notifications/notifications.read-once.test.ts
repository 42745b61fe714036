import type { Notification, NotificationLink, NotificationList } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../db/schema/notifications.js';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * Limits of the inbox that its other tests did not pin (mutation testing: each of these let a hand-made
 * mutant of the code through).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function inbox(user: SignedInUser) {
  const res = await callApi(ctx, 'GET', '/notifications', user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationList;
}

/** A player with two notices from their GM (the party archived, then unarchived). */
async function playerWithTwoNotices() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const player = await createMember(ctx, party, 'player');
  await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);
  await ctx.app.services.parties.setArchived(gm.user.id, party.id, false);
  const { data } = await inbox(player);
  expect(data).toHaveLength(2);
  return { player, notices: data };
}

const longAgo = new Date('2026-01-02T03:04:05.000Z');

/** Marks the notice read as of `longAgo`, as if the player had opened it then. */
async function readLongAgo(notice: Notification) {
  await ctx.database.db.update(notifications).set({ readAt: longAgo }).where(eq(notifications.id, notice.id));
}

describe('a notice is read once', () => {
  it('a second read of a notice keeps the time of the first', async () => {
    const { player, notices } = await playerWithTwoNotices();
    const [notice] = notices;
    if (!notice) throw new Error('no notice');
    await readLongAgo(notice);
    const again = await callApi(ctx, 'POST', `/notifications/${notice.id}/read`, player);
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as { data: Notification }).data.read_at).toBe(longAgo.toISOString());
  });

  it('marking all read leaves the time of those already read', async () => {
    const { player, notices } = await playerWithTwoNotices();
    const [read, unread] = notices;
    if (!read || !unread) throw new Error('no notices');
    await readLongAgo(read);
    const all = await callApi(ctx, 'POST', '/notifications/read_all', player);
    expect(all.statusCode, all.body).toBe(200);
    const after = new Map((await inbox(player)).data.map((n) => [n.id, n.read_at]));
    expect(after.get(read.id)).toBe(longAgo.toISOString());
    expect(after.get(unread.id)).not.toBeNull();
    expect(after.get(unread.id)).not.toBe(longAgo.toISOString());
  });
});

describe('an empty inbox', () => {
  it('is one page of nothing', async () => {
    const loner = await createUser(ctx);
    const { data, meta } = await inbox(loner);
    expect(data).toEqual([]);
    expect(meta).toMatchObject({ total_count: 0, unread_count: 0, current_page: 1, total_pages: 1 });
  });
});

describe('repeats fold only by the same actor', () => {
  it('the same words from two users are two notices, not one counted twice', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const other = await createMember(ctx, party, 'player');
    // Two characters of one name, each of its own player, giving alike: the words cannot tell them apart.
    const notice = (actorId: string) => ({
      userId: player.user.id,
      actorId,
      kind: 'items_received' as const,
      partyId: party.id,
      partyName: party.name,
      message: 'Garrick gave 1 × Gold piece to Pip',
      link: null,
    });
    const service = ctx.app.services.notifications;
    await ctx.database.db.transaction((tx) => service.write(tx, [notice(gm.user.id)]));
    await ctx.database.db.transaction((tx) => service.write(tx, [notice(other.user.id)]));
    const { data } = await inbox(player);
    expect(data.map((n) => n.repeat_count)).toEqual([1, 1]);
  });
});

describe('repeats fold only as the same act', () => {
  /** A player in two parties of one GM, whose notices the test writes as the acts would. */
  async function playerInTwoParties() {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const first = await createParty(ctx, gm);
    const second = await createParty(ctx, gm);
    const player = await createMember(ctx, first, 'player');
    await upgrade(ctx, player, 'tier_1');
    await ctx.app.services.parties.join(player.user.id, {
      join_code: second.join_code ?? '',
      role_request: 'player',
    });
    const write = (notice: { partyId: string; partyName: string; link: NotificationLink | null }) =>
      ctx.database.db.transaction((tx) =>
        ctx.app.services.notifications.write(tx, [
          {
            userId: player.user.id,
            actorId: gm.user.id,
            kind: 'items_received',
            message: 'Garrick gave 1 × Gold piece to Pip',
            ...notice,
          },
        ]),
      );
    return { gm, first, second, player, write };
  }

  it('in another party, the same words are another notice', async () => {
    const { first, second, player, write } = await playerInTwoParties();
    await write({ partyId: first.id, partyName: first.name, link: null });
    await write({ partyId: second.id, partyName: second.name, link: null });
    const { data } = await inbox(player);
    expect(data.map((n) => n.repeat_count)).toEqual([1, 1]);
    expect(new Set(data.map((n) => n.party_id))).toEqual(new Set([first.id, second.id]));
  });

  it('leading to another place (another character of the same name), the same words are another notice', async () => {
    const { first, player, write } = await playerInTwoParties();
    const link = (id: string): NotificationLink => ({
      kind: 'character',
      path: `/characters/${id}`,
      label: 'Pip',
    });
    const [pipA, pipB] = [crypto.randomUUID(), crypto.randomUUID()];
    await write({ partyId: first.id, partyName: first.name, link: link(pipA) });
    await write({ partyId: first.id, partyName: first.name, link: link(pipB) });
    const { data } = await inbox(player);
    expect(data.map((n) => n.repeat_count)).toEqual([1, 1]);
    expect(new Set(data.map((n) => n.link?.path))).toEqual(
      new Set([`/characters/${pipA}`, `/characters/${pipB}`]),
    );
  });

  it('a notice leading to the user’s own character still leads there once they left its party', async () => {
    const { gm, first, player, write } = await playerInTwoParties();
    const link: NotificationLink = {
      kind: 'character',
      path: `/characters/${crypto.randomUUID()}`,
      label: 'Pip',
    };
    await write({ partyId: first.id, partyName: first.name, link });
    await ctx.app.services.parties.removeMember(gm.user.id, first.id, player.user.id);
    const { data } = await inbox(player);
    const given = data.find((n) => n.kind === 'items_received');
    expect(given?.link).toEqual(link);
  });
});

describe('an act that leaves a user two notices alike', () => {
  it('done again, folds each into one of the two, not both into one', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const notice = {
      userId: player.user.id,
      actorId: gm.user.id,
      kind: 'items_received' as const,
      partyId: party.id,
      partyName: party.name,
      message: 'Garrick gave 1 × Gold piece to Pip',
      link: null,
    };
    const act = () =>
      ctx.database.db.transaction((tx) => ctx.app.services.notifications.write(tx, [notice, notice]));
    await act();
    expect((await inbox(player)).data.map((n) => n.repeat_count)).toEqual([1, 1]);
    await act();
    expect((await inbox(player)).data.map((n) => n.repeat_count)).toEqual([2, 2]);
  });
});
