import type { LootInstance } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * Issue 13 §2, "do the same for takes": the statements a take from revealed loot sends, counted on the
 * second of two as bench/README.md records them (12), so that a change that adds one is seen.
 */
let ctx: TestContext;
let player: SignedInUser;
let bag: string;
let loot: LootInstance;

beforeAll(async () => {
  ctx = await buildTestApp();
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  bag = hero.primary_container_id ?? '';
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const template = await createLootTemplate(ctx, gm, [{ item_template_id: rope.id, quantity: 10 }]);
  loot = await deployLoot(ctx, gm, party.id, template.id, { reveal: true });
});
afterAll(async () => ctx.close());

describe('the statements of a take', () => {
  it('sends at most 12 statements for a take onto a stack the taker holds', async () => {
    const stack = loot.container.item_instances[0];
    const take = () =>
      callApi(ctx, 'POST', `/loot_instances/${loot.id}/take`, player, {
        item_instance_id: stack?.id,
        target_container_id: bag,
        quantity: 1,
      });
    const { statements } = await statementsOfSecondRequest(take);
    expect(statements).toBeLessThanOrEqual(12);
  });
});
