import { characterMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers } from '../../db/schema/inventory.js';
import { createMember, createParty, createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * Limits of the characters module that its other tests did not pin (mutation testing: each of these let a
 * hand-made mutant of the code through).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const namesOf = (response: { json(): unknown }) =>
  (response.json() as { data: { name: string }[] }).data.map((c) => c.name);

describe('the level filters of a character list', () => {
  it('include the level they name, at both ends', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    for (const [name, level] of [
      ['Low', 4],
      ['Mid', 9],
      ['High', 10],
    ] as const) {
      const made = await callApi(ctx, 'POST', '/characters', player, { character: { name, level } });
      expect(made.statusCode, made.body).toBe(201);
    }
    expect(namesOf(await callApi(ctx, 'GET', '/characters?min_level=9', player))).toEqual(['High', 'Mid']);
    expect(namesOf(await callApi(ctx, 'GET', '/characters?max_level=9', player))).toEqual(['Low', 'Mid']);
    expect(namesOf(await callApi(ctx, 'GET', '/characters?min_level=9&max_level=9', player))).toEqual([
      'Mid',
    ]);
  });
});

describe('a character’s capacity', () => {
  it('changes its main container only, not the other containers it carries', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    const made = (
      await callApi(ctx, 'POST', '/characters', player, { character: { name: 'Thorin', max_weight: 100 } })
    ).json().data as { id: string; primary_container_id: string };
    const pouch = await callApi(ctx, 'POST', `/characters/${made.id}/containers`, player, {
      container: { name: 'Pouch', max_weight: 5, max_slots: 3 },
    });
    expect(pouch.statusCode, pouch.body).toBe(201);

    const changed = await callApi(ctx, 'PATCH', `/characters/${made.id}`, player, {
      character: { max_weight: 150, max_slots: 40 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const rows = await ctx.database.db.select().from(containers).where(eq(containers.characterId, made.id));
    const byName = Object.fromEntries(rows.map((c) => [c.name, [c.maxWeight, c.maxSlots]]));
    expect(byName).toEqual({ Backpack: [150, 40], Pouch: [5, 3] });
  });
});

describe('an archived party', () => {
  it('takes no character, new or brought in, and says why on the party field', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_3');
    const loner = (await callApi(ctx, 'POST', '/characters', player, { character: { name: 'Loner' } })).json()
      .data as { id: string };
    await ctx.app.services.parties.setArchived(gm.user.id, party.id, true);

    const refusal = {
      code: 'FORBIDDEN',
      message: characterMessages.archivedParty,
      details: [{ field: 'party_id', message: characterMessages.archivedParty }],
    };
    const created = await callApi(ctx, 'POST', '/characters', player, {
      character: { name: 'Late', party_id: party.id },
    });
    expect(created.statusCode, created.body).toBe(403);
    expect(created.json().error).toMatchObject(refusal);
    const brought = await callApi(ctx, 'PATCH', `/characters/${loner.id}`, player, {
      character: { party_id: party.id },
    });
    expect(brought.statusCode, brought.body).toBe(403);
    expect(brought.json().error).toMatchObject(refusal);
    const listed = await callApi(ctx, 'GET', `/characters?party_id=${party.id}`, player);
    expect(namesOf(listed)).toEqual([]);
  });
});
