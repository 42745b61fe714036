import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinTemplate, createCharacter, createTemplate, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

// A container's worth in whole gp (spec/02 §3) read "0 gp" for a stash of 9 sp and a few 7 cp trinkets: the
// screens say small change as such (docs/decisions.md "Small change is shown as such"), so the container
// answers its worth in copper too.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe("a container's worth", () => {
  it('is answered to the copper beside the whole gp', async () => {
    const player = await createUser(ctx);
    const character = await createCharacter(ctx, player);
    const container = String(character.primary_container_id);
    const silver = await coinTemplate(ctx, 'sp');
    const trinket = await createTemplate(ctx, {
      name: 'Trinket',
      baseValue: 7,
      currency: 'cp',
      stackSize: 0,
    });
    for (const [template, quantity] of [
      [silver.id, 9],
      [trinket.id, 3],
    ] as const) {
      const added = await callApi(ctx, 'POST', '/item_instances', player, {
        item_template_id: template,
        container_id: container,
        quantity,
      });
      expect(added.statusCode).toBe(201);
    }
    const one = (await callApi(ctx, 'GET', `/containers/${container}`, player)).json() as {
      data: { total_value_cp: number; total_value_gp: number };
    };
    expect(one.data).toMatchObject({ total_value_cp: 111, total_value_gp: 1 });
    const listed = (await callApi(ctx, 'GET', `/characters/${character.id}/containers`, player)).json() as {
      data: { id: string; total_value_cp: number }[];
    };
    expect(listed.data.find((c) => c.id === container)?.total_value_cp).toBe(111);
  });
});
