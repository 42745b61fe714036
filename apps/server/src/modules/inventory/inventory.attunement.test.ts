import { inventoryMessages } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharacter, createTemplate, createUser, type SignedInUser } from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Stack {
  id: string;
  quantity: number;
  instance_data: Record<string, unknown>;
}
interface Body {
  data: Stack & Stack[];
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

async function heroWithBackpack() {
  const player = await createUser(ctx);
  const character = await createCharacter(ctx, player);
  return { player, character, backpack: String(character.primary_container_id) };
}

/** Adds one item of a new template to the container and returns the stack's id. */
async function addItem(
  user: SignedInUser,
  containerId: string,
  template: { metadata?: Record<string, unknown>; tags?: string[]; stackSize?: number },
  quantity = 1,
) {
  const made = await createTemplate(ctx, template);
  const response = await call('POST', '/item_instances', user, {
    item_template_id: made.id,
    container_id: containerId,
    quantity,
  });
  expect(response.statusCode).toBe(201);
  return { id: String(body(response).data[0]?.id), templateId: made.id };
}

const ring = { metadata: { rarity: 'rare', requires_attunement: true }, tags: ['magic', 'attunement'] };
const attune = (user: SignedInUser, id: string, value = true) =>
  call('PATCH', `/item_instances/${id}`, user, { item_instance: { instance_data: { is_attuned: value } } });

async function attunedIn(user: SignedInUser, containerId: string): Promise<number> {
  const response = await call('GET', `/containers/${containerId}/items?per_page=100`, user);
  return body(response)
    .data.filter((s) => s.instance_data.is_attuned === true)
    .reduce((sum, s) => sum + s.quantity, 0);
}

function expectAttunementRefused(response: { statusCode: number; json(): unknown }, message: string) {
  expect(response.statusCode).toBe(422);
  expect(body(response).error).toMatchObject({ code: 'VALIDATION_ERROR', message });
  expect(body(response).error.details).toEqual([
    { field: 'item_instance.instance_data.is_attuned', message },
  ]);
}

describe('attunement (issue 12 §5, SRD: at most three items)', () => {
  it('attunes to three items, refuses the fourth with a clear message, and allows it once one ends', async () => {
    const { player, character, backpack } = await heroWithBackpack();
    const items = [];
    for (let i = 0; i < 4; i += 1) items.push(await addItem(player, backpack, ring));
    for (const item of items.slice(0, 3)) {
      const response = await attune(player, item.id);
      expect(response.statusCode).toBe(200);
      expect(body(response).data.instance_data.is_attuned).toBe(true);
    }
    const fourth = items[3];
    if (!fourth) throw new Error('no fourth ring');
    expectAttunementRefused(await attune(player, fourth.id), inventoryMessages.attunementLimit);
    expect(await attunedIn(player, backpack)).toBe(3);

    // Attunement counts over every container of the character, not only the one the item is in.
    const pouch = await call('POST', `/characters/${character.id}/containers`, player, {
      container: { name: 'Pouch' },
    });
    const pouchRing = await addItem(player, String(body(pouch).data.id), ring);
    expectAttunementRefused(await attune(player, pouchRing.id), inventoryMessages.attunementLimit);

    const first = items[0];
    if (!first) throw new Error('no first ring');
    expect((await attune(player, first.id, false)).statusCode).toBe(200);
    expect((await attune(player, fourth.id)).statusCode).toBe(200);
    expect(await attunedIn(player, backpack)).toBe(3);
  });

  it('counts a stack of n attuned items as n, also when an attuned stack grows', async () => {
    const { player, backpack } = await heroWithBackpack();
    const pair = await addItem(player, backpack, { ...ring, stackSize: 5 }, 2);
    expect((await attune(player, pair.id)).statusCode).toBe(200);
    const single = await addItem(player, backpack, ring);
    expect((await attune(player, single.id)).statusCode).toBe(200);
    const grow = await call('PATCH', `/item_instances/${pair.id}`, player, {
      item_instance: { quantity: 3 },
    });
    expectAttunementRefused(grow, inventoryMessages.attunementLimit);
    expect(await attunedIn(player, backpack)).toBe(3);

    // A third ring of the attuned pair's kind arrives as its own stack, not attuned.
    const added = await call('POST', '/item_instances', player, {
      item_template_id: pair.templateId,
      container_id: backpack,
      quantity: 1,
    });
    expect(body(added).data[0]?.id).not.toBe(pair.id);
    expect(await attunedIn(player, backpack)).toBe(3);
  });

  it('lets an attuned stack grow up to the limit, counting itself once', async () => {
    const { player, backpack } = await heroWithBackpack();
    const pair = await addItem(player, backpack, { ...ring, stackSize: 5 }, 2);
    expect((await attune(player, pair.id)).statusCode).toBe(200);
    const grow = await call('PATCH', `/item_instances/${pair.id}`, player, {
      item_instance: { quantity: 3 },
    });
    expect(grow.statusCode, grow.body).toBe(200);
    expect(await attunedIn(player, backpack)).toBe(3);
  });

  it('attunes only items that require it, and only on a character', async () => {
    const { player, backpack } = await heroWithBackpack();
    const rope = await addItem(player, backpack, { metadata: { requires_attunement: false } });
    expectAttunementRefused(await attune(player, rope.id), inventoryMessages.notAttunable);
    const plain = await addItem(player, backpack, {});
    expectAttunementRefused(await attune(player, plain.id), inventoryMessages.notAttunable);
    // A homebrew template that does not say: magic (a rarity) may be attuned to.
    const homebrew = await addItem(player, backpack, { metadata: { rarity: 'uncommon' } });
    expect((await attune(player, homebrew.id)).statusCode).toBe(200);
    // Equipping is free for any item.
    const equip = await call('PATCH', `/item_instances/${rope.id}`, player, {
      item_instance: { instance_data: { is_equipped: true } },
    });
    expect(body(equip).data.instance_data.is_equipped).toBe(true);
  });

  it('never creates an item already attuned (attuning is its own step, where the limit is checked)', async () => {
    const { player, backpack } = await heroWithBackpack();
    const made = await createTemplate(ctx, ring);
    const response = await call('POST', '/item_instances', player, {
      item_template_id: made.id,
      container_id: backpack,
      instance_data: { is_attuned: true },
    });
    expect(response.statusCode).toBe(201);
    expect(body(response).data[0]?.instance_data.is_attuned).toBeUndefined();
  });

  it.each([1, 2, 3])('lets only one of two racing attunements become the third (round %i)', async () => {
    const { player, character, backpack } = await heroWithBackpack();
    // In two containers, so that the containers' own locks do not already put the two requests in a row.
    const pouch = await call('POST', `/characters/${character.id}/containers`, player, {
      container: { name: 'Pouch' },
    });
    const pouchId = String(body(pouch).data.id);
    const a = await addItem(player, backpack, ring);
    const b = await addItem(player, backpack, ring);
    const c = await addItem(player, backpack, ring);
    const d = await addItem(player, pouchId, ring);
    expect((await attune(player, a.id)).statusCode).toBe(200);
    expect((await attune(player, b.id)).statusCode).toBe(200);
    const results = await Promise.all([attune(player, c.id), attune(player, d.id)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 422]);
    expect((await attunedIn(player, backpack)) + (await attunedIn(player, pouchId))).toBe(3);
  });
});
