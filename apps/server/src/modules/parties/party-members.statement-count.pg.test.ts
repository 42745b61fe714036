import type { PartyMember } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { sponsoredParty } from '../../test/sponsored-party.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The GM's member list tells who can use the party stash (each member's plan in the party, own or
 * sponsored) in a fixed number of statements, however many members there are: no plan lookup per member.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe('GET /parties/:id/members statements', () => {
  it('are as many for the GM of a party of eight as for one of three', async () => {
    const counted = async ({ gm, partyId }: { gm: SignedInUser; partyId: string }) => {
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', `/parties/${partyId}/members`, gm),
      );
      const members = json<{ data: PartyMember[] }>(result).data;
      return {
        statements,
        members: members.length,
        collaborating: members.filter((m) => m.party_collaboration),
      };
    };
    const small = await counted(await sponsoredParty(ctx, 3, 'tier_2'));
    const large = await counted(await sponsoredParty(ctx, 8, 'tier_2'));
    expect([small.members, large.members]).toEqual([3, 8]);
    // The patron, the sponsored member, and in the large party the two members on a paid plan.
    expect([small.collaborating.length, large.collaborating.length]).toEqual([2, 4]);
    expect(large.statements).toBe(small.statements);
  });
});
