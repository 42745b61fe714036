import type { ShopTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The reviewer's year of play (100 shops of 500 stacks: 31 MB and 13 s, the server stalled for everyone):
 * the list of shops reads them in a fixed number of statements however many there are, never a few
 * per shop, for the GM and for a player (whose pending requests are counted apart).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function partyWithShops(count: number): Promise<{ gm: SignedInUser; player: SignedInUser }> {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
  const lamp = await createTemplate(ctx, { name: 'Lamp', stackSize: 1 });
  const template = json<{ data: ShopTemplate }>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Corner Shop' } }),
  ).data;
  for (const [item, quantity] of [
    [rope, 5],
    [lamp, 3],
  ] as const) {
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: item.id, quantity, price_cp: 20 },
    });
  }
  // The shops lie in two parties, as a GM's do after a year.
  const parties = [await createParty(ctx, gm), await createParty(ctx, gm)];
  const player = await createMember(ctx, parties[0] as (typeof parties)[0], 'player');
  await createCharacter(ctx, player, { partyId: parties[0]?.id });
  for (let index = 0; index < count; index++) {
    const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: parties[index % 2]?.id },
    });
    expect(deployed.statusCode, deployed.body).toBe(201);
  }
  return { gm, player };
}

type ListBody = { data: { instances: { items_count: number; container: object }[] } };

describe('GET /shop_instances statements', () => {
  it('are as many for ten shops as for two, for the GM and for a player', async () => {
    const small = await partyWithShops(2);
    const large = await partyWithShops(10);
    const counted = async (user: SignedInUser) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', '/shop_instances?per_page=100', user),
      );
      return { statements, shops: json<ListBody>(result).data.instances };
    };
    const gmSmall = await counted(small.gm);
    const gmLarge = await counted(large.gm);
    expect([gmSmall.shops.length, gmLarge.shops.length]).toEqual([2, 10]);
    expect(gmLarge.shops.every((shop) => shop.items_count === 2)).toBe(true);
    expect(gmLarge.statements).toBe(gmSmall.statements);
    const playerSmall = await counted(small.player);
    const playerLarge = await counted(large.player);
    expect([playerSmall.shops.length, playerLarge.shops.length]).toEqual([1, 5]);
    expect(playerLarge.statements).toBe(playerSmall.statements);
  });
});
