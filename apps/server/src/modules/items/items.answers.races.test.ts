import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRacedAfterCommit } from '../../test/after-commit.js';
import { createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { itemsRepository } from './items.repository.js';

/**
 * A change's success answer is its own change, whatever another request does after its commit (README,
 * "Changes made once": an answer of 400 and above says nothing changed).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx?.close());

type Answer = { data: { id: string; name: string } };

async function author() {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_3');
  const made = await callApi(ctx, 'POST', '/item_templates', user, { item_template: { name: 'Rope' } });
  expect(made.statusCode, made.body).toBe(201);
  return { user, template: (made.json() as Answer).data };
}

describe('an item template change is answered from its own transaction', () => {
  it('answers an edit with its own name when another edit lands right after its commit', async () => {
    const { user, template } = await author();
    const edited = await changeRacedAfterCommit(
      ctx,
      itemsRepository,
      'view',
      (id) => id === template.id,
      () =>
        callApi(ctx, 'PATCH', `/item_templates/${template.id}`, user, { item_template: { name: 'Chain' } }),
      () =>
        callApi(ctx, 'PATCH', `/item_templates/${template.id}`, user, {
          item_template: { name: 'Silk Rope' },
        }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as Answer).data.name).toBe('Silk Rope');
  });

  it('answers 201 to a creation and to a copy whose template is deleted right after the commit', async () => {
    const { user, template } = await author();
    const removeIt = (id: string) => callApi(ctx, 'DELETE', `/item_templates/${id}`, user);
    const created = await changeRacedAfterCommit(
      ctx,
      itemsRepository,
      'view',
      () => true,
      removeIt,
      () => callApi(ctx, 'POST', '/item_templates', user, { item_template: { name: 'Lantern' } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as Answer).data.name).toBe('Lantern');
    const copied = await changeRacedAfterCommit(
      ctx,
      itemsRepository,
      'view',
      (id) => id !== template.id,
      removeIt,
      () => callApi(ctx, 'POST', `/item_templates/${template.id}/duplicate`, user),
    );
    expect(copied.statusCode, copied.body).toBe(201);
    expect((copied.json() as Answer).data.name).toMatch(/^Rope/);
  });
});
