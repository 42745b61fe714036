import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { countStatements, statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The paths that decide who may act on a party's containers read "has a character in this party" with
 * the rest of what they read, sending no statement of their own for it (the create sent 12 statements
 * when the party, the role and the character were three reads; a list of a party's containers 6 when
 * roles and characters were two more after the containers). Counted so that one that comes back is seen.
 */
let ctx: TestContext;
let player: SignedInUser;
let partyId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  partyId = party.id;
  player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  await createCharacter(ctx, player, { partyId });
});
afterAll(async () => ctx?.close());

describe('the statements of the paths that ask who may act on a party’s containers', () => {
  it('creates a party container in at most 10 statements', async () => {
    const create = () =>
      callApi(ctx, 'POST', `/parties/${partyId}/containers`, player, { container: { name: 'Chest' } });
    const first = await create();
    expect(first.statusCode, first.body).toBe(201);
    const { result, statements } = await countStatements(create);
    expect(result.statusCode, result.body).toBe(201);
    expect(statements).toBeLessThanOrEqual(10);
  });

  it('lists a party’s containers in at most 4 statements', async () => {
    const { statements } = await statementsOfSecondRequest(() =>
      callApi(ctx, 'GET', `/parties/${partyId}/containers`, player),
    );
    expect(statements).toBeLessThanOrEqual(4);
  });
});
