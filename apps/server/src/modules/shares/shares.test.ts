import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SharedSnapshot, ShareLink, ShopInstance, ShopTemplate } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/accounts.js';
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
import { sharesRepository } from './shares.repository.js';

let ctx: TestContext;
let webDir: string;

beforeAll(async () => {
  // A built web app stand-in: the share page is its index.html with the unfurl tags added.
  webDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-share-web-'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8" /><meta name="description" content="Haversack app" /><title>Haversack</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webDir, 'og-image.png'), 'png');
  ctx = await buildTestApp({ env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDir, { recursive: true, force: true });
});

type Envelope<T> = { status: string; data: T; error?: { code: string; message: string } };
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });
const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function share(user: SignedInUser, kind: 'character' | 'loot' | 'shop', targetId: string) {
  return callApi(ctx, 'POST', '/shares', user, { share: { kind, target_id: targetId } });
}
async function shareOk(user: SignedInUser, kind: 'character' | 'loot' | 'shop', targetId: string) {
  const response = await share(user, kind, targetId);
  expect([200, 201], response.body).toContain(response.statusCode);
  return body<ShareLink>(response).data;
}
const readShare = (code: string) => callApi(ctx, 'GET', `/shares/${code}`);

async function give(owner: SignedInUser, containerId: string, templateId: string, quantity: number) {
  await ctx.app.services.inventory.createInstance(actorOf(owner), {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });
}

/** Thorin, with rope, a lantern and 152 gp, in a party with a second player and an outsider nearby. */
async function thorinsParty(name = 'Thorin') {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const player = await createMember(ctx, party, 'player');
  const friend = await createMember(ctx, party, 'player');
  const outsider = await createUser(ctx);
  const thorin = await createCharacter(ctx, player, {
    name,
    partyId: party.id,
    maxWeight: null,
    maxSlots: null,
  });
  const secretHero = await createCharacter(ctx, player, { name: 'Secret Alt' });
  const bag = String(thorin.primary_container_id);
  const rope = await createTemplate(ctx, { name: 'Hempen rope', weight: 10, baseValue: 1, stackSize: 0 });
  const lantern = await createTemplate(ctx, { name: 'Lantern', weight: 2, baseValue: 5 });
  const hidden = await createTemplate(ctx, { name: 'Alt-only dagger' });
  await give(player, bag, rope.id, 2);
  await give(player, bag, lantern.id, 1);
  await give(player, bag, (await coinTemplate(ctx, 'gp')).id, 152);
  await give(player, String(secretHero.primary_container_id), hidden.id, 1);
  return { gm, party, player, friend, outsider, thorin, secretHero };
}

describe('share links (issue 16 §3)', () => {
  it('shares a character’s inventory read-only with anyone who has the code, and nothing more', async () => {
    const { player, thorin } = await thorinsParty();
    const created = await share(player, 'character', thorin.id);
    expect(created.statusCode).toBe(201);
    const link = body<ShareLink>(created).data;
    expect(link).toMatchObject({ kind: 'character', target_id: thorin.id, target_name: 'Thorin' });
    expect(link.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(link.url).toBe(`${ctx.config.appUrl}/discord/share/${link.code}`);
    // Sharing again hands out the same link.
    const again = await share(player, 'character', thorin.id);
    expect(again.statusCode).toBe(200);
    expect(body<ShareLink>(again).data.code).toBe(link.code);

    const response = await readShare(link.code);
    expect(response.statusCode).toBe(200);
    const snapshot = body<SharedSnapshot>(response).data;
    expect(snapshot).toMatchObject({
      kind: 'character',
      title: "Thorin's inventory",
      totals: { items_count: 3, total_value_cp: 2 * 100 + 500 + 152 * 100 },
    });
    // 152 gold pieces weigh 3.04 lbs: the load is to the hundredth, as the character's own page says it.
    expect(snapshot.totals.total_weight).toBe(25.04);
    expect(snapshot.summary).toBe("Thorin's inventory: 3 items, 25.04 lbs, 159 gp");
    const items = snapshot.sections.flatMap((section) => section.items);
    expect(items.map((item) => [item.name, item.quantity]).sort()).toEqual([
      ['Gold piece', 152],
      ['Hempen rope', 2],
      ['Lantern', 1],
    ]);
    const raw = response.body;
    expect(raw).not.toMatch(uuidPattern);
    expect(raw).not.toContain(player.user.email);
    expect(raw).not.toContain(player.user.username);
    expect(raw).not.toContain('Alt-only dagger');
  });

  it('marks an item the SRD gives no price as unpriced, so the page says so rather than 0 cp', async () => {
    const { player, thorin } = await thorinsParty();
    const bag = await createTemplate(ctx, {
      name: 'Bag of Holding',
      weight: 15,
      baseValue: 0,
      metadata: { priced: false, rarity: 'uncommon' },
    });
    await give(player, String(thorin.primary_container_id), bag.id, 1);
    const link = body<ShareLink>(await share(player, 'character', thorin.id)).data;
    const items = body<SharedSnapshot>(await readShare(link.code)).data.sections.flatMap((s) => s.items);
    expect(items.find((item) => item.name === 'Bag of Holding')).toMatchObject({ is_unpriced: true });
    expect(items.find((item) => item.name === 'Lantern')).toMatchObject({ is_unpriced: false });
  });

  it('lets only its player share a character: the party sees it but may not publish it', async () => {
    const { friend, outsider, thorin, gm } = await thorinsParty();
    for (const member of [friend, gm]) {
      const refused = await share(member, 'character', thorin.id);
      expect(refused.statusCode).toBe(403);
      expect(body(refused).error).toMatchObject({
        code: 'FORBIDDEN',
        message: "Only the character's player can share its inventory.",
      });
      expect(body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', member)).data).toEqual([]);
    }
    const refused = await share(outsider, 'character', thorin.id);
    expect(refused.statusCode).toBe(404);
    expect(body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', outsider)).data).toEqual([]);
    expect(
      (
        await callApi(ctx, 'POST', '/shares', undefined, {
          share: { kind: 'character', target_id: thorin.id },
        })
      ).statusCode,
    ).toBe(401);
    expect((await share(friend, 'character', 'not-an-id')).statusCode).toBe(422);
  });

  it('shares revealed loot only, and stops showing it when the GM hides it again', async () => {
    const { gm, party, player } = await thorinsParty();
    const gem = await createTemplate(ctx, { name: 'Ruby', baseValue: 50, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 3 }]);
    const hoard = await deployLoot(ctx, gm, party.id, template.id, { name: 'Goblin Hoard' });
    // Hidden: players cannot see it, the GM may not share it yet.
    expect((await share(player, 'loot', hoard.id)).statusCode).toBe(404);
    const early = await share(gm, 'loot', hoard.id);
    expect(early.statusCode).toBe(422);
    await ctx.app.services.loot.reveal(actorOf(gm), hoard.id);
    const link = await shareOk(player, 'loot', hoard.id);
    const shown = body<SharedSnapshot>(await readShare(link.code)).data;
    expect(shown).toMatchObject({
      kind: 'loot',
      title: 'Goblin Hoard',
      totals: { items_count: 3, total_value_cp: 15000 },
    });
    expect(shown.summary).toBe('Goblin Hoard: 3 items, 0 lbs, 150 gp');

    await ctx.app.services.loot.updateInstance(actorOf(gm), hoard.id, { is_revealed: false });
    expect((await readShare(link.code)).statusCode).toBe(404);
    expect((await share(gm, 'loot', hoard.id)).statusCode).toBe(422);
    const page = await ctx.app.inject({ method: 'GET', url: `/discord/share/${link.code}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Ruby');
  });

  it('shares a shop with its prices', async () => {
    const { gm, party, player } = await thorinsParty();
    const rope = await createTemplate(ctx, { name: 'Silk rope', baseValue: 10, weight: 5, stackSize: 0 });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: 'Rusty Anvil', visibility: 'private' },
      }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: rope.id, quantity: 4, price_cp: 1234 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id },
      }),
    ).data;
    const link = await shareOk(player, 'shop', shop.id);
    const snapshot = body<SharedSnapshot>(await readShare(link.code)).data;
    expect(snapshot).toMatchObject({ kind: 'shop', title: 'Rusty Anvil', is_open: true });
    expect(snapshot.sections[0]?.items).toEqual([
      expect.objectContaining({ name: 'Silk rope', quantity: 4, price_cp: 1234 }),
    ]);
    expect(JSON.stringify(snapshot)).not.toMatch(uuidPattern);
    // A stranger sees what a buyer pays, never the rope's base worth (10 gp) behind the GM's markup.
    expect(snapshot.sections[0]?.items[0]).toMatchObject({ value_cp: 1234, total_value_cp: 4936 });
    expect(snapshot.totals.total_value_cp).toBe(4936);
    expect(JSON.stringify(snapshot)).not.toContain('1000');
  });

  it('shows a shop’s stock as its shelf does: one row per item and price, not one per stack', async () => {
    const { gm, party, player } = await thorinsParty();
    const backpack = await createTemplate(ctx, { name: 'Backpack', baseValue: 2, weight: 5, stackSize: 1 });
    const arrow = await createTemplate(ctx, { name: 'Arrow', baseValue: 1, weight: 0.05, stackSize: 20 });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: 'Fletcher', visibility: 'private' },
      }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: backpack.id, quantity: 3 },
    });
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: arrow.id, quantity: 50, price_cp: 5 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id },
      }),
    ).data;
    // Three backpacks (they do not stack) and arrows in stacks of 20: five stacks in the shop.
    expect(shop.container.item_instances).toHaveLength(6);
    const link = await shareOk(player, 'shop', shop.id);
    const snapshot = body<SharedSnapshot>(await readShare(link.code)).data;
    const rows = snapshot.sections[0]?.items ?? [];
    expect(rows.map((row) => [row.name, row.quantity])).toEqual(
      expect.arrayContaining([
        ['Backpack', 3],
        ['Arrow', 50],
      ]),
    );
    expect(rows).toHaveLength(2);
    // Worth 1 gp each, sold at 5 cp: the row's total is the whole line's at the shop's price.
    expect(rows.find((row) => row.name === 'Arrow')).toMatchObject({ price_cp: 5, total_value_cp: 250 });
    expect(snapshot.totals.items_count).toBe(53);
  });

  it('keeps stacks of one item and price apart on a shared shop when their weight or value differ', async () => {
    const { gm, party, player } = await thorinsParty();
    const longsword = await createTemplate(ctx, {
      name: 'Longsword',
      baseValue: 15,
      weight: 3,
      stackSize: 1,
    });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: 'Armoury', visibility: 'private' },
      }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: longsword.id, quantity: 2, price_cp: 1500 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id },
      }),
    ).data;
    // A third Longsword at the same price, but a heavy and precious one.
    const gmHero = await createCharacter(ctx, gm, { partyId: party.id, maxWeight: null, maxSlots: null });
    const [heavy] = await ctx.app.services.inventory.createInstance(actorOf(gm), {
      item_template_id: longsword.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
      instance_data: { weight_override: 500, value_override: 90000, currency_override: 'gp' },
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/stock`, gm, {
      item_id: heavy?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
      price: 1500,
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    const link = await shareOk(player, 'shop', shop.id);
    const snapshot = body<SharedSnapshot>(await readShare(link.code)).data;
    const rows = snapshot.sections[0]?.items ?? [];
    expect(rows.map((row) => [row.name, row.quantity, row.weight, row.total_weight])).toEqual(
      expect.arrayContaining([
        ['Longsword', 2, 3, 6],
        ['Longsword', 1, 500, 500],
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(snapshot.totals.total_weight).toBe(506);
  });

  it('lists my links and revokes them; a revoked or unknown code is 404', async () => {
    const { player, friend, thorin } = await thorinsParty();
    const link = await shareOk(player, 'character', thorin.id);
    const mine = body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', player)).data;
    expect(mine.map((s) => s.code)).toEqual([link.code]);
    // Someone else cannot revoke it.
    expect((await callApi(ctx, 'DELETE', `/shares/${link.id}`, friend)).statusCode).toBe(404);
    expect((await readShare(link.code)).statusCode).toBe(200);
    expect((await callApi(ctx, 'DELETE', `/shares/${link.id}`, player)).statusCode).toBe(204);
    const gone = await readShare(link.code);
    expect(gone.statusCode).toBe(404);
    expect(body(gone).error?.code).toBe('RESOURCE_NOT_FOUND');
    expect(body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', player)).data).toEqual([]);
    expect((await callApi(ctx, 'DELETE', `/shares/${link.id}`, player)).statusCode).toBe(404);
    expect((await readShare('AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    // Sharing again after a revocation makes a new code.
    const fresh = await shareOk(player, 'character', thorin.id);
    expect(fresh.code).not.toBe(link.code);
  });

  // GET /shares/{id} takes the code, so DELETE takes it too, beside the link's id (integrator review L5).
  it('revokes a link named by its code as well as by its id, only the owner’s', async () => {
    const { player, friend, thorin } = await thorinsParty();
    const link = await shareOk(player, 'character', thorin.id);
    expect((await callApi(ctx, 'DELETE', `/shares/${link.code}`, friend)).statusCode).toBe(404);
    expect((await readShare(link.code)).statusCode).toBe(200);
    const byCode = await callApi(ctx, 'DELETE', `/shares/${link.code}`, player);
    expect(byCode.statusCode, byCode.body).toBe(204);
    expect((await readShare(link.code)).statusCode).toBe(404);
    expect((await callApi(ctx, 'DELETE', `/shares/${link.code}`, player)).statusCode).toBe(404);
    expect((await callApi(ctx, 'DELETE', `/shares/${link.id}`, player)).statusCode).toBe(404);

    const fresh = await shareOk(player, 'character', thorin.id);
    // An id in capitals is the same id.
    const byId = await callApi(ctx, 'DELETE', `/shares/${fresh.id.toUpperCase()}`, player);
    expect(byId.statusCode, byId.body).toBe(204);
    expect((await readShare(fresh.code)).statusCode).toBe(404);
    const unknown = await callApi(ctx, 'DELETE', '/shares/AAAAAAAAAAAAAAAAAAAAAA', player);
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).error?.message).toBe('Share link not found');
    expect((await callApi(ctx, 'DELETE', `/shares/${'x'.repeat(65)}`, player)).statusCode).toBe(422);
  });

  it('takes a suspended account’s shared pages down, and puts them back when the suspension is lifted', async () => {
    const { player, thorin } = await thorinsParty();
    const link = await shareOk(player, 'character', thorin.id);
    expect((await readShare(link.code)).statusCode).toBe(200);
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: new Date(), suspendedReason: 'test' })
      .where(eq(users.id, player.user.id));
    expect((await readShare(link.code)).statusCode).toBe(404);
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: null, suspendedReason: null })
      .where(eq(users.id, player.user.id));
    expect((await readShare(link.code)).statusCode).toBe(200);
  });

  it('stops showing loot once the one who shared it leaves the party', async () => {
    const { gm, friend, party } = await thorinsParty();
    const gem = await createTemplate(ctx, { name: 'Opal', baseValue: 20, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 1 }]);
    const hoard = await deployLoot(ctx, gm, party.id, template.id, { name: 'Crypt Cache' });
    await ctx.app.services.loot.reveal(actorOf(gm), hoard.id);
    const link = await shareOk(friend, 'loot', hoard.id);
    expect((await readShare(link.code)).statusCode).toBe(200);
    await callApi(ctx, 'DELETE', `/parties/${party.id}/leave`, friend);
    expect((await readShare(link.code)).statusCode).toBe(404);
  });

  it('keeps a link to loot hidden again in my list, without its current name, so that I can revoke it', async () => {
    const { gm, party, player } = await thorinsParty();
    const gem = await createTemplate(ctx, { name: 'Garnet', baseValue: 20, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 2 }]);
    const hoard = await deployLoot(ctx, gm, party.id, template.id, { name: 'Dragon hoard' });
    await ctx.app.services.loot.reveal(actorOf(gm), hoard.id);
    const link = await shareOk(player, 'loot', hoard.id);
    const gmLink = await shareOk(gm, 'loot', hoard.id);
    expect(link).toMatchObject({ target_name: 'Dragon hoard', available: true });

    // The attack review: the GM hides and renames the loot; the player's list must not tell them the name.
    const edited = await callApi(ctx, 'PATCH', `/loot_instances/${hoard.id}`, gm, {
      loot_instance: { is_revealed: false, name: 'GM-only: ambush at the mill' },
    });
    expect(edited.statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', `/loot_instances/${hoard.id}`, player)).statusCode).toBe(404);
    const listed = await callApi(ctx, 'GET', '/users/me/shares', player);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain('ambush');
    expect(body<ShareLink[]>(listed).data).toEqual([
      expect.objectContaining({
        id: link.id,
        code: link.code,
        kind: 'loot',
        target_id: hoard.id,
        target_name: null,
        available: false,
      }),
    ]);
    // The GM still sees the loot, so its name; the page itself shows nothing while it is hidden.
    const gmListed = body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', gm)).data;
    expect(gmListed).toEqual([
      expect.objectContaining({
        id: gmLink.id,
        target_name: 'GM-only: ambush at the mill',
        available: false,
      }),
    ]);
    expect((await readShare(link.code)).statusCode).toBe(404);
    // Still mine to revoke.
    expect((await callApi(ctx, 'DELETE', `/shares/${link.id}`, player)).statusCode).toBe(204);
    expect(body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', player)).data).toEqual([]);
  });

  it('keeps links to the party’s loot and shops once I am removed from it, without their current names', async () => {
    const { gm, party, player, thorin } = await thorinsParty();
    const gem = await createTemplate(ctx, { name: 'Topaz', baseValue: 20, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 1 }]);
    const hoard = await deployLoot(ctx, gm, party.id, template.id, { name: 'Mill hoard' });
    await ctx.app.services.loot.reveal(actorOf(gm), hoard.id);
    const shopTemplate = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: 'Smithy', visibility: 'private' },
      }),
    ).data;
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id },
      }),
    ).data;
    const lootLink = await shareOk(player, 'loot', hoard.id);
    const shopLink = await shareOk(player, 'shop', shop.id);
    const characterLink = await shareOk(player, 'character', thorin.id);

    const removed = await callApi(ctx, 'DELETE', `/parties/${party.id}/members/${player.user.id}`, gm);
    expect(removed.statusCode).toBe(204);
    await callApi(ctx, 'PATCH', `/loot_instances/${hoard.id}`, gm, {
      loot_instance: { name: 'Secret: the miller is a wererat' },
    });
    await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: { name: 'Secret: the smith is a spy' },
    });
    await callApi(ctx, 'PATCH', `/characters/${thorin.id}`, player, { character: { name: 'Thorin II' } });

    const listed = await callApi(ctx, 'GET', '/users/me/shares', player);
    expect(listed.body).not.toContain('Secret');
    const byId = new Map(body<ShareLink[]>(listed).data.map((s) => [s.id, s]));
    expect(byId.get(lootLink.id)).toMatchObject({ kind: 'loot', target_name: null, available: false });
    expect(byId.get(shopLink.id)).toMatchObject({ kind: 'shop', target_name: null, available: false });
    // My own character is still mine: its link, and its current name, are unchanged.
    expect(byId.get(characterLink.id)).toMatchObject({
      kind: 'character',
      target_name: 'Thorin II',
      available: true,
    });
    expect((await readShare(lootLink.code)).statusCode).toBe(404);
    expect((await readShare(shopLink.code)).statusCode).toBe(404);
    expect((await readShare(characterLink.code)).statusCode).toBe(200);
  });

  it('lists links to what I still see with their current names', async () => {
    const { gm, party, player, thorin } = await thorinsParty();
    const gem = await createTemplate(ctx, { name: 'Pearl', baseValue: 20, weight: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 1 }]);
    const hoard = await deployLoot(ctx, gm, party.id, template.id, { name: 'Reef hoard' });
    await ctx.app.services.loot.reveal(actorOf(gm), hoard.id);
    await shareOk(player, 'loot', hoard.id);
    await shareOk(player, 'character', thorin.id);
    await callApi(ctx, 'PATCH', `/loot_instances/${hoard.id}`, gm, {
      loot_instance: { name: 'Sunken reef hoard' },
    });
    const mine = body<ShareLink[]>(await callApi(ctx, 'GET', '/users/me/shares', player)).data;
    expect(mine.map((s) => [s.kind, s.target_name, s.available])).toEqual([
      ['character', 'Thorin', true],
      ['loot', 'Sunken reef hoard', true],
    ]);
  });

  it('shows nothing through a character link its player did not make', async () => {
    // Links other members made before only players could share their own characters.
    const { friend, player, thorin } = await thorinsParty();
    const target = { kind: 'character' as const, id: thorin.id };
    const at = new Date();
    await sharesRepository.insert(ctx.database.db, {
      code: 'FriendMadeThisLink000A',
      userId: friend.user.id,
      target,
      at,
    });
    expect((await readShare('FriendMadeThisLink000A')).statusCode).toBe(404);
    await sharesRepository.insert(ctx.database.db, {
      code: 'PlayerMadeThisLink000A',
      userId: player.user.id,
      target,
      at,
    });
    expect((await readShare('PlayerMadeThisLink000A')).statusCode).toBe(200);
  });

  it('serves the share page with Open Graph, Twitter and oEmbed tags, escaped', async () => {
    const { player, thorin } = await thorinsParty('<script>alert("x")</script> & "Thorin"');
    const link = await shareOk(player, 'character', thorin.id);
    const page = await ctx.app.inject({ method: 'GET', url: `/discord/share/${link.code}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.body;
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(
      '<meta property="og:title" content="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Thorin&quot;&#39;s inventory" />',
    );
    expect(html).toContain('<meta property="og:description" content="&lt;script&gt;');
    expect(html).toContain('3 items, 25.04 lbs, 159 gp');
    expect(html).toContain(
      `<meta property="og:url" content="${ctx.config.appUrl}/discord/share/${link.code}" />`,
    );
    expect(html).toContain('<meta property="og:type" content="website" />');
    expect(html).toContain('<meta property="og:site_name" content="Haversack" />');
    expect(html).toContain(`<meta property="og:image" content="${ctx.config.appUrl}/og-image.png" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain('<title>&lt;script&gt;');
    // The app's own description gives way to the share's; the app still boots from the same page.
    expect(html).not.toContain('Haversack app');
    expect(html).toContain('<div id="root"></div>');
    const oembedHref = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
      html,
    )?.[1];
    expect(oembedHref).toBeDefined();
    const oembedUrl = new URL((oembedHref ?? '').replace(/&amp;/g, '&'));
    const oembed = await ctx.app.inject({ method: 'GET', url: `${oembedUrl.pathname}${oembedUrl.search}` });
    expect(oembed.statusCode).toBe(200);
    expect(oembed.json()).toMatchObject({
      version: '1.0',
      type: 'link',
      provider_name: 'Haversack',
      title: `<script>alert("x")</script> & "Thorin"'s inventory: 3 items, 25.04 lbs, 159 gp`,
    });
  });

  // oEmbed 1.0 §2.3.4: a format the provider does not offer is 501 Not Implemented (not the app envelope).
  it('answers oEmbed 501 for format=xml', async () => {
    const { player, thorin } = await thorinsParty();
    const link = await shareOk(player, 'character', thorin.id);
    const url = encodeURIComponent(`${ctx.config.appUrl}/discord/share/${link.code}`);
    const refused = await callApi(ctx, 'GET', `/oembed?url=${url}&format=xml`);
    expect(refused.statusCode).toBe(501);
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.body).toBe('Not Implemented: only format=json is offered');
    // Not an oEmbed format at all: a bad parameter, as any other.
    expect((await callApi(ctx, 'GET', `/oembed?url=${url}&format=yaml`)).statusCode).toBe(422);
    const document = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { responses: Record<string, { content?: object }> } }>;
    };
    expect(Object.keys(document.paths['/api/v1/oembed']?.get?.responses['501']?.content ?? {})).toEqual([
      'text/plain',
    ]);
    expect((await callApi(ctx, 'GET', `/oembed?url=${url}&format=json`)).statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', `/oembed?url=${url}`)).statusCode).toBe(200);
  });

  it('answers a not-found page and oEmbed 404 for an unknown or revoked code', async () => {
    const { player, thorin } = await thorinsParty();
    const link = await shareOk(player, 'character', thorin.id);
    await callApi(ctx, 'DELETE', `/shares/${link.id}`, player);
    for (const code of [link.code, 'unknown-code']) {
      const page = await ctx.app.inject({ method: 'GET', url: `/discord/share/${code}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('<meta property="og:title" content="Share link not found" />');
      expect(page.body).not.toContain('Thorin');
      const oembed = await callApi(
        ctx,
        'GET',
        `/oembed?url=${encodeURIComponent(`${ctx.config.appUrl}/discord/share/${code}`)}`,
      );
      expect(oembed.statusCode).toBe(404);
    }
    expect((await callApi(ctx, 'GET', '/oembed?url=not-a-url')).statusCode).toBe(404);
    // A live code on another host is no link of this site.
    const live = await shareOk(player, 'character', thorin.id);
    const elsewhere = `https://evil.example/discord/share/${live.code}`;
    expect((await callApi(ctx, 'GET', `/oembed?url=${encodeURIComponent(elsewhere)}`)).statusCode).toBe(404);
    const here = `${ctx.config.appUrl}/discord/share/${live.code}`;
    expect((await callApi(ctx, 'GET', `/oembed?url=${encodeURIComponent(here)}`)).statusCode).toBe(200);
    expect(
      (await callApi(ctx, 'GET', `/oembed?url=${encodeURIComponent(`${ctx.config.appUrl}/characters`)}`))
        .statusCode,
    ).toBe(404);
  });
});
