import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharacter, createTemplate, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe("a container's pages", () => {
  it('cut one order whatever their size: stacks made together neither show twice nor go missing', async () => {
    const user = await createUser(ctx);
    const hero = await createCharacter(ctx, user, { maxWeight: null, maxSlots: null });
    // A hundred daggers that do not stack, made by one request: one name, one creation time.
    const dagger = await createTemplate(ctx, { name: 'Dagger', stackSize: 1, weight: 0 });
    const added = await callApi(ctx, 'POST', '/item_instances', user, {
      item_template_id: dagger.id,
      container_id: hero.primary_container_id,
      quantity: 100,
    });
    expect(added.statusCode, added.body).toBe(201);

    const idsIn = async (perPage: number) => {
      const ids: string[] = [];
      for (let page = 1; ids.length < 100; page++) {
        const response = await callApi(
          ctx,
          'GET',
          `/containers/${hero.primary_container_id}/items?page=${page}&per_page=${perPage}`,
          user,
        );
        const rows = (response.json() as { data: { id: string }[] }).data;
        if (rows.length === 0) break;
        ids.push(...rows.map((row) => row.id));
      }
      return ids;
    };
    const byTwenty = await idsIn(20);
    expect(new Set(byTwenty).size).toBe(100);
    for (const perPage of [7, 40, 100]) expect(await idsIn(perPage)).toEqual(byTwenty);
  });
});
