import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRacedAfterCommit } from '../../test/after-commit.js';
import { createParty, createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { partiesRepository } from './parties.repository.js';

/**
 * A change's success answer is its own change, whatever another request does after its commit (README,
 * "Changes made once": an answer of 400 and above says nothing changed).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx?.close());

type Answer = { data: { id: string; name: string; join_code: string | null } };

async function gameMaster() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  return gm;
}

describe('a party change is answered from its own transaction', () => {
  it('answers a rename with its own name when another rename lands right after its commit', async () => {
    const gm = await gameMaster();
    const party = await createParty(ctx, gm, { name: 'The Fellowship' });
    const renamed = await changeRacedAfterCommit(
      ctx,
      partiesRepository,
      'findParty',
      (id) => id === party.id,
      () => callApi(ctx, 'PATCH', `/parties/${party.id}`, gm, { party: { name: 'The Company' } }),
      () => callApi(ctx, 'PATCH', `/parties/${party.id}`, gm, { party: { name: 'The Nine Walkers' } }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json() as Answer).data.name).toBe('The Nine Walkers');
  });

  it('answers a new join code with that code when another lands right after its commit', async () => {
    const gm = await gameMaster();
    const party = await createParty(ctx, gm);
    const regenerate = () => callApi(ctx, 'POST', `/parties/${party.id}/regenerate_join_code`, gm);
    let other = '';
    const regenerated = await changeRacedAfterCommit(
      ctx,
      partiesRepository,
      'findParty',
      (id) => id === party.id,
      async () => {
        other = String(((await regenerate()).json() as Answer).data.join_code);
      },
      regenerate,
    );
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    const code = (regenerated.json() as Answer).data.join_code;
    expect(code).not.toBe(party.join_code);
    expect(code).not.toBe(other);
  });

  it('answers 201 and 200 to a creation and a join whose party is renamed or left right after the commit', async () => {
    const gm = await gameMaster();
    const created = await changeRacedAfterCommit(
      ctx,
      partiesRepository,
      'findParty',
      () => true,
      (id) => callApi(ctx, 'PATCH', `/parties/${id}`, gm, { party: { name: 'Renamed at once' } }),
      () => callApi(ctx, 'POST', '/parties', gm, { party: { name: 'The Fellowship' } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as Answer).data.name).toBe('The Fellowship');
    const party = await createParty(ctx, gm, { join_permission: 'full' });
    const player = await createUser(ctx);
    const joined = await changeRacedAfterCommit(
      ctx,
      partiesRepository,
      'findParty',
      (id) => id === party.id,
      () => callApi(ctx, 'POST', `/parties/${party.id}/leave`, player),
      () =>
        callApi(ctx, 'POST', '/parties/join', player, { join_code: party.join_code, role_request: 'player' }),
    );
    expect(joined.statusCode, joined.body).toBe(200);
    expect((joined.json() as Answer).data.id).toBe(party.id);
  });
});
