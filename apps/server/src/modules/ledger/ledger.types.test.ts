import { transactionTypes } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
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
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

/** A call that must succeed; answers its `data`. */
async function ok<T = Record<string, unknown>>(
  method: ApiMethod,
  url: string,
  user: SignedInUser,
  payload?: unknown,
): Promise<T> {
  const response: LightMyRequestResponse = await callApi(ctx, method, url, user, payload);
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? (undefined as T) : (response.json() as { data: T }).data;
}

describe('the ledger types of spec/02 §3 (issue 14)', () => {
  it('are each written by some change of a party’s inventory, so the type filters offer only types that occur', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_1');
    const unlimited = { partyId: party.id, maxWeight: null, maxSlots: null };
    const hero = await createCharacter(ctx, player, unlimited); // character_creation, container_creation
    const gmHero = await createCharacter(ctx, gm, unlimited);
    const bag = String(hero.primary_container_id);
    const [stash] = await ok<{ id: string }[]>('GET', `/parties/${party.id}/containers`, gm);
    const stashId = String(stash?.id);
    const rope = await createTemplate(ctx, { name: 'Rope', weight: 1, baseValue: 1, stackSize: 0 });
    const torchTemplate = await createTemplate(ctx, { name: 'Torch', weight: 1, baseValue: 1 });
    const gp = await coinTemplate(ctx, 'gp');
    const cp = await coinTemplate(ctx, 'cp');
    const add = (templateId: string, containerId: string, quantity: number) =>
      ok<{ id: string }[]>('POST', '/item_instances', player, {
        item_template_id: templateId,
        container_id: containerId,
        quantity,
      });
    const move = async (user: SignedInUser, id: string, from: string, to: string, quantity?: number) =>
      (
        await ok<{ target_instances: { id: string }[] }>('POST', '/containers/transfer', user, {
          item_instance_id: id,
          source_container_id: from,
          target_container_id: to,
          ...(quantity ? { quantity } : {}),
        })
      ).target_instances[0]?.id ?? '';

    // A person's own changes: item_creation, adjust, split, merge, item_destruction, currency_conversion.
    const [ropes] = await add(rope.id, bag, 10);
    const ropeId = String(ropes?.id);
    await ok('PATCH', `/item_instances/${ropeId}`, player, { item_instance: { quantity: 12 } });
    const [, part] = await ok<{ id: string }[]>('POST', `/item_instances/${ropeId}/split`, player, {
      quantity: 2,
    });
    await ok('POST', `/item_instances/${part?.id}/merge`, player, { target_instance_id: ropeId });
    const [torch] = await add(torchTemplate.id, bag, 1);
    await ok('DELETE', `/item_instances/${torch?.id}`, player);
    await add(cp.id, bag, 100);
    await ok('POST', `/containers/${bag}/convert_currency`, player, { from: 'cp', to: 'gp', quantity: 100 });

    // Moves: within a character, deposits and withdrawals, the GM's moves, and a gift.
    const pouch = await ok<{ id: string }>('POST', `/characters/${hero.id}/containers`, player, {
      container: { name: 'Pouch' },
    });
    const inPouch = await move(player, ropeId, bag, pouch.id, 1); // transfer
    const deposited = await move(player, inPouch, pouch.id, stashId); // party_deposit
    await move(player, deposited, stashId, bag); // party_withdraw
    const gmMoved = await move(gm, ropeId, bag, stashId, 1); // character_to_party_transfer
    await move(gm, gmMoved, stashId, bag, 1); // party_to_character_transfer
    await ok('POST', `/item_instances/${ropeId}/give`, player, { character_id: gmHero.id, quantity: 1 });
    await ok('DELETE', `/characters/${hero.id}/containers/${pouch.id}`, player); // container_deletion

    // A shop: its stock is created, bought from, sold to, and removed with it.
    const shopTemplate = await ok<{ id: string }>('POST', '/shop_templates', gm, {
      shop_template: { name: 'Corner Shop', visibility: 'private' },
    });
    await ok('POST', `/shop_templates/${shopTemplate.id}/add_item`, gm, {
      shop_item: { item_template_id: rope.id, quantity: 5 },
    });
    const shop = await ok<{ id: string; container: { item_instances: { id: string }[] } }>(
      'POST',
      '/shop_instances',
      gm,
      { shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id } },
    );
    await add(gp.id, bag, 10);
    await ok('POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: shop.container.item_instances[0]?.id,
        quantity: 1,
        buyer_character_id: hero.id,
        buyer_container_id: bag,
      },
    });
    await ok('POST', `/shop_instances/${shop.id}/sell`, player, {
      sell: { item_instance_id: ropeId, quantity: 1, seller_character_id: hero.id, source_container_id: bag },
    });
    await ok('DELETE', `/shop_instances/${shop.id}`, gm);

    // Loot: created with its deployment, taken from, and distributed.
    const lootTemplate = await createLootTemplate(ctx, gm, [{ item_template_id: rope.id, quantity: 4 }]);
    const loot = await deployLoot(ctx, gm, party.id, lootTemplate.id, { reveal: true });
    await ok('POST', `/loot_instances/${loot.id}/take`, player, {
      item_instance_id: loot.container.item_instances[0]?.id,
      target_container_id: bag,
      quantity: 1,
    });
    await ok('POST', `/loot_instances/${loot.id}/distribute`, gm, {
      distribute: { character_ids: [hero.id, gmHero.id], distribution_mode: 'even' },
    });

    // A character leaving with its gear.
    const extra = await createCharacter(ctx, player, unlimited);
    await ok('DELETE', `/characters/${extra.id}`, player);

    const written = await ctx.database.db
      .selectDistinct({ type: transactions.transactionType })
      .from(transactions)
      .where(eq(transactions.partyId, party.id));
    expect(written.map((row) => row.type).sort()).toEqual([...transactionTypes].sort());
  });
});
