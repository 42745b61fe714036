import { partyMessages } from '@haversack/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  error: { code: string; message: string };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** Every stack and container and the ledger's length: what a refused write must leave untouched. */
async function world() {
  const db = ctx.database.db;
  const stacks = await db.select().from(itemInstances);
  const boxes = await db.select().from(containers);
  const ledger = await db.select({ id: transactions.id }).from(transactions);
  return {
    stacks: stacks
      .map((s) => `${s.id}:${s.containerId}:${s.quantity}:${JSON.stringify(s.instanceData)}`)
      .sort(),
    containers: boxes.map((c) => `${c.id}:${c.name}:${c.maxWeight}`).sort(),
    ledger: ledger.length,
  };
}

function expectArchived(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, what).toBe(403);
  expect(body(response).error, what).toMatchObject({ code: 'FORBIDDEN', message: partyMessages.archived });
}

describe('an archived party (review F11)', () => {
  it('refuses every inventory write on its containers and its characters’ until it is unarchived', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_3');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const loner = await createCharacter(ctx, player, { maxWeight: null, maxSlots: null });
    const backpack = String(hero.primary_container_id);
    const outside = String(loner.primary_container_id);
    const stash = String(
      body(await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Stash' } })).data
        .id,
    );
    const chest = String(
      body(await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Chest' } })).data
        .id,
    );
    const empty = String(
      body(await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Crate' } })).data
        .id,
    );
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const gold = await coinTemplate(ctx, 'gp');
    await coinTemplate(ctx, 'pp');
    const add = (user: SignedInUser, container: string, template = rope.id, quantity = 10) =>
      call('POST', '/item_instances', user, {
        item_template_id: template,
        container_id: container,
        quantity,
      });
    const [inStash] = body(await add(gm, stash)).data;
    const [inBackpack] = body(await add(player, backpack)).data;
    const [, second] = body(
      await call('POST', `/item_instances/${inStash?.id}/split`, gm, { quantity: 4 }),
    ).data;
    const [outsideRope] = body(await add(player, outside)).data;
    await add(gm, stash, gold.id, 100);

    expect((await call('POST', `/parties/${party.id}/archive`, gm)).statusCode).toBe(200);
    const before = await world();

    // In an order that also succeeds once the party is unarchived, so the refusals prove the archive.
    const writes: [string, () => Promise<LightMyRequestResponse>][] = [
      ['add to the stash', () => add(gm, stash)],
      ['add to a character of the party', () => add(player, backpack)],
      [
        'edit',
        () =>
          call('PATCH', `/item_instances/${inStash?.id}`, gm, {
            item_instance: { quantity: 3, notes: 'frayed' },
          }),
      ],
      ['split', () => call('POST', `/item_instances/${inStash?.id}/split`, gm, { quantity: 2 })],
      [
        'merge',
        () => call('POST', `/item_instances/${second?.id}/merge`, gm, { target_instance_id: inStash?.id }),
      ],
      [
        'transfer in',
        () =>
          call('POST', '/containers/transfer', player, {
            item_instance_id: outsideRope?.id,
            source_container_id: outside,
            target_container_id: backpack,
            quantity: 1,
          }),
      ],
      [
        'transfer out',
        () =>
          call('POST', '/containers/transfer', player, {
            item_instance_id: inBackpack?.id,
            source_container_id: backpack,
            target_container_id: outside,
            quantity: 1,
          }),
      ],
      [
        'character transfer',
        () =>
          call('POST', `/characters/${loner.id}/transfer_item`, player, {
            item_instance_id: outsideRope?.id,
            from_container_id: outside,
            to_container_id: backpack,
            quantity: 1,
          }),
      ],
      [
        'transfer within the party',
        () =>
          call('POST', '/containers/transfer', gm, {
            item_instance_id: inStash?.id,
            source_container_id: stash,
            target_container_id: chest,
            quantity: 1,
          }),
      ],
      ['destroy', () => call('DELETE', `/item_instances/${inBackpack?.id}`, player)],
      ['convert', () => call('POST', `/containers/${stash}/convert_currency`, gm, { from: 'gp', to: 'pp' })],
      [
        'create a party container',
        () => call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Crate' } }),
      ],
      [
        'create a character container',
        () => call('POST', `/characters/${hero.id}/containers`, player, { container: { name: 'Quiver' } }),
      ],
      [
        'edit a container',
        () => call('PATCH', `/containers/${chest}`, gm, { container: { name: 'Coffer', max_weight: 500 } }),
      ],
      ['delete an empty container', () => call('DELETE', `/containers/${empty}`, gm)],
      [
        'delete a container into another',
        () =>
          call('DELETE', `/parties/${party.id}/containers/${stash}?destination_container_id=${chest}`, gm),
      ],
    ];
    for (const [what, write] of writes) expectArchived(await write(), what);
    expect(await world()).toEqual(before);

    // Reading stays open, and the container says it cannot be changed.
    const seen = await call('GET', `/containers/${stash}`, gm);
    expect(seen.statusCode).toBe(200);
    expect(body(seen).data.can_act).toBe(false);
    expect((await call('GET', `/containers/${stash}/items`, player)).statusCode).toBe(200);
    // The player's character outside the party is not frozen.
    expect((await add(player, outside)).statusCode).toBe(201);

    expect((await call('POST', `/parties/${party.id}/unarchive`, gm)).statusCode).toBe(200);
    expect(body(await call('GET', `/containers/${stash}`, gm)).data.can_act).toBe(true);
    for (const [what, write] of writes) expect((await write()).statusCode, what).toBeLessThan(300);
  });
});
