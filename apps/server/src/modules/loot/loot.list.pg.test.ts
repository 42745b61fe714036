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
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The reviewer's year of play (200 loot piles in a party: 3.1 MB and up to 6 s for 100 of them): a party's
 * loot list reads a page in a fixed number of statements however many piles it holds, never a few per pile.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function partyWithLoot(count: number) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const player = await createMember(ctx, party, 'player');
  await createCharacter(ctx, player, { partyId: party.id });
  const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
  const template = await createLootTemplate(ctx, gm, [
    { item_template_id: rope.id, quantity: 3 },
    { currency: 'gp', quantity: 10 },
  ]);
  for (let index = 0; index < count; index++) {
    // Every other pile revealed: the player sees those only.
    await deployLoot(ctx, gm, party.id, template.id, { reveal: index % 2 === 0 });
  }
  return { gm, player, party };
}

type ListBody = { data: { item_units: number; coin_units: number; container: object }[] };

describe('GET /parties/{id}/loot_instances statements', () => {
  it('are as many for ten piles as for two, for the GM and for a player', async () => {
    const small = await partyWithLoot(2);
    const large = await partyWithLoot(10);
    const counted = async (user: SignedInUser, partyId: string) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', `/parties/${partyId}/loot_instances?per_page=100`, user),
      );
      return { statements, loot: json<ListBody>(result).data };
    };
    const gmSmall = await counted(small.gm, small.party.id);
    const gmLarge = await counted(large.gm, large.party.id);
    expect([gmSmall.loot.length, gmLarge.loot.length]).toEqual([2, 10]);
    expect(gmLarge.statements).toBe(gmSmall.statements);
    const playerSmall = await counted(small.player, small.party.id);
    const playerLarge = await counted(large.player, large.party.id);
    expect([playerSmall.loot.length, playerLarge.loot.length]).toEqual([1, 5]);
    expect(playerLarge.statements).toBe(playerSmall.statements);
  });
});
