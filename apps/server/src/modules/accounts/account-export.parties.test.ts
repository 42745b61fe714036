import type { AccountExport, ShopInstance, ShopTemplate } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parties } from '../../db/schema/parties.js';
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
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';

/**
 * Review "returning" finding 2: deleting the account deletes a party its GM is alone in, so the export
 * carries what the GM set up in the parties they run (settings, notes, stash, deployed shops and loot),
 * and nothing of a party's own where the person only plays.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const as = (user: SignedInUser) => ({ id: user.user.id, username: user.user.username });
const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const noOverrides = { name: null, description: null, weight: null, value: null, currency: null };

async function exportOf(user: SignedInUser): Promise<{ data: AccountExport; text: string }> {
  const response = await callApi(ctx, 'GET', '/users/me/export', user);
  expect(response.statusCode, response.body).toBe(200);
  return { data: json<{ data: AccountExport }>(response).data, text: response.body };
}

describe('GET /users/me/export: the parties the person runs', () => {
  it('carries a GM’s party with its settings, notes, stash, shops and loot; a player’s, none of it', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, {
      name: 'Solo Vault',
      description: 'Line one\nLine two',
      game_system: 'Pathfinder 2e',
      setting: 'Underdark',
      join_permission: 'full',
      encumbrance_style: 'slots',
      item_conjuring: 'gm_only',
      is_public: true,
    });
    const notesSaved = await callApi(ctx, 'PATCH', `/parties/${party.id}/notes`, gm, {
      party_notes: { notes: 'Secret plans: rob the bank', version: 0 },
    });
    expect(notesSaved.statusCode, notesSaved.body).toBe(200);
    const player = await createMember(ctx, party, 'player');
    const pip = await createCharacter(ctx, player, { name: 'Pip', partyId: party.id });

    // The party's stash, and a vault the GM added, with coins and an item carrying overrides.
    const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
    const vault = json<{ data: { id: string } }>(
      await callApi(ctx, 'POST', '/containers', gm, {
        container: {
          name: 'Vault of Gold',
          description: 'Under the floor',
          max_weight: 250.5,
          max_slots: 40,
          party_id: party.id,
        },
      }),
    ).data;
    const gold = await coinTemplate(ctx, 'gp');
    const ruby = await createTemplate(ctx, {
      name: 'Ruby',
      weight: 0.1,
      baseValue: 50,
      currency: 'gp',
      stackSize: 10,
    });
    const coins = await ctx.app.services.inventory.createInstance(as(gm), {
      item_template_id: gold.id,
      container_id: vault.id,
      quantity: 500,
    });
    const gem = await ctx.app.services.inventory.createInstance(as(gm), {
      item_template_id: ruby.id,
      container_id: vault.id,
      quantity: 2,
      notes: 'From the dragon',
      instance_data: { name_override: 'Dragon’s ruby', value_override: 75 },
    });

    // A shop deployed into the party, closed, with its own prices and a restock.
    const lantern = await createTemplate(ctx, {
      name: 'Lantern',
      weight: 2,
      baseValue: 5,
      currency: 'sp',
      stackSize: 10,
    });
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 10, baseValue: 1, stackSize: 0 });
    const shopTemplate = json<{ data: ShopTemplate }>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: {
          name: 'Lamplighter',
          owner: 'Old Mae',
          location: 'Dock Street',
          shop_type: 'general',
          buy_modifier: 1.2,
          sell_modifier: 0.4,
          tag_list: ['lamps'],
        },
      }),
    ).data;
    for (const line of [
      { item_template_id: lantern.id, quantity: 4, price_cp: 350, restock_quantity: 6 },
      { item_template_id: rope.id, quantity: 10, price_cp: null },
    ]) {
      const added = await callApi(ctx, 'POST', `/shop_templates/${shopTemplate.id}/add_item`, gm, {
        shop_item: line,
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const shopDeployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: {
        shop_template_id: shopTemplate.id,
        party_id: party.id,
        name: 'Mae’s Lamps',
        is_active: false,
        discount_rate: 0.1,
        restock_days: 7,
        party_fund_allowed: true,
        approval_threshold_cp: 1000,
      },
    });
    expect(shopDeployed.statusCode, shopDeployed.body).toBe(201);
    const shop = json<{ data: ShopInstance }>(shopDeployed).data;
    const stockIds = new Map(
      shop.container.item_instances.map((stack) => [stack.item_template_id, stack.id] as const),
    );

    // Loot: one hidden, with items and coins; one revealed and distributed to Pip; one deleted.
    const hoard = await createLootTemplate(ctx, gm, [
      { item_template_id: rope.id, quantity: 2 },
      { currency: 'gp', quantity: 30 },
    ]);
    const hidden = await ctx.app.services.loot.deploy(as(gm), {
      loot_template_id: hoard.id,
      party_id: party.id,
      name: 'Goblin pockets',
      source: 'Goblin boss',
      location_name: 'Cragmaw cave',
    });
    const hiddenStacks = new Map(
      hidden.container.item_instances.map((stack) => [stack.item_template_id, stack.id] as const),
    );
    const shared = await ctx.app.services.loot.deploy(as(gm), {
      loot_template_id: hoard.id,
      party_id: party.id,
      name: 'Shared hoard',
    });
    await ctx.app.services.loot.reveal(as(gm), shared.id);
    await ctx.app.services.loot.distribute(as(gm), shared.id, {
      character_ids: [pip.id],
      distribution_mode: 'even',
      preview: false,
    });
    const gone = await ctx.app.services.loot.deploy(as(gm), {
      loot_template_id: hoard.id,
      party_id: party.id,
      name: 'Deleted loot',
    });
    await ctx.app.services.loot.deleteInstance(as(gm), gone.id);

    const [partyRow] = await ctx.database.db.select().from(parties).where(eq(parties.id, party.id));
    const { data, text } = await exportOf(gm);
    expect(data.version).toBe(1);
    expect(data.parties).toHaveLength(1);
    const exported = data.parties[0];
    expect(exported).toMatchObject({ id: party.id, name: 'Solo Vault', role: 'gm', is_owner: true });
    const details = exported?.details;
    expect(details).toMatchObject({
      description: 'Line one\nLine two',
      game_system: 'Pathfinder 2e',
      setting: 'Underdark',
      notes: 'Secret plans: rob the bank',
      notes_updated_at: partyRow?.notesUpdatedAt?.toISOString(),
      join_permission: 'full',
      encumbrance_style: 'slots',
      item_conjuring: 'gm_only',
      is_public: true,
      is_archived: false,
      created_at: partyRow?.createdAt.toISOString(),
    });
    // The join code opens the party to anyone who has it: a credential, not the GM's data.
    expect(String(party.join_code).length).toBeGreaterThan(0);
    expect(text).not.toContain(String(party.join_code));
    expect(Object.keys(details ?? {})).not.toContain('join_code');

    expect(details?.containers).toEqual([
      {
        id: stash?.id,
        name: 'Party Stash',
        description: '',
        is_primary: false,
        max_weight: null,
        max_slots: null,
        items: [],
      },
      {
        id: vault.id,
        name: 'Vault of Gold',
        description: 'Under the floor',
        is_primary: false,
        max_weight: 250.5,
        max_slots: 40,
        items: [
          {
            id: coins[0]?.id,
            item_template_id: gold.id,
            name: 'Gold piece',
            quantity: 500,
            weight: 0.02,
            value: 1,
            currency: 'gp',
            overrides: noOverrides,
            notes: '',
            is_identified: true,
            instance_data: {},
          },
          {
            id: gem[0]?.id,
            item_template_id: ruby.id,
            name: 'Dragon’s ruby',
            quantity: 2,
            weight: 0.1,
            value: 75,
            currency: 'gp',
            overrides: { ...noOverrides, name: 'Dragon’s ruby', value: 75 },
            notes: 'From the dragon',
            is_identified: true,
            instance_data: { name_override: 'Dragon’s ruby', value_override: 75 },
          },
        ],
      },
    ]);

    // Stacks made in one transaction share their time: compared by name.
    const byName = <T extends { name: string }>(list: T[]) =>
      [...list].sort((a, b) => a.name.localeCompare(b.name));
    expect(details?.shops.map((one) => ({ ...one, stock: byName(one.stock) }))).toEqual([
      {
        id: shop.id,
        shop_template_id: shopTemplate.id,
        name: 'Mae’s Lamps',
        description: '',
        owner: 'Old Mae',
        location: 'Dock Street',
        shop_type: 'general',
        tag_list: ['lamps'],
        is_active: false,
        discount_rate: 0.1,
        buy_modifier: 1.2,
        sell_modifier: 0.4,
        currency: 'gp',
        restock_days: 7,
        next_restock_at: isoDate,
        last_restock_at: null,
        restock_plan: [
          { item_template_id: lantern.id, restock_quantity: 6 },
          { item_template_id: rope.id, restock_quantity: 10 },
        ],
        own_prices_cp: { [lantern.id]: 350 },
        party_fund_allowed: true,
        approval_threshold_cp: 1000,
        created_at: shop.created_at,
        stock: [
          {
            id: stockIds.get(lantern.id),
            item_template_id: lantern.id,
            name: 'Lantern',
            quantity: 4,
            weight: 2,
            value: 5,
            currency: 'sp',
            overrides: noOverrides,
            notes: '',
            is_identified: true,
            instance_data: {},
            price_cp: 350,
          },
          {
            id: stockIds.get(rope.id),
            item_template_id: rope.id,
            name: 'Rope',
            quantity: 10,
            weight: 10,
            value: 1,
            currency: 'gp',
            overrides: noOverrides,
            notes: '',
            is_identified: true,
            instance_data: {},
            price_cp: null,
          },
        ],
      },
    ]);

    const lootItem = (templateId: string, name: string, quantity: number, weight: number) => ({
      id: hiddenStacks.get(templateId),
      item_template_id: templateId,
      name,
      quantity,
      weight,
      value: 1,
      currency: 'gp',
      overrides: noOverrides,
      notes: '',
      is_identified: true,
      instance_data: {},
    });
    expect(details?.loot.map((one) => ({ ...one, items: byName(one.items) }))).toEqual([
      {
        id: hidden.id,
        loot_template_id: hoard.id,
        name: 'Goblin pockets',
        description: '',
        source: 'Goblin boss',
        source_type: 'custom',
        location_name: 'Cragmaw cave',
        is_revealed: false,
        revealed_at: null,
        distributed_at: null,
        distribution_mode: null,
        created_at: hidden.created_at,
        items: [lootItem(gold.id, 'Gold piece', 30, 0.02), lootItem(rope.id, 'Rope', 2, 10)],
      },
      {
        id: shared.id,
        loot_template_id: hoard.id,
        name: 'Shared hoard',
        description: '',
        source: '',
        source_type: 'custom',
        location_name: null,
        is_revealed: true,
        revealed_at: isoDate,
        distributed_at: isoDate,
        distribution_mode: 'even',
        created_at: shared.created_at,
        items: [],
      },
    ]);
    // The deleted loot is gone from the party (its rows stay in the ledger, which names it).
    expect(details?.loot.map((loot) => loot.id)).not.toContain(gone.id);

    // The player's own file: the party is listed, nothing of the party's own.
    const played = await exportOf(player);
    expect(played.data.parties).toEqual([
      {
        id: party.id,
        name: 'Solo Vault',
        role: 'player',
        is_owner: false,
        joined_at: isoDate,
        details: null,
      },
    ]);
    for (const theirs of [
      'Secret plans',
      'Vault of Gold',
      'Dragon’s ruby',
      'Mae’s Lamps',
      'Goblin pockets',
      'Underdark',
    ])
      expect(played.text).not.toContain(theirs);
  });
});
