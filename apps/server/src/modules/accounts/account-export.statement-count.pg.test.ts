import type { ShopTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The export reads the parties a GM runs (their stash, shops and loot) in a fixed number of statements,
 * however many parties, containers and stacks there are: no query per party.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function gmWithParties(count: number): Promise<SignedInUser> {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const actor = { id: gm.user.id, username: gm.user.username };
  const gold = await coinTemplate(ctx, 'gp');
  const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
  const shopTemplate = json<{ data: ShopTemplate }>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Corner Shop' } }),
  ).data;
  await callApi(ctx, 'POST', `/shop_templates/${shopTemplate.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: 5, price_cp: 20 },
  });
  const hoard = await createLootTemplate(ctx, gm, [{ currency: 'gp', quantity: 10 }]);
  for (let index = 0; index < count; index++) {
    const party = await createParty(ctx, gm);
    const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
    await ctx.app.services.inventory.createInstance(actor, {
      item_template_id: gold.id,
      container_id: String(stash?.id),
      quantity: 100,
    });
    const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id },
    });
    expect(deployed.statusCode, deployed.body).toBe(201);
    await ctx.app.services.loot.deploy(actor, { loot_template_id: hoard.id, party_id: party.id });
    await createCharacter(ctx, gm, { partyId: party.id });
  }
  return gm;
}

describe('GET /users/me/export statements', () => {
  it('are as many for a GM of three parties as for a GM of one', async () => {
    const one = await gmWithParties(1);
    const three = await gmWithParties(3);
    const counted = async (user: SignedInUser) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', '/users/me/export', user),
      );
      const parties = json<{ data: { parties: { details: { shops: unknown[] } | null }[] } }>(result).data
        .parties;
      return { statements, shops: parties.flatMap((party) => party.details?.shops ?? []).length };
    };
    const small = await counted(one);
    const large = await counted(three);
    expect([small.shops, large.shops]).toEqual([1, 3]);
    expect(large.statements).toBe(small.statements);
  });
});
