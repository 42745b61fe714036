import { expect } from 'vitest';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from './factories.js';
import { callApi, type TestContext } from './helper.js';

/**
 * A party of `count` members, the GM included, with every case of the plan question: a member on
 * `patronTier` who sponsors another, the sponsored one, and the rest alternately free and on a paid plan.
 */
export async function sponsoredParty(
  ctx: TestContext,
  count: number,
  patronTier: 'tier_2' | 'tier_3',
): Promise<{ gm: SignedInUser; patron: SignedInUser; partyId: string }> {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm);
  const patron = await createMember(ctx, party, 'player');
  await upgrade(ctx, patron, patronTier);
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
  return { gm, patron, partyId: party.id };
}
