import { inventoryMessages } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharacter, createTemplate, createUser, type SignedInUser } from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

// An edit form's quantity was typed over the number the stack held when the form opened; a move that
// merged into the stack meanwhile must not be undone by saving it (review of a live session, finding 1).

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** A potion in the backpack and another in a pouch, ready to be moved onto it. */
async function twoPotions() {
  const player = await createUser(ctx);
  const character = await createCharacter(ctx, player);
  const backpack = String(character.primary_container_id);
  const pouch = String(
    body(
      await call('POST', `/characters/${character.id}/containers`, player, { container: { name: 'Pouch' } }),
    ).data.id,
  );
  const potion = await createTemplate(ctx, { name: 'Potion of Healing', weight: 0.5, stackSize: 10 });
  const add = async (containerId: string) =>
    String(
      body(
        await call('POST', '/item_instances', player, {
          item_template_id: potion.id,
          container_id: containerId,
          quantity: 1,
        }),
      ).data[0]?.id,
    );
  const stackId = await add(backpack);
  const arrivingId = await add(pouch);
  const moveOnto = () =>
    call('POST', '/containers/transfer', player, {
      item_instance_id: arrivingId,
      source_container_id: pouch,
      target_container_id: backpack,
      quantity: 1,
    });
  const quantityOf = async () =>
    Number(body(await call('GET', `/item_instances/${stackId}`, player)).data.quantity);
  const potionsInBackpack = async () =>
    body(await call('GET', `/containers/${backpack}/items?per_page=100`, player)).data.reduce(
      (sum, item) => sum + Number(item.quantity),
      0,
    );
  return { player, stackId, moveOnto, quantityOf, potionsInBackpack };
}

describe('PATCH item_instances/{id} with expected_quantity', () => {
  it('refuses a quantity typed over a number the stack no longer holds, changing nothing', async () => {
    const { player, stackId, moveOnto, quantityOf } = await twoPotions();
    expect((await moveOnto()).statusCode).toBe(200);
    const stale = await call('PATCH', `/item_instances/${stackId}`, player, {
      item_instance: { name: 'Potion of Healing (from Brom)', quantity: 1, expected_quantity: 1 },
    });
    expect(stale.statusCode).toBe(409);
    const message = inventoryMessages.stackChanged('Potion of Healing', 2);
    expect(body(stale).error).toMatchObject({
      code: 'CONFLICT',
      message,
      details: [{ field: 'item_instance.quantity', message }],
    });
    const after = body(await call('GET', `/item_instances/${stackId}`, player)).data;
    expect(after).toMatchObject({ quantity: 2, name: 'Potion of Healing' });

    // Typed over what it holds now, it applies; left out, the quantity replaces whatever is there.
    const fresh = await call('PATCH', `/item_instances/${stackId}`, player, {
      item_instance: { quantity: 3, expected_quantity: 2 },
    });
    expect([fresh.statusCode, body(fresh).data.quantity]).toEqual([200, 3]);
    await call('PATCH', `/item_instances/${stackId}`, player, { item_instance: { quantity: 4 } });
    expect(await quantityOf()).toBe(4);
  });

  it('loses no potion when a rename with its quantity races a move onto the stack', async () => {
    for (let round = 0; round < 4; round++) {
      const { player, stackId, moveOnto, quantityOf, potionsInBackpack } = await twoPotions();
      const [edit, move] = await Promise.all([
        call('PATCH', `/item_instances/${stackId}`, player, {
          item_instance: { name: 'Renamed', quantity: 3, expected_quantity: 1 },
        }),
        moveOnto(),
      ]);
      expect(move.statusCode).toBe(200);
      // Edit first: 1 → 3 renamed, and the arriving potion, no longer alike, stacks beside it: 4 in all.
      // Move first: the edit is refused and the stack holds both potions.
      if (edit.statusCode === 200) expect(await potionsInBackpack()).toBe(4);
      else {
        expect(edit.statusCode).toBe(409);
        expect(await quantityOf()).toBe(2);
      }
    }
  });
});
