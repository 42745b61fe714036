import type { LootItem, LootTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemplate, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, type json, type TestContext } from '../../test/helper.js';
import { envelopeData, gmWithRelicAndRope, paidUser as paidUserOf } from '../../test/private-relic.js';

// Private item templates exist only for their creator (docs/decisions.md): a loot template that lists one
// must not show its fields, nor its worth, to anyone else, nor pass the line on in their copies.

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const data = envelopeData;
const paidUser = () => paidUserOf(ctx);

/** A GM's public loot template holding 2 rope (1 gp each) and 3 of a relic of their own (75 gp each). */
async function publicLootWithRelic(relicVisibility: 'private' | 'public') {
  const { gm, relic, rope } = await gmWithRelicAndRope(ctx, relicVisibility);
  const loot = data<LootTemplate>(
    await callApi(ctx, 'POST', '/loot_templates', gm, {
      loot_template: { name: 'Cultist Cache', visibility: 'public', source_type: 'hoard' },
    }),
  );
  for (const [item, quantity] of [
    [relic.id, 3],
    [rope.id, 2],
  ] as const) {
    const added = await callApi(ctx, 'POST', `/loot_templates/${loot.id}/loot_items`, gm, {
      loot_item: { item_template_id: item, quantity },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  return { gm, relic, rope, loot };
}

const lineOf = (items: readonly LootItem[], itemTemplateId: string) =>
  items.find((line) => line.item_template_id === itemTemplateId);

describe('a loot template line whose item is private to someone else', () => {
  it('shows an outsider no field of the item and no worth, in every read of the template', async () => {
    const { gm, relic, rope, loot } = await publicLootWithRelic('private');
    const outsider = await createUser(ctx);

    const reads = [
      await callApi(ctx, 'GET', `/loot_templates/${loot.id}/loot_items`, outsider),
      await callApi(ctx, 'GET', `/loot_templates/${loot.id}`, outsider),
      await callApi(
        ctx,
        'GET',
        '/loot_templates?visibility=public&include=loot_items&search=Cultist&per_page=100',
        outsider,
      ),
    ];
    for (const read of reads) {
      expect(read.statusCode, read.body).toBe(200);
      expect(read.body).not.toContain('Relic of Whispers');
      expect(read.body).not.toContain('Sealed words');
    }
    const items = data<LootItem[]>(reads[0] as Parameters<typeof json>[0]);
    expect(lineOf(items, relic.id)).toMatchObject({
      item_template_id: relic.id,
      item_template: null,
      quantity: 3,
      coin: null,
      value_cp: null,
      total_value_cp: null,
      available: false,
    });
    expect(lineOf(items, rope.id)).toMatchObject({ item_template: { name: 'Rope' }, available: true });
    // Last, not where its name would sort it ("Relic" before "Rope"): its place would hint at the name.
    expect(items.map((line) => line.item_template_id)).toEqual([rope.id, relic.id]);
    // The whole is what the reader can see of it: the relic's 225 gp would tell its worth by subtraction.
    expect(data<LootTemplate>(reads[1] as Parameters<typeof json>[0]).total_value_cp).toBe(200);
    const listed = data<LootTemplate[]>(reads[2] as Parameters<typeof json>[0]).find((t) => t.id === loot.id);
    expect(listed?.total_value_cp).toBe(200);

    // Its author reads it in full.
    const own = data<LootTemplate>(await callApi(ctx, 'GET', `/loot_templates/${loot.id}`, gm));
    expect(lineOf(own.loot_items ?? [], relic.id)).toMatchObject({
      item_template: { name: 'Relic of Whispers', description: 'Sealed words v1' },
      total_value_cp: 22_500,
      available: true,
    });
    expect(own.total_value_cp).toBe(22_700);
  });

  it('sorts by the worth each reader sees', async () => {
    const { loot } = await publicLootWithRelic('private');
    const outsider = await createUser(ctx);
    // 2 gp of rope against the hidden 225 gp: a 50 gp template sorts above it for the outsider.
    const fifty = await createTemplate(ctx, { name: 'Fifty', baseValue: 50, currency: 'gp' });
    const other = await paidUser();
    const middle = data<LootTemplate>(
      await callApi(ctx, 'POST', '/loot_templates', other, {
        loot_template: { name: 'Cultist Purse', visibility: 'public', source_type: 'hoard' },
      }),
    );
    await callApi(ctx, 'POST', `/loot_templates/${middle.id}/loot_items`, other, {
      loot_item: { item_template_id: fifty.id, quantity: 1 },
    });
    const sorted = data<LootTemplate[]>(
      await callApi(
        ctx,
        'GET',
        '/loot_templates?visibility=public&search=Cultist&sort=value&direction=desc&per_page=100',
        outsider,
      ),
    ).filter((t) => t.id === loot.id || t.id === middle.id);
    expect(sorted.map((t) => t.id)).toEqual([middle.id, loot.id]);
  });

  it('is left out of an outsider’s duplicate, and kept in its author’s', async () => {
    const { gm, relic, rope, loot } = await publicLootWithRelic('private');
    const outsider = await paidUser();
    const duplicated = await callApi(ctx, 'POST', `/loot_templates/${loot.id}/duplicate`, outsider);
    expect(duplicated.statusCode, duplicated.body).toBe(201);
    const copy = data<LootTemplate>(duplicated);
    expect((copy.loot_items ?? []).map((line) => line.item_template_id)).toEqual([rope.id]);
    expect(copy).toMatchObject({ items_count: 1, total_value_cp: 200 });

    const own = data<LootTemplate>(await callApi(ctx, 'POST', `/loot_templates/${loot.id}/duplicate`, gm));
    expect((own.loot_items ?? []).map((line) => line.item_template_id).sort()).toEqual(
      [relic.id, rope.id].sort(),
    );
  });

  it('hides an item made private after it was copied, with its new words', async () => {
    const { gm, relic, loot } = await publicLootWithRelic('public');
    const outsider = await paidUser();
    const copy = data<LootTemplate>(
      await callApi(ctx, 'POST', `/loot_templates/${loot.id}/duplicate`, outsider),
    );
    expect(lineOf(copy.loot_items ?? [], relic.id)?.item_template?.name).toBe('Relic of Whispers');

    const hidden = await callApi(ctx, 'PUT', `/item_templates/${relic.id}`, gm, {
      item_template: { visibility: 'private', name: 'Relic of the Traitor King', description: 'v2 secrets' },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const read = await callApi(ctx, 'GET', `/loot_templates/${copy.id}/loot_items`, outsider);
    expect(read.body).not.toContain('Traitor King');
    expect(read.body).not.toContain('v2 secrets');
    expect(lineOf(data<LootItem[]>(read), relic.id)).toMatchObject({ item_template: null, available: false });
  });
});
