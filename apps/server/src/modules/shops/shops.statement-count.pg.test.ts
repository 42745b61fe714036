import type { ShopInstance, ShopTemplate, TradeResult } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * Issue 13 §2, "do the same for purchases": the statements a purchase and a sale send, counted on the
 * second of two as bench/README.md records them (15 each here: the coins and goods land on stacks that
 * exist), so that a change that adds one is seen.
 */
let ctx: TestContext;
let player: SignedInUser;
let heroId: string;
let bag: string;
let stashId: string;
let shopId: string;
let ropeStackId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  heroId = hero.id;
  bag = hero.primary_container_id ?? '';
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  stashId = stash?.id ?? '';
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const template = (
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Corner Shop' } })
  ).json().data as ShopTemplate;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: 50, price_cp: null },
  });
  const shop = (
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id, party_fund_allowed: true },
    })
  ).json().data as ShopInstance;
  shopId = shop.id;
  ropeStackId = shop.container.item_instances[0]?.id ?? '';
  const gold = await coinTemplate(ctx, 'gp');
  for (const container of [bag, stashId]) {
    await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: gold.id, container_id: container, quantity: 100 },
    );
  }
});
afterAll(async () => ctx.close());

const purchase = (extra: Record<string, unknown> = {}) =>
  callApi(ctx, 'POST', `/shop_instances/${shopId}/purchase`, player, {
    purchase: {
      item_instance_id: ropeStackId,
      quantity: 1,
      buyer_character_id: heroId,
      buyer_container_id: bag,
      ...extra,
    },
  });

describe('the statements of a trade', () => {
  it('sends at most 15 statements for a purchase paid by the buyer', async () => {
    const { statements } = await statementsOfSecondRequest(() => purchase());
    expect(statements).toBeLessThanOrEqual(15);
  });

  it('sends at most 15 statements for a purchase paid from the party stash', async () => {
    const { statements } = await statementsOfSecondRequest(() =>
      purchase({ payment_source: 'party', payer_container_id: stashId }),
    );
    expect(statements).toBeLessThanOrEqual(15);
  });

  it('sends at most 15 statements for a sale', async () => {
    const bought = (await purchase({ quantity: 2 })).json().data as TradeResult;
    const rope = bought.item_instances[0];
    const { statements } = await statementsOfSecondRequest(() =>
      callApi(ctx, 'POST', `/shop_instances/${shopId}/sell`, player, {
        sell: {
          item_instance_id: rope?.id,
          quantity: 1,
          seller_character_id: heroId,
          seller_container_id: bag,
        },
      }),
    );
    expect(statements).toBeLessThanOrEqual(15);
  });
});
