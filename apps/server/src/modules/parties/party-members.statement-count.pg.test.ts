import type { PartyMember } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
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

/**
 * A party of `count` members, the GM included, with every case of the plan question: a member on a paid
 * plan who sponsors another, the sponsored one, and the rest alternately free and on a paid plan.
 */
async function partyOf(count: number): Promise<{ gm: SignedInUser; partyId: string }> {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm);
  const patron = await createMember(ctx, party, 'player');
  await upgrade(ctx, patron, 'tier_2');
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
  return { gm, partyId: party.id };
}

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
    const small = await counted(await partyOf(3));
    const large = await counted(await partyOf(8));
    expect([small.members, large.members]).toEqual([3, 8]);
    // The patron, the sponsored member, and in the large party the two members on a paid plan.
    expect([small.collaborating.length, large.collaborating.length]).toEqual([2, 4]);
    expect(large.statements).toBe(small.statements);
  });
});
