import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { parties, partyMemberships } from '../../db/schema/parties.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { consumerFor, subscribe } from '../../test/cable-client.js';
import {
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
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;
let baseUrl: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

const codeOf = (response: { json(): unknown }) => (response.json() as { error: { code: string } }).error.code;
const deleteUser = (user: SignedInUser, confirmEmail: string) =>
  callApi(ctx, 'DELETE', `/admin/users/${user.user.id}`, admin.adminAuth, { confirm_email: confirmEmail });
const as = (user: SignedInUser) => ({ id: user.user.id, username: user.user.username });

async function addItems(owner: SignedInUser, containerId: string, templateId: string, quantity: number) {
  return ctx.app.services.inventory.createInstance(as(owner), {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });
}

describe('deleting an account', () => {
  it('hands a shared party to its longest-standing manager, deletes a solo party and the characters through the ledger, keeps others’ items and shared templates', async () => {
    const victim = await createUser(ctx);
    await upgrade(ctx, victim, 'tier_3');
    const shared = await createParty(ctx, victim, { encumbrance_style: 'none' });
    // The player joined first, but a manager comes before a player; the earlier manager before the later.
    const player = await createMember(ctx, shared, 'player');
    const firstManager = await createMember(ctx, shared, 'manager');
    await createMember(ctx, shared, 'manager');
    const solo = await createParty(ctx, victim, { encumbrance_style: 'none' });

    const sword = await createTemplate(ctx, { name: 'Sword', stackSize: 1 });
    const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 50 });
    const victimHero = await createCharacter(ctx, victim, {
      partyId: shared.id,
      maxWeight: null,
      maxSlots: null,
    });
    const playerHero = await createCharacter(ctx, player, {
      partyId: shared.id,
      maxWeight: null,
      maxSlots: null,
    });
    const sharedStash = await ctx.app.services.inventory.createContainer(
      as(victim),
      { partyId: shared.id },
      { name: 'Stash', description: '', max_weight: null, max_slots: null },
    );
    const soloStash = await ctx.app.services.inventory.createContainer(
      as(victim),
      { partyId: solo.id },
      { name: 'Hoard', description: '', max_weight: null, max_slots: null },
    );
    const victimBackpack = String(victimHero.primary_container_id);
    const playerBackpack = String(playerHero.primary_container_id);
    await addItems(victim, victimBackpack, sword.id, 1);
    await addItems(victim, victimBackpack, arrow.id, 12);
    await addItems(victim, sharedStash.id, arrow.id, 30);
    await addItems(victim, soloStash.id, sword.id, 1);
    await addItems(player, playerBackpack, arrow.id, 7);
    // A private item of theirs the party keeps stays readable to its holders; one only they held stays private.
    const heirloom = await createTemplate(ctx, {
      name: 'Heirloom',
      creatorId: victim.user.id,
      visibility: 'private',
    });
    const diary = await createTemplate(ctx, {
      name: 'Diary',
      creatorId: victim.user.id,
      visibility: 'private',
    });
    await addItems(victim, sharedStash.id, heirloom.id, 1);
    await addItems(victim, victimBackpack, diary.id, 1);
    const publicLoot = await createLootTemplate(ctx, victim, [], { visibility: 'public' });
    const privateLoot = await createLootTemplate(ctx, victim, [], { visibility: 'private' });
    const allContainers = [victimBackpack, playerBackpack, sharedStash.id, soloStash.id];
    const playerBefore = await actualContents(ctx.database.db, [playerBackpack, sharedStash.id]);

    const response = await deleteUser(victim, victim.user.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    const result = json<{
      data: { parties_handed_over: { id: string; new_gm_id: string }[]; parties_deleted: { id: string }[] };
    }>(response).data;
    expect(result.parties_handed_over).toEqual([
      expect.objectContaining({ id: shared.id, new_gm_id: firstManager.user.id }),
    ]);
    expect(result.parties_deleted).toEqual([expect.objectContaining({ id: solo.id })]);

    const db = ctx.database.db;
    expect(await db.select().from(users).where(eq(users.id, victim.user.id))).toEqual([]);
    const [handed] = await db.select().from(parties).where(eq(parties.id, shared.id));
    expect(handed?.gameMasterId).toBe(firstManager.user.id);
    const roles = await db.select().from(partyMemberships).where(eq(partyMemberships.partyId, shared.id));
    expect(roles.find((m) => m.userId === firstManager.user.id)?.role).toBe('gm');
    expect(roles.some((m) => m.userId === victim.user.id)).toBe(false);
    expect(await db.select().from(parties).where(eq(parties.id, solo.id))).toEqual([]);
    expect(await db.select().from(characters).where(eq(characters.id, victimHero.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(containers)
        .where(inArray(containers.id, [victimBackpack, soloStash.id])),
    ).toEqual([]);

    // The player's backpack and the party's stash are exactly as they were.
    expect(await actualContents(ctx.database.db, [playerBackpack, sharedStash.id])).toEqual(playerBefore);
    expect(playerBefore.size).toBe(3); // arrows in each, and the heirloom in the stash
    // Replaying the ledger gives every container's contents; the deleted ones replay empty.
    expect(await replayLedger(ctx.database.db, allContainers)).toEqual(
      await actualContents(ctx.database.db, allContainers),
    );
    const destroyed = await db
      .select()
      .from(transactions)
      .where(inArray(transactions.sourceContainerId, [victimBackpack, soloStash.id]));
    expect(
      destroyed.filter((r) => r.transactionType === 'character_deletion' && r.itemTemplateId),
    ).toHaveLength(3); // the sword, the arrows and the diary
    expect(
      destroyed.filter((r) => r.transactionType === 'container_deletion' && r.itemTemplateId),
    ).toHaveLength(1);
    // The victim's own earlier rows keep their name, without the account behind it.
    const earlier = await db
      .select()
      .from(transactions)
      .where(eq(transactions.actorName, victim.user.username));
    expect(earlier.length).toBeGreaterThan(0);
    expect(earlier.every((r) => r.actorId === null)).toBe(true);

    const loot = await db
      .select()
      .from(lootTemplates)
      .where(inArray(lootTemplates.id, [publicLoot.id, privateLoot.id]));
    expect(loot.map((t) => [t.id, t.creatorId])).toEqual([[publicLoot.id, null]]);
    const kept = await callApi(ctx, 'GET', `/item_templates/${heirloom.id}`, firstManager);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(json<{ data: { visibility: string } }>(kept).data.visibility).toBe('unlisted');
    expect((await callApi(ctx, 'GET', `/item_templates/${diary.id}`, firstManager)).statusCode).toBe(404);

    const [entry] = (await auditLogRepository.forSubject(db, victim.user.id)).filter(
      (e) => e.action === 'user_deleted',
    );
    expect(entry?.actorId).toBe(admin.user.id);
    expect(entry?.before).toEqual(expect.objectContaining({ email: victim.user.email }));
  });

  it('ends their sessions and open cable connection at once, and they cannot sign in again', async () => {
    const victim = await createUser(ctx);
    const socket = new WebSocket(
      `${baseUrl.replace(/^http/, 'ws')}/cable?token=${encodeURIComponent(victim.token)}`,
      ['actioncable-v1-json'],
    );
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('message', () => resolve()));

    expect((await deleteUser(victim, victim.user.email)).statusCode).toBe(200);
    await closed;
    expect((await callApi(ctx, 'GET', '/auth/me', victim)).statusCode).toBe(401);
    const signIn = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: victim.user.email,
      password: victim.password,
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('tells the party at once who its new GM is, whose open screens then hear the GM-only events', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const manager = await createMember(ctx, party, 'manager');
    await upgrade(ctx, manager, 'tier_3');
    const consumer = consumerFor(baseUrl, manager.token);
    try {
      const feed = subscribe(consumer, 'PartyInventoryChannel', party.id);
      await feed.connected;
      expect((await deleteUser(gm, gm.user.email)).statusCode).toBe(200);
      expect(await feed.next((m) => m.action === 'member_role_changed')).toMatchObject({
        user_id: manager.user.id,
        ids: {
          role: 'gm',
          // Told in words, to them alone (the web shows it to that member wherever they are).
          recipient_user_id: manager.user.id,
          recipient_notice: `The account of ${party.name}’s Game Master was deleted: you are its Game Master now.`,
        },
      });
      // Hidden loot is told to the party's GMs only: the new GM hears it on the socket already open.
      const template = await createLootTemplate(ctx, manager, []);
      const loot = await deployLoot(ctx, manager, party.id, template.id);
      expect(await feed.next((m) => m.action === 'loot_deployed')).toMatchObject({
        ids: expect.objectContaining({ loot_instance_id: loot.id }),
      });
    } finally {
      consumer.disconnect();
    }
  });

  it('tells a party the account only belonged to at once that it lost a member', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    const consumer = consumerFor(baseUrl, gm.token);
    try {
      const members = subscribe(consumer, 'PartyChannel', party.id);
      const inventory = subscribe(consumer, 'PartyInventoryChannel', party.id);
      await Promise.all([members.connected, inventory.connected]);
      expect((await deleteUser(player, player.user.email)).statusCode).toBe(200);
      for (const feed of [members, inventory]) {
        expect(await feed.next((m) => m.action === 'member_removed')).toMatchObject({
          user_id: player.user.id,
          summary: `${player.user.username} is no longer a member: their account was deleted`,
        });
      }
      // The Activity tab open at the table gains the rows of the character that went with the account,
      // which say why it went.
      expect(await members.next((m) => m.action === 'party_activity')).toMatchObject({ party_id: party.id });
      const ledger = await callApi(ctx, 'GET', `/transactions/party/${party.id}`, gm);
      const summaries = (
        ledger.json() as { data: { transactions: { transaction_summary: string }[] } }
      ).data.transactions.map((row) => row.transaction_summary);
      expect(summaries).toContain(
        `${admin.user.username} deleted ${hero.name}: ${player.user.username}’s account was deleted`,
      );
    } finally {
      consumer.disconnect();
    }
  });

  it('refuses a wrong confirmation, the admin themself and another admin, changing nothing', async () => {
    const victim = await createUser(ctx);
    const party = await createParty(ctx, victim);
    const wrong = await deleteUser(victim, 'someone@example.com');
    expect([wrong.statusCode, codeOf(wrong)]).toEqual([422, 'VALIDATION_ERROR']);
    const missing = await callApi(ctx, 'DELETE', `/admin/users/${victim.user.id}`, admin.adminAuth, {});
    expect(missing.statusCode).toBe(422);

    const self = await callApi(ctx, 'DELETE', `/admin/users/${admin.user.id}`, admin.adminAuth, {
      confirm_email: admin.user.email,
    });
    expect([self.statusCode, codeOf(self)]).toEqual([403, 'FORBIDDEN']);
    const otherAdmin = await createAdmin(ctx);
    const refused = await deleteUser(otherAdmin, otherAdmin.user.email);
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'FORBIDDEN']);

    const db = ctx.database.db;
    expect(
      await db
        .select()
        .from(users)
        .where(inArray(users.id, [victim.user.id, otherAdmin.user.id])),
    ).toHaveLength(2);
    expect(await db.select().from(parties).where(eq(parties.id, party.id))).toHaveLength(1);
    const audit = await auditLogRepository.forSubject(db, victim.user.id);
    expect(audit.some((e) => e.action === 'user_deleted')).toBe(false);
  });
});
