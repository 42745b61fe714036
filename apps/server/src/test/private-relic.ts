import type { ItemTemplate } from '@haversack/contracts';
import { expect } from 'vitest';
import { createTemplate, createUser, type SignedInUser, upgrade } from './factories.js';
import { callApi, json, type TestContext } from './helper.js';

/** The data of a success envelope. */
export const envelopeData = <T>(response: Parameters<typeof json>[0]) => json<{ data: T }>(response).data;

export async function paidUser(ctx: TestContext): Promise<SignedInUser> {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_1');
  return user;
}

/**
 * A paying GM's own "Relic of Whispers" (3 lb, 75 gp, rare; private or not) and a public Rope (1 gp): the
 * lines of the templates that test who may see a private item template (docs/decisions.md).
 */
export async function gmWithRelicAndRope(ctx: TestContext, relicVisibility: 'private' | 'public') {
  const gm = await paidUser(ctx);
  const created = await callApi(ctx, 'POST', '/item_templates', gm, {
    item_template: {
      name: 'Relic of Whispers',
      description: 'Sealed words v1',
      weight: 3,
      base_value: 75,
      visibility: relicVisibility,
      metadata: { rarity: 'rare' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const relic = envelopeData<ItemTemplate>(created);
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp' });
  return { gm, relic, rope };
}
