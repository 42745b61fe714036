import type { EligibleMember } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { sponsoredParty } from '../../test/sponsored-party.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The Patronage panel of the party page asks whom its reader may sponsor: each member's plan and whether
 * someone sponsors them, in a fixed number of statements however many members there are (no plan and
 * grant lookup per member).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe('GET /patronages/eligible/:partyId statements', () => {
  it('are as many for a party of eight as for one of three', async () => {
    const counted = async ({ patron, partyId }: { patron: SignedInUser; partyId: string }) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', `/patronages/eligible/${partyId}`, patron),
      );
      const members = json<{ data: EligibleMember[] }>(result).data;
      return { statements, members };
    };
    const small = await counted(await sponsoredParty(ctx, 3, 'tier_3'));
    const large = await counted(await sponsoredParty(ctx, 8, 'tier_3'));
    // Every member but the caller, the sponsored one marked as the caller's grant.
    expect([small.members.length, large.members.length]).toEqual([2, 7]);
    for (const { members } of [small, large]) {
      expect(members.filter((m) => m.sponsored_by_you)).toHaveLength(1);
      expect(members.filter((m) => m.sponsored)).toHaveLength(1);
    }
    // Members on Adventurer may be raised to Hero or Legend; the GM on Free to any paid plan.
    expect(large.members.filter((m) => m.grantable_tiers.length === 2)).toHaveLength(2);
    expect(large.statements).toBe(small.statements);
  });
});
