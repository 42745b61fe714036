import { type AccountExport, accountClosureMessages } from '@haversack/contracts';
import { eq, inArray } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers, transactions } from '../../db/schema/inventory.js';
import { lootTemplates } from '../../db/schema/loot.js';
import { parties } from '../../db/schema/parties.js';
import { defaultAuthRateLimits } from '../../plugins/rate-limit.js';
import { createAdmin } from '../../test/admin.js';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { startFakeStripeApi } from '../../test/fake-stripe.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';
import { auditLogRepository } from '../admin/audit-log.repository.js';
import { patronageNotices } from '../parties/patronages.service.js';
import { accountsRepository } from './accounts.repository.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const as = (user: SignedInUser) => ({ id: user.user.id, username: user.user.username });
const deleteMe = (context: TestContext, user: SignedInUser, body: Record<string, unknown>) =>
  callApi(context, 'DELETE', '/users/me', user, body);
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; details?: { field: string; message: string }[] } }).error;

async function addItems(owner: SignedInUser, containerId: string, templateId: string, quantity: number) {
  return ctx.app.services.inventory.createInstance(as(owner), {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });
}

async function stillThere(user: SignedInUser) {
  return (await ctx.database.db.select().from(users).where(eq(users.id, user.user.id))).length === 1;
}

describe('DELETE /users/me', () => {
  it('refuses a wrong or missing password on the password field, changing nothing', async () => {
    const user = await createUser(ctx);
    const party = await createParty(ctx, user);
    const wrong = await deleteMe(ctx, user, { password: 'NotMyPassword1' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'password', message: 'Password is incorrect' }],
    });
    const missing = await deleteMe(ctx, user, {});
    expect([missing.statusCode, errorOf(missing).details?.[0]?.field]).toEqual([422, 'password']);
    // An email does not stand in for the password of an account that has one.
    const byEmail = await deleteMe(ctx, user, { confirm_email: user.user.email });
    expect(byEmail.statusCode).toBe(422);

    expect(await stillThere(user)).toBe(true);
    expect(await ctx.database.db.select().from(parties).where(eq(parties.id, party.id))).toHaveLength(1);
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
    const audit = await auditLogRepository.forSubject(ctx.database.db, user.user.id);
    expect(audit.some((e) => e.action === 'user_deleted')).toBe(false);
  });

  it('counts wrong passwords against the password-guess budget', async () => {
    const limited = await buildTestApp({
      rateLimits: { ...defaultAuthRateLimits, passwordGuessPerUser: 2 },
    });
    try {
      const user = await createUser(limited);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++)
        statuses.push((await deleteMe(limited, user, { password: 'Guess12345' })).statusCode);
      expect(statuses).toEqual([422, 422, 429]);
    } finally {
      await limited.close();
    }
  });

  it('refuses an admin account (403) and an API token, deleting nothing', async () => {
    const admin = await createAdmin(ctx);
    const refused = await deleteMe(ctx, admin, { password: admin.password });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([403, 'FORBIDDEN']);
    expect(await stillThere(admin)).toBe(true);
  });

  it('hands a party to its next member (who sees it), deletes a solo party and the characters through the ledger, and ends the sessions', async () => {
    const leaver = await createUser(ctx);
    await upgrade(ctx, leaver, 'tier_3');
    const shared = await createParty(ctx, leaver, { encumbrance_style: 'none' });
    const player = await createMember(ctx, shared, 'player');
    const manager = await createMember(ctx, shared, 'manager');
    const solo = await createParty(ctx, leaver, { encumbrance_style: 'none' });
    const sword = await createTemplate(ctx, { name: 'Sword', stackSize: 1 });
    const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 50 });
    const hero = await createCharacter(ctx, leaver, { partyId: shared.id, maxWeight: null, maxSlots: null });
    const backpack = String(hero.primary_container_id);
    const hoard = await ctx.app.services.inventory.createContainer(
      as(leaver),
      { partyId: solo.id },
      { name: 'Hoard', description: '', max_weight: null, max_slots: null },
    );
    await addItems(leaver, backpack, sword.id, 1);
    await addItems(leaver, backpack, arrow.id, 12);
    await addItems(leaver, hoard.id, arrow.id, 30);
    const publicLoot = await createLootTemplate(ctx, leaver, [], { visibility: 'public' });

    const response = await deleteMe(ctx, leaver, { password: leaver.password });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    // The member who was next in line runs the party now, and their screens say so.
    const seen = json<{ data: { game_master_id: string; user_role: string; is_gm: boolean } }>(
      await callApi(ctx, 'GET', `/parties/${shared.id}`, manager),
    ).data;
    expect(seen).toMatchObject({ game_master_id: manager.user.id, user_role: 'gm', is_gm: true });
    expect((await callApi(ctx, 'GET', `/parties/${shared.id}`, player)).statusCode).toBe(200);

    const db = ctx.database.db;
    expect(await stillThere(leaver)).toBe(false);
    expect(await db.select().from(parties).where(eq(parties.id, solo.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(containers)
        .where(inArray(containers.id, [backpack, hoard.id])),
    ).toEqual([]);
    const destroyed = await db
      .select()
      .from(transactions)
      .where(inArray(transactions.sourceContainerId, [backpack, hoard.id]));
    expect(
      destroyed.filter((r) => r.transactionType === 'character_deletion' && r.itemTemplateId),
    ).toHaveLength(2);
    expect(
      destroyed.filter((r) => r.transactionType === 'container_deletion' && r.itemTemplateId),
    ).toHaveLength(1);
    // The ledger still replays to what every container holds: the deleted ones to nothing.
    expect(await replayLedger(db, [backpack, hoard.id])).toEqual(
      await actualContents(db, [backpack, hoard.id]),
    );
    expect((await replayLedger(db, [backpack, hoard.id])).size).toBe(0);
    expect(destroyed.every((r) => r.actorName === leaver.user.username)).toBe(true);

    const [kept] = await db.select().from(parties).where(eq(parties.id, shared.id));
    expect(kept?.gameMasterId).toBe(manager.user.id);
    // A template others can find stays, ownerless.
    const [loot] = await db.select().from(lootTemplates).where(eq(lootTemplates.id, publicLoot.id));
    expect(loot?.creatorId).toBeNull();

    // The access token is refused at once, and the password no longer signs in.
    expect((await callApi(ctx, 'GET', '/auth/me', leaver)).statusCode).toBe(401);
    const signIn = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: leaver.user.email,
      password: leaver.password,
    });
    expect(signIn.statusCode).toBe(401);

    const [entry] = (await auditLogRepository.forSubject(db, leaver.user.id)).filter(
      (e) => e.action === 'user_deleted',
    );
    // The actor is the user themself.
    expect([entry?.actorId, entry?.actorEmail]).toEqual([leaver.user.id, leaver.user.email]);
    expect(entry?.details).toMatchObject({
      via: 'self_service',
      parties_handed_over: [expect.objectContaining({ id: shared.id, new_gm_id: manager.user.id })],
      parties_deleted: [expect.objectContaining({ id: solo.id })],
    });
  });

  it('hands a party to the first member in line whose plan has room to run one more', async () => {
    const leaver = await createUser(ctx);
    const party = await createParty(ctx, leaver);
    const manager = await createMember(ctx, party, 'manager');
    const player = await createMember(ctx, party, 'player');
    // The manager, first in line, already runs the one party the Free plan allows.
    await createParty(ctx, manager);

    expect((await deleteMe(ctx, leaver, { password: leaver.password })).statusCode).toBe(204);
    const [kept] = await ctx.database.db.select().from(parties).where(eq(parties.id, party.id));
    expect(kept?.gameMasterId).toBe(player.user.id);
  });

  it('is refused when no member has room to run the party, changing nothing: no limit is passed on by deleting an account', async () => {
    // A Free player who runs a party of their own joins a throwaway account's party…
    const player = await createUser(ctx);
    await createParty(ctx, player);
    const throwaway = await createUser(ctx);
    const party = await createParty(ctx, throwaway);
    const join = await callApi(ctx, 'POST', '/parties/join', player, {
      join_code: party.join_code,
      role_request: 'player',
    });
    expect(join.statusCode).toBe(200);
    const hero = await createCharacter(ctx, throwaway, { partyId: party.id });

    // …and the throwaway's deletion would have made them run a second one.
    const refused = await deleteMe(ctx, throwaway, { password: throwaway.password });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'CONFLICT',
      message: accountClosureMessages.noSuccessorRoom(party.name),
    });
    expect(await stillThere(throwaway)).toBe(true);
    const db = ctx.database.db;
    const [kept] = await db.select().from(parties).where(eq(parties.id, party.id));
    expect(kept?.gameMasterId).toBe(throwaway.user.id);
    expect(
      await db
        .select()
        .from(containers)
        .where(eq(containers.id, String(hero.primary_container_id))),
    ).toHaveLength(1);
    expect((await callApi(ctx, 'GET', '/auth/me', throwaway)).statusCode).toBe(200);

    // Once the party is deleted, the account goes.
    expect((await callApi(ctx, 'DELETE', `/parties/${party.id}`, throwaway)).statusCode).toBe(204);
    expect((await deleteMe(ctx, throwaway, { password: throwaway.password })).statusCode).toBe(204);
  });

  it('ends the patronages the user granted: the beneficiary falls back to their own plan', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const patron = await createMember(ctx, party, 'player');
    await upgrade(ctx, patron, 'tier_2');
    const beneficiary = await createMember(ctx, party, 'player');
    const granted = await callApi(ctx, 'POST', '/patronages', patron, {
      beneficiary_id: beneficiary.user.id,
      party_id: party.id,
    });
    expect(granted.statusCode).toBe(201);
    const effective = async () =>
      json<{ data: { tier: { identifier: string } } }>(
        await callApi(ctx, 'GET', `/subscription/effective_tier?party_id=${party.id}`, beneficiary),
      ).data.tier.identifier;
    expect(await effective()).toBe('tier_2');

    expect((await deleteMe(ctx, patron, { password: patron.password })).statusCode).toBe(204);
    expect(await effective()).toBe('tier_free');
    const feature = await callApi(ctx, 'POST', '/subscription/check_feature', beneficiary, {
      feature: 'shops_deployment',
      party_id: party.id,
    });
    expect(json<{ data: { allowed: boolean } }>(feature).data.allowed).toBe(false);
  });

  describe('ends each sponsorship as a departure from its party does: the other side is told', () => {
    /** What the other side of each sponsorship in `partyId` was told live: [recipient, words]. */
    function partyUpdates(partyId: string) {
      const publish = vi.spyOn(ctx.app.services.events, 'publish');
      return {
        told: () =>
          publish.mock.calls
            .flatMap(([batch]) => batch)
            .filter((e) => e.action === 'party_update' && e.partyId === partyId)
            .map((e) => [e.ids?.recipient_user_id, e.ids?.recipient_notice]),
        restore: () => publish.mockRestore(),
      };
    }
    const inbox = async (user: SignedInUser) =>
      json<{ data: { kind: string; message: string }[] }>(
        await callApi(ctx, 'GET', '/notifications', user),
      ).data.map((n) => [n.kind, n.message]);
    async function sponsorship(patronRunsTheParty: boolean) {
      const gm = await createUser(ctx);
      if (patronRunsTheParty) await upgrade(ctx, gm, 'tier_2');
      const party = await createParty(ctx, gm);
      const patron = patronRunsTheParty ? gm : await createMember(ctx, party, 'player');
      if (!patronRunsTheParty) await upgrade(ctx, patron, 'tier_2');
      const beneficiary = await createMember(ctx, party, 'player');
      const granted = await callApi(ctx, 'POST', '/patronages', patron, {
        beneficiary_id: beneficiary.user.id,
        party_id: party.id,
      });
      expect(granted.statusCode).toBe(201);
      return { party, patron, beneficiary };
    }

    for (const [ran, patronRunsTheParty] of [
      ['a party they only joined', false],
      ['a party they ran, handed over', true],
    ] as const) {
      it(`tells the beneficiary when the patron deletes their account, in ${ran}`, async () => {
        const { party, patron, beneficiary } = await sponsorship(patronRunsTheParty);
        const words = patronageNotices.patronLeft(patron.user.username, party.name);
        const updates = partyUpdates(party.id);
        try {
          expect((await deleteMe(ctx, patron, { password: patron.password })).statusCode).toBe(204);
          expect(updates.told()).toEqual([[beneficiary.user.id, words]]);
        } finally {
          updates.restore();
        }
        expect(await inbox(beneficiary)).toContainEqual(['sponsorship_ended', words]);
      });
    }

    it('tells the patron when the beneficiary deletes their account', async () => {
      const { party, patron, beneficiary } = await sponsorship(false);
      const words = patronageNotices.beneficiaryLeft(beneficiary.user.username, party.name);
      const updates = partyUpdates(party.id);
      try {
        expect((await deleteMe(ctx, beneficiary, { password: beneficiary.password })).statusCode).toBe(204);
        expect(updates.told()).toEqual([[patron.user.id, words]]);
      } finally {
        updates.restore();
      }
      expect(await inbox(patron)).toContainEqual(['sponsorship_ended', words]);
    });

    it('tells the beneficiary when an admin deletes the patron’s account', async () => {
      const { party, patron, beneficiary } = await sponsorship(false);
      const admin = await createAdmin(ctx);
      const words = patronageNotices.patronLeft(patron.user.username, party.name);
      const deleted = await callApi(ctx, 'DELETE', `/admin/users/${patron.user.id}`, admin.adminAuth, {
        confirm_email: patron.user.email,
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await inbox(beneficiary)).toContainEqual(['sponsorship_ended', words]);
    });
  });

  it('confirms an account without a password (made through Discord) with its email', async () => {
    const user = await createUser(ctx);
    await accountsRepository.updateUser(ctx.database.db, user.user.id, { passwordHash: null });
    const wrong = await deleteMe(ctx, user, { confirm_email: 'someone@example.com' });
    expect([wrong.statusCode, errorOf(wrong).details?.[0]?.field]).toEqual([422, 'confirm_email']);
    const missing = await deleteMe(ctx, user, { password: 'anything' });
    expect([missing.statusCode, errorOf(missing).details?.[0]?.field]).toEqual([422, 'confirm_email']);
    expect(await stillThere(user)).toBe(true);

    const done = await deleteMe(ctx, user, { confirm_email: `  ${user.user.email.toUpperCase()} ` });
    expect(done.statusCode).toBe(204);
    expect(await stillThere(user)).toBe(false);
  });

  it('needs a sign-in', async () => {
    expect((await callApi(ctx, 'DELETE', '/users/me', undefined, { password: 'x' })).statusCode).toBe(401);
  });
});

describe('GET /users/me/export', () => {
  it('answers the user’s own data as a file, nothing of another user’s and no secrets', async () => {
    const owner = await createUser(ctx);
    await upgrade(ctx, owner, 'tier_2');
    const other = await createUser(ctx);
    const party = await createParty(ctx, owner, { name: 'Company of the Lantern' });
    await createMember(ctx, party, 'player', {});
    const otherParty = await createParty(ctx, other, { name: 'Secret Society' });
    const hero = await createCharacter(ctx, owner, { name: 'Aelwyn', partyId: party.id });
    const rival = await createCharacter(ctx, other, { name: 'Morgath', partyId: otherParty.id });
    const rope = await createTemplate(ctx, { name: 'Silk rope', creatorId: owner.user.id, stackSize: 0 });
    const dagger = await createTemplate(ctx, { name: 'Cursed dagger', creatorId: other.user.id });
    await addItems(owner, String(hero.primary_container_id), rope.id, 2);
    await addItems(other, String(rival.primary_container_id), dagger.id, 1);
    const loot = await createLootTemplate(ctx, owner, [], { name: 'Goblin purse' });

    const response = await callApi(ctx, 'GET', '/users/me/export', owner);
    expect(response.statusCode).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="haversack-export-${owner.user.username}-${day}.json"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data = json<{
      data: {
        profile: { email: string };
        subscription: { tier: string };
        characters: { name: string; containers: { items: { name: string; quantity: number }[] }[] }[];
        parties: { name: string; role: string }[];
        templates: { items: { name: string }[]; loot: { name: string }[] };
        ledger: { entries: { summary: string }[]; total_count: number; truncated: boolean };
      };
    }>(response).data;
    expect(data.profile.email).toBe(owner.user.email);
    expect(data.subscription.tier).toBe('tier_2');
    expect(data.characters).toEqual([
      expect.objectContaining({
        name: 'Aelwyn',
        containers: [
          expect.objectContaining({ items: [expect.objectContaining({ name: 'Silk rope', quantity: 2 })] }),
        ],
      }),
    ]);
    expect(data.parties).toEqual([expect.objectContaining({ name: party.name, role: 'gm' })]);
    expect(data.templates.items.map((t) => t.name)).toEqual(['Silk rope']);
    expect(data.templates.loot.map((t) => t.name)).toEqual([loot.name]);
    expect(data.ledger.entries.length).toBeGreaterThan(0);
    expect(data.ledger).toMatchObject({ total_count: data.ledger.entries.length, truncated: false });

    const text = response.body;
    for (const foreign of [
      other.user.email,
      other.user.username,
      'Morgath',
      'Cursed dagger',
      'Secret Society',
    ])
      expect(text).not.toContain(foreign);
    for (const secret of ['password', 'hash', 'token', owner.token, owner.refresh_token])
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('carries what deleting the account destroys, readable as a file', async () => {
    const owner = await createUser(ctx);
    await upgrade(ctx, owner, 'tier_3');
    const ownParty = await createParty(ctx, owner, { name: 'Lantern Bearers' });
    // A party someone else owns, where the person is a co-GM.
    const otherGm = await createUser(ctx);
    await upgrade(ctx, otherGm, 'tier_3');
    const coRun = await createParty(ctx, otherGm, { name: 'Tower Watch' });
    await ctx.app.services.parties.join(owner.user.id, {
      join_code: String(coRun.join_code),
      role_request: 'gm',
    });
    // A party where the person plays, with a shop whose GM approves every purchase.
    const shopGm = await createUser(ctx);
    await upgrade(ctx, shopGm, 'tier_3');
    const market = await createParty(ctx, shopGm, { name: 'Market Town', encumbrance_style: 'none' });
    await ctx.app.services.parties.join(owner.user.id, {
      join_code: String(market.join_code),
      role_request: 'player',
    });

    const hero = await createCharacter(ctx, owner, {
      name: 'Aelwyn',
      partyId: ownParty.id,
      maxWeight: 80,
      maxSlots: 30,
    });
    await ctx.database.db
      .update(characters)
      .set({ imageUrl: 'https://example.com/aelwyn.png' })
      .where(eq(characters.id, hero.id));
    const bag = String(hero.primary_container_id);
    await ctx.database.db
      .update(containers)
      .set({ maxWeight: 25.5, maxSlots: 12 })
      .where(eq(containers.id, bag));
    const lantern = await createTemplate(ctx, {
      name: 'Hooded lantern',
      creatorId: owner.user.id,
      weight: 2.5,
      baseValue: 40,
      currency: 'sp',
      stackSize: 5,
      tags: ['category:gear', 'light'],
      metadata: { rarity: 'uncommon', properties: ['bright light 30 ft'] },
    });
    await addItems(owner, bag, lantern.id, 1);
    await ctx.app.services.inventory.createInstance(as(owner), {
      item_template_id: lantern.id,
      container_id: bag,
      quantity: 1,
      instance_data: {
        name_override: 'Grandmother’s lantern',
        weight_override: 3,
        value_override: 2,
        currency_override: 'gp',
      },
    });

    const shopTemplate = json<{ data: { id: string } }>(
      await callApi(ctx, 'POST', '/shop_templates', owner, {
        shop_template: {
          name: 'Lamplighter',
          owner: 'Old Mae',
          location: 'Dock Street',
          buy_modifier: 1.2,
          tag_list: ['lamps'],
        },
      }),
    ).data;
    expect(
      (
        await callApi(ctx, 'POST', `/shop_templates/${shopTemplate.id}/add_item`, owner, {
          shop_item: { item_template_id: lantern.id, quantity: 4, price_cp: 350, restock_quantity: 6 },
        })
      ).statusCode,
    ).toBe(201);
    const lootTemplate = await createLootTemplate(
      ctx,
      owner,
      [{ item_template_id: lantern.id, quantity: 3 }],
      {
        name: 'Lamplighter’s cache',
      },
    );

    // A purchase waiting for the GM's approval, by the person's character in the market.
    const shopper = await createCharacter(ctx, owner, {
      name: 'Brannoc',
      partyId: market.id,
      maxWeight: null,
      maxSlots: null,
    });
    const gold = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(as(owner), {
      item_template_id: gold.id,
      container_id: String(shopper.primary_container_id),
      quantity: 10,
    });
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, stackSize: 0 });
    const marketTemplate = json<{ data: { id: string } }>(
      await callApi(ctx, 'POST', '/shop_templates', shopGm, { shop_template: { name: 'Ropewalk' } }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${marketTemplate.id}/add_item`, shopGm, {
      shop_item: { item_template_id: rope.id, quantity: 10, price_cp: 250 },
    });
    const shop = json<{ data: { id: string; container: { item_instances: { id: string }[] } } }>(
      await callApi(ctx, 'POST', '/shop_instances', shopGm, {
        shop_instance: { shop_template_id: marketTemplate.id, party_id: market.id, approval_threshold_cp: 0 },
      }),
    ).data;
    const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, owner, {
      purchase: {
        item_instance_id: shop.container.item_instances[0]?.id,
        quantity: 2,
        buyer_character_id: shopper.id,
        buyer_container_id: shopper.primary_container_id,
      },
    });
    expect(asked.statusCode).toBe(202);
    // The GM gives the person's character something: a row about their character they did not make.
    await ctx.app.services.inventory.createInstance(as(shopGm), {
      item_template_id: rope.id,
      container_id: String(shopper.primary_container_id),
      quantity: 5,
    });

    const response = await callApi(ctx, 'GET', '/users/me/export', owner);
    expect(response.statusCode).toBe(200);
    // Indented with two spaces, in the usual envelope.
    expect(
      response.body.startsWith('{\n  "status": "success",\n  "data": {\n    "format": "haversack-export"'),
    ).toBe(true);
    const data = json<{ data: AccountExport }>(response).data;
    expect(
      JSON.stringify({ status: 'success', data, message: accountClosureMessages.exported }, null, 2),
    ).toBe(response.body);

    const aelwyn = data.characters.find((character) => character.id === hero.id);
    expect(aelwyn).toMatchObject({
      image_url: 'https://example.com/aelwyn.png',
      max_weight: 80,
      max_slots: 30,
    });
    expect(aelwyn?.containers).toEqual([
      expect.objectContaining({
        is_primary: true,
        max_weight: 25.5,
        max_slots: 12,
        items: [
          expect.objectContaining({
            name: 'Hooded lantern',
            weight: 2.5,
            value: 40,
            currency: 'sp',
            overrides: { name: null, description: null, weight: null, value: null, currency: null },
          }),
          expect.objectContaining({
            name: 'Grandmother’s lantern',
            weight: 3,
            value: 2,
            currency: 'gp',
            overrides: {
              name: 'Grandmother’s lantern',
              description: null,
              weight: 3,
              value: 2,
              currency: 'gp',
            },
          }),
        ],
      }),
    ]);

    expect(data.templates.items).toEqual([
      expect.objectContaining({
        id: lantern.id,
        weight: 2.5,
        base_value: 40,
        currency: 'sp',
        stack_size: 5,
        tags: ['category:gear', 'light'],
        category: 'gear',
        metadata: { rarity: 'uncommon', properties: ['bright light 30 ft'] },
      }),
    ]);
    expect(data.templates.shops).toEqual([
      expect.objectContaining({
        name: 'Lamplighter',
        owner: 'Old Mae',
        tag_list: ['lamps'],
        location: 'Dock Street',
        buy_modifier: 1.2,
        sell_modifier: 0.5,
        items: [
          {
            item_template_id: lantern.id,
            item_name: 'Hooded lantern',
            quantity: 4,
            price_cp: 350,
            restock_quantity: 6,
          },
        ],
      }),
    ]);
    expect(data.templates.loot).toEqual([
      expect.objectContaining({
        id: lootTemplate.id,
        source_type: 'custom',
        items: [{ item_template_id: lantern.id, item_name: 'Hooded lantern', quantity: 3 }],
      }),
    ]);

    expect(data.purchase_requests).toEqual([
      expect.objectContaining({
        status: 'pending',
        shop_instance_id: shop.id,
        shop_name: 'Ropewalk',
        character_id: shopper.id,
        item_template_id: rope.id,
        item_name: 'Rope',
        quantity: 2,
        unit_price_cp: 250,
        total_price_cp: 500,
      }),
    ]);

    expect(data.parties.map((party) => [party.name, party.role, party.is_owner])).toEqual([
      ['Lantern Bearers', 'gm', true],
      ['Tower Watch', 'gm', false],
      ['Market Town', 'player', false],
    ]);

    const given = data.ledger.entries.find(
      (entry) => entry.character_id === shopper.id && entry.item_name === 'Rope' && entry.quantity === 5,
    );
    expect(given).toBeDefined();
    const [givenRow] = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, String(given?.id)));
    expect(givenRow?.actorId).toBe(shopGm.user.id);
    // The GM's own rows about their shop stay theirs.
    const shopGmRows = await ctx.database.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.actorId, shopGm.user.id));
    const exported = new Set(data.ledger.entries.map((entry) => entry.id));
    expect(shopGmRows.filter((row) => exported.has(row.id))).toEqual([{ id: givenRow?.id }]);
    expect(data.ledger).toMatchObject({ total_count: data.ledger.entries.length, truncated: false });
  });

  it('is rate-limited per user, and needs a sign-in', async () => {
    const user = await createUser(ctx);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push((await callApi(ctx, 'GET', '/users/me/export', user)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await callApi(ctx, 'GET', '/users/me/export')).statusCode).toBe(401);
  });
});

describe('a plan billed by Stripe', () => {
  let stripeCtx: TestContext;
  let fake: Awaited<ReturnType<typeof startFakeStripeApi>>;
  const webhookSecret = 'whsec_test_secret';
  const signer = new Stripe('sk_test_signer');

  beforeAll(async () => {
    fake = await startFakeStripeApi();
    stripeCtx = await buildTestApp({
      env: {
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
      },
      stripeApi: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
    });
  });
  afterAll(async () => {
    await stripeCtx.close();
    await fake.close();
  });

  /** The user pays for tier_2 through Stripe: the checkout's webhook, as Stripe sends it. */
  async function subscribe(user: SignedInUser, subscriptionId: string) {
    fake.addSubscription({
      id: subscriptionId,
      customer: `cus_${subscriptionId}`,
      userId: user.user.id,
      tier: 'tier_2',
      cents: 1000,
    });
    const payload = JSON.stringify({
      id: `evt_${subscriptionId}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `cs_${subscriptionId}`,
          object: 'checkout.session',
          client_reference_id: user.user.id,
          customer: `cus_${subscriptionId}`,
          subscription: subscriptionId,
          payment_status: 'paid',
          metadata: { user_id: user.user.id, tier: 'tier_2' },
        },
      },
    });
    const response = await stripeCtx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/stripe',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
      },
    });
    expect(response.statusCode).toBe(200);
    const current = json<{ data: { subscription: { tier: string; provider: string } } }>(
      await callApi(stripeCtx, 'GET', '/subscription/current', user),
    ).data.subscription;
    expect(current).toMatchObject({ tier: 'tier_2', provider: 'stripe' });
  }

  const cancellations = (subscriptionId: string) =>
    fake.calls.filter(
      (call) => call.method === 'DELETE' && call.path === `/v1/subscriptions/${subscriptionId}`,
    );

  it('is cancelled at Stripe at once when the user deletes their account', async () => {
    const user = await createUser(stripeCtx);
    await subscribe(user, 'sub_self_delete');
    expect(cancellations('sub_self_delete')).toHaveLength(0);

    expect((await deleteMe(stripeCtx, user, { password: 'wrong-Password1' })).statusCode).toBe(422);
    expect(cancellations('sub_self_delete')).toHaveLength(0);

    expect((await deleteMe(stripeCtx, user, { password: user.password })).statusCode).toBe(204);
    expect(cancellations('sub_self_delete')).toHaveLength(1);
    expect(fake.subscriptions.get('sub_self_delete')?.status).toBe('canceled');
  });

  it('is not cancelled at Stripe when the deletion is refused', async () => {
    const user = await createUser(stripeCtx);
    await subscribe(user, 'sub_refused_delete');
    const party = await createParty(stripeCtx, user);
    const member = await createMember(stripeCtx, party, 'player');
    await createParty(stripeCtx, member);

    expect((await deleteMe(stripeCtx, user, { password: user.password })).statusCode).toBe(409);
    expect(cancellations('sub_refused_delete')).toHaveLength(0);
  });

  it('is not cancelled when only the second of two parties finds no member with room', async () => {
    const user = await createUser(stripeCtx);
    await subscribe(user, 'sub_two_parties');
    const first = await createParty(stripeCtx, user);
    const member = await createMember(stripeCtx, first, 'player');
    // Hero runs 10 parties: this member runs 9 already, so has room for one more.
    await subscribe(member, 'sub_member_nine');
    for (let n = 0; n < 9; n++) await createParty(stripeCtx, member);
    const second = await createParty(stripeCtx, user);
    const joined = await callApi(stripeCtx, 'POST', '/parties/join', member, {
      join_code: second.join_code,
      role_request: 'player',
    });
    expect(joined.statusCode, joined.body).toBe(200);
    // Room to run the first, not both.
    expect((await deleteMe(stripeCtx, user, { password: user.password })).statusCode).toBe(409);
    expect(cancellations('sub_two_parties')).toHaveLength(0);
    expect((await callApi(stripeCtx, 'GET', '/auth/me', user)).statusCode).toBe(200);
    expect((await callApi(stripeCtx, 'GET', '/auth/me', user)).statusCode).toBe(200);
  });

  it('is cancelled at Stripe when an admin deletes the account too', async () => {
    const admin = await createAdmin(stripeCtx);
    const user = await createUser(stripeCtx);
    await subscribe(user, 'sub_admin_delete');
    const response = await callApi(stripeCtx, 'DELETE', `/admin/users/${user.user.id}`, admin.adminAuth, {
      confirm_email: user.user.email,
    });
    expect(response.statusCode).toBe(200);
    expect(cancellations('sub_admin_delete')).toHaveLength(1);
    const [entry] = (await auditLogRepository.forSubject(stripeCtx.database.db, user.user.id)).filter(
      (e) => e.action === 'user_deleted',
    );
    expect(entry?.details).toMatchObject({
      via: 'admin',
      subscription_cancelled_at_provider: {
        provider: 'stripe',
        provider_subscription_id: 'sub_admin_delete',
      },
    });
  });
});
