import type { ShopTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParty, createTemplate, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { countStatements } from '../../test/statement-counter.js';

/**
 * Review "bigdata" finding 7: deploying a shop from a 100-line template took about 0.6 s, its 500 stacks
 * and 100 ledger rows written one statement at a time. The stock goes in multi-row inserts, so a template
 * of twelve lines deploys in as many statements as one of two (every ledger row still written).
 */
let ctx: TestContext;
let gm: SignedInUser;
let partyId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  partyId = (await createParty(ctx, gm, { encumbrance_style: 'none' })).id;
});
afterAll(async () => ctx.close());

async function templateOf(lines: number): Promise<string> {
  const template = (
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: `Bazaar of ${lines}` } })
  ).json().data as ShopTemplate;
  for (let line = 0; line < lines; line++) {
    // Three stacks a line: a lantern does not stack.
    const lantern = await createTemplate(ctx, { name: `Lantern ${lines}-${line}`, stackSize: 1 });
    const added = await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: lantern.id, quantity: 3, price_cp: null },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  return template.id;
}

const deploy = (templateId: string) =>
  callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: templateId, party_id: partyId },
  });

async function statementsOfDeploying(templateId: string) {
  // The first warms what every later deploy finds ready (the remembered session).
  expect((await deploy(templateId)).statusCode).toBe(201);
  const { result, statements } = await countStatements(() => deploy(templateId));
  expect(result.statusCode, result.body).toBe(201);
  const shop = result.json().data as { container: { item_instances: unknown[] } };
  return { statements, stacks: shop.container.item_instances.length };
}

describe('deploying a shop', () => {
  it('sends as many statements for a template of twelve lines as for one of two', async () => {
    const small = await statementsOfDeploying(await templateOf(2));
    const large = await statementsOfDeploying(await templateOf(12));
    expect([small.stacks, large.stacks]).toEqual([6, 36]);
    expect(large.statements).toBe(small.statements);
  });
});
