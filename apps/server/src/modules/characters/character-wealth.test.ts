import type { CharacterWealth, PartyWealth, SharedSnapshot } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
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

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const get = async <T>(url: string, user: SignedInUser) => {
  const response = await callApi(ctx, 'GET', url, user);
  return { status: response.statusCode, data: (response.json() as { data: T }).data };
};

async function addContainer(owner: { characterId?: string; partyId?: string }, name = 'Pouch') {
  const [row] = await ctx.database.db
    .insert(containers)
    .values({ name, ...owner })
    .returning();
  if (!row) throw new Error('no container');
  return row.id;
}

async function put(
  containerId: string,
  templateId: string,
  quantity: number,
  instanceData: Record<string, unknown> = {},
) {
  await ctx.database.db
    .insert(itemInstances)
    .values({ containerId, itemTemplateId: templateId, quantity, instanceData });
}

async function primaryOf(characterId: string) {
  const [row] = await ctx.database.db
    .select()
    .from(containers)
    .where(eq(containers.characterId, characterId));
  if (!row) throw new Error('no primary container');
  return row.id;
}

describe('character wealth (issue 12 §4)', () => {
  it('counts coins and items across every container of the character, overrides included', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player, { name: 'Aria', maxWeight: 60 });
    const backpack = await primaryOf(hero.id);
    const pouch = await addContainer({ characterId: hero.id });
    const [gp, sp, cp, pp] = await Promise.all([
      coinTemplate(ctx, 'gp'),
      coinTemplate(ctx, 'sp'),
      coinTemplate(ctx, 'cp'),
      coinTemplate(ctx, 'pp'),
    ]);
    // Named like a coin but not a seeded one: counted as an item, never as coins.
    const fakeGold = await createTemplate(ctx, {
      name: 'Gold piece',
      baseValue: 1,
      currency: 'cp',
      weight: 0,
    });
    const sword = await createTemplate(ctx, { name: 'Longsword', baseValue: 15, currency: 'gp', weight: 3 });
    await put(backpack, gp.id, 12);
    await put(pouch, gp.id, 3);
    await put(pouch, sp.id, 7);
    await put(backpack, cp.id, 50);
    await put(pouch, pp.id, 1);
    await put(backpack, fakeGold.id, 4);
    await put(backpack, sword.id, 2);
    // One sword is special: 1 pp and 10 lb (instance overrides).
    await put(pouch, sword.id, 1, { value_override: 1, currency_override: 'pp', weight_override: 10 });

    const { status, data } = await get<CharacterWealth>(`/characters/${hero.id}/wealth`, player);
    expect(status).toBe(200);
    expect(data.coins).toEqual({ cp: 50, sp: 7, ep: 0, gp: 15, pp: 1 });
    expect(data.coins_value_cp).toBe(50 + 70 + 1500 + 1000);
    expect(data.items_value_cp).toBe(4 + 2 * 1500 + 1000);
    expect(data.total_value_cp).toBe(data.coins_value_cp + data.items_value_cp);
    // 73 coins at 0.02 lb, two swords at 3 lb, one at 10 lb.
    expect(data.carried_weight).toBe(17.46);
    expect(data).toMatchObject({
      character_id: hero.id,
      name: 'Aria',
      player_name: player.user.username,
      is_owner: true,
      max_weight: 60,
      weight_tracked: true,
      // 17.46 lb of 60: under a third.
      encumbrance: 'unencumbered',
    });
  });

  it('counts a coin stack with an override of its own as an item, as payments and conversions do', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player, { name: 'Bram' });
    const pouch = await addContainer({ characterId: hero.id });
    const gp = await coinTemplate(ctx, 'gp');
    await put(pouch, gp.id, 5);
    // Ten "gold pieces" worth 10 gp each that no shop takes as gold: items, not coins.
    await put(pouch, gp.id, 10, { value_override: 1000 });
    await put(pouch, gp.id, 2, { name_override: 'Dragon-stamped gold', description_override: '' });

    const { data } = await get<CharacterWealth>(`/characters/${hero.id}/wealth`, player);
    expect(data.coins).toEqual({ cp: 0, sp: 0, ep: 0, gp: 5, pp: 0 });
    expect(data.coins_value_cp).toBe(500);
    expect(data.items_value_cp).toBe(10 * 1000 * 100 + 2 * 100);
    const refused = await callApi(ctx, 'POST', `/containers/${pouch}/convert_currency`, player, {
      from: 'gp',
      to: 'pp',
      quantity: 10,
    });
    expect(refused.statusCode).toBe(422);
  });

  it('reads the SRD variant thresholds from max_weight, and says nothing when there is no limit', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    const anvil = await createTemplate(ctx, { weight: 1, baseValue: 0 });
    const levels: Record<number, string> = { 10: 'unencumbered', 11: 'encumbered', 21: 'heavily_encumbered' };
    for (const [pounds, level] of Object.entries(levels)) {
      const hero = await createCharacter(ctx, player, { maxWeight: 30 });
      await put(await primaryOf(hero.id), anvil.id, Number(pounds));
      expect((await get<CharacterWealth>(`/characters/${hero.id}/wealth`, player)).data.encumbrance).toBe(
        level,
      );
    }
    const over = await createCharacter(ctx, player, { maxWeight: 30 });
    await put(await primaryOf(over.id), anvil.id, 31);
    expect((await get<CharacterWealth>(`/characters/${over.id}/wealth`, player)).data).toMatchObject({
      encumbrance: 'over_capacity',
      carried_weight: 31,
    });
    const unlimited = await createCharacter(ctx, player, { maxWeight: null });
    await put(await primaryOf(unlimited.id), anvil.id, 500);
    expect((await get<CharacterWealth>(`/characters/${unlimited.id}/wealth`, player)).data).toMatchObject({
      max_weight: null,
      encumbrance: null,
      carried_weight: 500,
    });
  });

  it('is an empty purse for a character with nothing', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player);
    const { data } = await get<CharacterWealth>(`/characters/${hero.id}/wealth`, player);
    expect(data).toMatchObject({
      coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
      total_value_cp: 0,
      carried_weight: 0,
      encumbrance: 'unencumbered',
    });
  });

  it('is read by the player and party members; anyone else hears 404', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const observer = await createMember(ctx, party, 'observer');
    const stranger = await createUser(ctx);
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    expect((await get(`/characters/${hero.id}/wealth`, gm)).status).toBe(200);
    expect((await get<CharacterWealth>(`/characters/${hero.id}/wealth`, observer)).data.is_owner).toBe(false);
    expect((await get(`/characters/${hero.id}/wealth`, stranger)).status).toBe(404);
    expect((await get(`/characters/00000000-0000-4000-8000-000000000000/wealth`, player)).status).toBe(404);
  });
});

describe('party wealth (issue 12 §7)', () => {
  it('lists every character, the stash and the total; hidden loot never counts', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const [gp, sp] = await Promise.all([coinTemplate(ctx, 'gp'), coinTemplate(ctx, 'sp')]);
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', weight: 10 });
    const bram = await createCharacter(ctx, player, { name: 'Bram', partyId: party.id, maxWeight: 30 });
    const cora = await createCharacter(ctx, gm, { name: 'Cora', partyId: party.id, maxWeight: 100 });
    const loner = await createCharacter(ctx, player, { name: 'Outsider' });
    await put(await primaryOf(bram.id), gp.id, 10);
    await put(await addContainer({ characterId: bram.id }, 'Saddlebag'), rope.id, 2);
    await put(await primaryOf(cora.id), sp.id, 25);
    await put(await primaryOf(loner.id), gp.id, 1000);
    const stash = await addContainer({ partyId: party.id }, 'Party Stash');
    await put(stash, gp.id, 100);
    await put(stash, rope.id, 1);
    const hoard = await createLootTemplate(ctx, gm, [{ currency: 'gp', quantity: 5000 }]);
    await deployLoot(ctx, gm, party.id, hoard.id);

    const { status, data } = await get<PartyWealth>(`/parties/${party.id}/wealth`, gm);
    expect(status).toBe(200);
    expect(data.characters.map((c) => c.name)).toEqual(['Bram', 'Cora']);
    const [b, c] = data.characters;
    expect(b).toMatchObject({
      player_name: player.user.username,
      is_owner: false,
      coins: { gp: 10 },
      coins_value_cp: 1000,
      items_value_cp: 200,
      total_value_cp: 1200,
      carried_weight: 20.2,
      max_weight: 30,
      encumbrance: 'heavily_encumbered',
    });
    expect(c).toMatchObject({
      is_owner: true,
      coins: { sp: 25 },
      total_value_cp: 250,
      encumbrance: 'unencumbered',
    });
    expect(data.stash).toMatchObject({ coins: { gp: 100 }, total_value_cp: 10_100, carried_weight: 12 });
    expect(data.totals).toMatchObject({
      coins: { cp: 0, sp: 25, ep: 0, gp: 110, pp: 0 },
      coins_value_cp: 11_250,
      items_value_cp: 300,
      total_value_cp: 11_550,
    });
  });

  it('follows the party’s encumbrance style', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm, { encumbrance_style: 'slots' });
    const hero = await createCharacter(ctx, gm, { partyId: party.id, maxWeight: 10 });
    const boulder = await createTemplate(ctx, { weight: 50 });
    await put(await primaryOf(hero.id), boulder.id, 1);
    const { data } = await get<PartyWealth>(`/parties/${party.id}/wealth`, gm);
    expect(data.characters[0]).toMatchObject({
      weight_tracked: false,
      encumbrance: null,
      carried_weight: 50,
    });
  });

  it('is for members only, and says so for a party with no characters', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm, { is_public: true });
    const observer = await createMember(ctx, party, 'observer');
    const stranger = await createUser(ctx);
    await ctx.database.db.delete(containers).where(eq(containers.partyId, party.id));
    const { status, data } = await get<PartyWealth>(`/parties/${party.id}/wealth`, observer);
    expect(status).toBe(200);
    expect(data).toEqual({
      characters: [],
      stash: null,
      totals: {
        coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
        coins_value_cp: 0,
        items_value_cp: 0,
        total_value_cp: 0,
        carried_weight: 0,
      },
    });
    // A public party is visible to strangers, its members' wealth is not.
    expect((await get(`/parties/${party.id}/wealth`, stranger)).status).toBe(404);
    expect((await get(`/parties/00000000-0000-4000-8000-000000000000/wealth`, gm)).status).toBe(404);
  });
});

describe('wealth past the safe integer range (attack review: 500 on wealth, party wealth and shares)', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  /** 10,000,000 × 900,000 pp = 9e15 cp: one stack is safe; eleven of them are 9.9e16 cp. */
  const STACK_CP = 10_000_000 * 900_000 * 1000;

  it('reports sums that pass Number.MAX_SAFE_INTEGER as that, for the player, the party and the share page', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_1');
    const hero = await createCharacter(ctx, player, {
      name: 'Croesus',
      partyId: party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const gmHero = await createCharacter(ctx, gm, { name: 'Modest', partyId: party.id });
    const gp = await coinTemplate(ctx, 'gp');
    await put(await primaryOf(gmHero.id), gp.id, 7);

    // The reproduction, through the API as the attacker did it.
    const template = await callApi(ctx, 'POST', '/item_templates', player, {
      item_template: { name: 'Crown jewel', base_value: 900_000, currency: 'pp', stack_size: 0, weight: 0 },
    });
    expect(template.statusCode).toBe(201);
    const templateId = (template.json() as { data: { id: string } }).data.id;
    const containerIds = [String(hero.primary_container_id)];
    for (let i = 0; i < 10; i++) {
      const made = await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, player, {
        container: { name: `Vault ${i}` },
      });
      expect(made.statusCode).toBe(201);
      containerIds.push((made.json() as { data: { id: string } }).data.id);
    }
    for (const containerId of containerIds) {
      const added = await callApi(ctx, 'POST', '/item_instances', player, {
        item_template_id: templateId,
        container_id: containerId,
        quantity: 10_000_000,
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    await put(containerIds[0] ?? '', gp.id, 5);

    const mine = await get<CharacterWealth>(`/characters/${hero.id}/wealth`, player);
    expect(mine.status).toBe(200);
    expect(mine.data).toMatchObject({
      coins: { gp: 5 },
      coins_value_cp: 500,
      items_value_cp: MAX,
      total_value_cp: MAX,
    });

    for (const viewer of [gm, player]) {
      const table = await get<PartyWealth>(`/parties/${party.id}/wealth`, viewer);
      expect(table.status).toBe(200);
      const [croesus, modest] = table.data.characters;
      expect(croesus).toMatchObject({ name: 'Croesus', items_value_cp: MAX, total_value_cp: MAX });
      // Everyone else's figures stay exact.
      expect(modest).toMatchObject({ name: 'Modest', coins_value_cp: 700, total_value_cp: 700 });
      expect(table.data.totals).toMatchObject({
        coins: { gp: 12 },
        coins_value_cp: 1200,
        items_value_cp: MAX,
        total_value_cp: MAX,
      });
    }

    // Each container holds one stack, well inside the range: exact.
    const containersOf = await get<{ total_value_gp: number }[]>(`/characters/${hero.id}/containers`, player);
    expect(containersOf.status).toBe(200);
    expect(containersOf.data.map((c) => c.total_value_gp)).toContain(STACK_CP / 100);

    const link = await callApi(ctx, 'POST', '/shares', player, {
      share: { kind: 'character', target_id: hero.id },
    });
    expect(link.statusCode).toBe(201);
    const { code, url } = (link.json() as { data: { code: string; url: string } }).data;
    const page = await callApi(ctx, 'GET', `/shares/${code}`);
    expect(page.statusCode, page.body).toBe(200);
    const snapshot = (page.json() as { data: SharedSnapshot }).data;
    expect(snapshot.totals.total_value_cp).toBe(MAX);
    expect(snapshot.summary).toBe("Croesus's inventory: 110,000,000 items, 0.1 lbs, 90,071,992,547,409+ gp");
    const items = snapshot.sections.flatMap((section) => section.items);
    expect(items.filter((item) => item.name === 'Crown jewel').map((item) => item.total_value_cp)).toEqual(
      Array(11).fill(STACK_CP),
    );
    const oembed = await callApi(ctx, 'GET', `/oembed?url=${encodeURIComponent(url)}`);
    expect(oembed.statusCode).toBe(200);
    expect((oembed.json() as { title: string }).title).toContain('90,071,992,547,409+ gp');
  });

  it('reports a container worth more than the range allows at the clamped figure', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player, { maxWeight: null, maxSlots: null });
    const jewel = await createTemplate(ctx, { baseValue: 900_000, currency: 'pp', weight: 0, stackSize: 0 });
    const vault = await primaryOf(hero.id);
    // 101 full stacks: 9.09e17 cp, 9.09e15 gp, past the range even in gold.
    for (let i = 0; i < 101; i += 1) await put(vault, jewel.id, 10_000_000);
    const { status, data } = await get<{ id: string; total_value_gp: number }[]>(
      `/characters/${hero.id}/containers`,
      player,
    );
    expect(status).toBe(200);
    expect(data.find((c) => c.id === vault)?.total_value_gp).toBe(Math.floor(MAX / 100));
  });
});
