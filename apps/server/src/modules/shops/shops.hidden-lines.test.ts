import type { ShopItem, ShopTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type json, type TestContext } from '../../test/helper.js';
import { envelopeData, gmWithRelicAndRope, paidUser as paidUserOf } from '../../test/private-relic.js';

// Private item templates exist only for their creator (docs/decisions.md): a shop template that lists one
// must not show its fields to anyone else, nor pass the line on in their copies.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const data = envelopeData;
const paidUser = () => paidUserOf(ctx);

/** A GM's public shop template stocking rope (public) and a relic of their own, private or not. */
async function publicShopWithRelic(relicVisibility: 'private' | 'public') {
  const { gm, relic, rope } = await gmWithRelicAndRope(ctx, relicVisibility);
  const shop = data<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, {
      shop_template: { name: 'Curio Stall', visibility: 'public' },
    }),
  );
  for (const [item, quantity, price] of [
    [relic.id, 1, 9_000],
    [rope.id, 5, null],
  ] as const) {
    const added = await callApi(ctx, 'POST', `/shop_templates/${shop.id}/add_item`, gm, {
      shop_item: { item_template_id: item, quantity, price_cp: price },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  return { gm, relic, rope, shop };
}

const lineOf = (items: readonly ShopItem[], itemTemplateId: string) =>
  items.find((line) => line.item_template_id === itemTemplateId);

describe('a shop template line whose item is private to someone else', () => {
  it('shows an outsider no field of the item and no price, in every read of the template', async () => {
    const { gm, relic, rope, shop } = await publicShopWithRelic('private');
    const outsider = await createUser(ctx);
    expect((await callApi(ctx, 'GET', `/item_templates/${relic.id}`, outsider)).statusCode).toBe(404);

    const reads = [
      await callApi(ctx, 'GET', `/shop_templates/${shop.id}/items`, outsider),
      await callApi(ctx, 'GET', `/shop_templates/${shop.id}`, outsider),
      await callApi(ctx, 'GET', `/shop_templates/${shop.id}/restock_status`, outsider),
      await callApi(
        ctx,
        'GET',
        `/shop_templates?visibility=public&include=shop_items&search=Curio&per_page=100`,
        outsider,
      ),
    ];
    for (const read of reads) {
      expect(read.statusCode, read.body).toBe(200);
      expect(read.body).not.toContain('Relic of Whispers');
      expect(read.body).not.toContain('Sealed words');
    }
    const items = data<ShopItem[]>(reads[0] as Parameters<typeof json>[0]);
    expect(lineOf(items, relic.id)).toMatchObject({
      item_template_id: relic.id,
      item_template: null,
      quantity: 1,
      buy_price_cp: null,
      sell_price_cp: null,
      available: false,
    });
    expect(lineOf(items, rope.id)).toMatchObject({ item_template: { name: 'Rope' }, available: true });
    // Last, not where its name would sort it ("Relic" before "Rope"): its place would hint at the name.
    expect(items.map((line) => line.item_template_id)).toEqual([rope.id, relic.id]);
    const status = data<{ items: { item_template_id: string; name: string | null }[] }>(
      reads[2] as Parameters<typeof json>[0],
    );
    expect(status.items.find((line) => line.item_template_id === relic.id)?.name).toBeNull();

    // Its author reads it in full.
    const own = data<ShopItem[]>(await callApi(ctx, 'GET', `/shop_templates/${shop.id}/items`, gm));
    expect(lineOf(own, relic.id)).toMatchObject({
      item_template: { name: 'Relic of Whispers', description: 'Sealed words v1' },
      available: true,
    });
  });

  it('is left out of an outsider’s clone, and kept in its author’s', async () => {
    const { gm, relic, rope, shop } = await publicShopWithRelic('private');
    const outsider = await paidUser();
    const cloned = await callApi(ctx, 'POST', `/shop_templates/${shop.id}/clone`, outsider);
    expect(cloned.statusCode, cloned.body).toBe(201);
    const copy = data<ShopTemplate>(cloned);
    expect((copy.shop_items ?? []).map((line) => line.item_template_id)).toEqual([rope.id]);
    expect(copy.items_count).toBe(1);

    const own = data<ShopTemplate>(await callApi(ctx, 'POST', `/shop_templates/${shop.id}/clone`, gm));
    expect((own.shop_items ?? []).map((line) => line.item_template_id).sort()).toEqual(
      [relic.id, rope.id].sort(),
    );
  });

  it('hides an item made private after it was copied, with its new words', async () => {
    const { gm, relic, shop } = await publicShopWithRelic('public');
    const outsider = await paidUser();
    const copy = data<ShopTemplate>(await callApi(ctx, 'POST', `/shop_templates/${shop.id}/clone`, outsider));
    expect(lineOf(copy.shop_items ?? [], relic.id)?.item_template?.name).toBe('Relic of Whispers');

    const hidden = await callApi(ctx, 'PUT', `/item_templates/${relic.id}`, gm, {
      item_template: { visibility: 'private', name: 'Relic of the Traitor King', description: 'v2 secrets' },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const read = await callApi(ctx, 'GET', `/shop_templates/${copy.id}/items`, outsider);
    expect(read.body).not.toContain('Traitor King');
    expect(read.body).not.toContain('v2 secrets');
    expect(lineOf(data<ShopItem[]>(read), relic.id)).toMatchObject({ item_template: null, available: false });
  });
});
