import type { ShopInstance, ShopTemplate } from '@haversack/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createParty, createTemplate, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { shopsRepository } from './shops.repository.js';

/**
 * Review "multiproc" finding 1, for shops: a change to a shop that was committed gets its success answer,
 * even when the shop is deleted between the commit and the answer (README "Changes made once": an answer
 * of 400 and above says nothing changed). The race made certain: the deletion, a real request, starts as
 * the change's events are published (after its commit), and the next read of the shop waits for it.
 */
let ctx: TestContext;
let gm: SignedInUser;
let partyId: string;
let shopTemplateId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  partyId = (await createParty(ctx, gm)).id;
  const sword = await createTemplate(ctx, { name: 'Shortsword', weight: 0, stackSize: 1 });
  const template = (
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Armoury' } })
  ).json().data as ShopTemplate;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: sword.id, quantity: 2, price_cp: 100 },
  });
  shopTemplateId = template.id;
});
afterAll(async () => ctx?.close());

async function deployShop(): Promise<ShopInstance> {
  const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: shopTemplateId, party_id: partyId },
  });
  expect(deployed.statusCode, deployed.body).toBe(201);
  return deployed.json().data as ShopInstance;
}

describe('a shop changed and then deleted before its answer', () => {
  it('answers 200 with the shop as the edit left it', async () => {
    const shop = await deployShop();
    let deleting: Promise<LightMyRequestResponse> | undefined;
    let waited = false;
    const events = ctx.app.services.events;
    const publish = events.publish.bind(events);
    const read = shopsRepository.instance.bind(shopsRepository);
    const published = vi.spyOn(events, 'publish').mockImplementation((batch) => {
      deleting ??= callApi(ctx, 'DELETE', `/shop_instances/${shop.id}`, gm);
      publish(batch);
    });
    const reads = vi.spyOn(shopsRepository, 'instance').mockImplementation(async (db, id) => {
      if (deleting && !waited && id === shop.id) {
        waited = true;
        await deleting;
      }
      return read(db, id);
    });
    try {
      const edited = await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
        shop_instance: { name: 'The Rusty Blade' },
      });
      expect(deleting).toBeDefined();
      expect((await deleting)?.statusCode).toBe(204);
      expect(edited.statusCode, edited.body).toBe(200);
      expect((edited.json().data as ShopInstance).name).toBe('The Rusty Blade');
    } finally {
      published.mockRestore();
      reads.mockRestore();
    }
    expect((await callApi(ctx, 'GET', `/shop_instances/${shop.id}`, gm)).statusCode).toBe(404);
  });
});
