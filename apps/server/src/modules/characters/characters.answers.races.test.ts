import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRacedAfterCommit } from '../../test/after-commit.js';
import { createCharacter, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { charactersRepository } from './characters.repository.js';

/**
 * A change's success answer is its own change, whatever another request does after its commit (README,
 * "Changes made once": an answer of 400 and above says nothing changed).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx?.close());

describe('a character change is answered from its own transaction', () => {
  it('answers a rename with its own name when another rename lands right after its commit', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player, { name: 'Pip' });
    const renamed = await changeRacedAfterCommit(
      ctx,
      charactersRepository,
      'view',
      (id) => id === hero.id,
      () => callApi(ctx, 'PATCH', `/characters/${hero.id}`, player, { character: { name: 'Brom' } }),
      () => callApi(ctx, 'PATCH', `/characters/${hero.id}`, player, { character: { name: 'Pippin' } }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json() as { data: { name: string } }).data.name).toBe('Pippin');
  });

  it('answers 201 to a creation whose character is deleted right after the commit', async () => {
    const player = await createUser(ctx);
    const created = await changeRacedAfterCommit(
      ctx,
      charactersRepository,
      'view',
      () => true,
      (id) => callApi(ctx, 'DELETE', `/characters/${id}`, player),
      () => callApi(ctx, 'POST', '/characters', player, { character: { name: 'Mira' } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as { data: { name: string } }).data.name).toBe('Mira');
  });
});
