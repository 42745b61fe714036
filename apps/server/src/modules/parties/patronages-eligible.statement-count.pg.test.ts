import type { EligibleMember } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
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

/** A party of `count` members on Hero's plan: one sponsored by the patron, the rest alternately paid. */
async function partyOf(count: number): Promise<{ patron: SignedInUser; partyId: string }> {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm);
  const patron = await createMember(ctx, party, 'player');
  await upgrade(ctx, patron, 'tier_3');
  const sponsored = await createMember(ctx, party, 'player');
  const granted = await callApi(ctx, 'POST', '/patronages', patron, {
    beneficiary_id: sponsored.user.id,
    party_id: party.id,
  });
  expect(granted.statusCode, granted.body).toBe(201);
  for (let index = 3; index < count; index++) {
    const member = await createMember(ctx, party, 'player');
    if (index % 2 === 0) await upgrade(ctx, member, 'tier_1');
  }
  return { patron, partyId: party.id };
}

describe('GET /patronages/eligible/:partyId statements', () => {
  it('are as many for a party of eight as for one of three', async () => {
    const counted = async ({ patron, partyId }: { patron: SignedInUser; partyId: string }) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', `/patronages/eligible/${partyId}`, patron),
      );
      const members = json<{ data: EligibleMember[] }>(result).data;
      return { statements, members };
    };
    const small = await counted(await partyOf(3));
    const large = await counted(await partyOf(8));
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
