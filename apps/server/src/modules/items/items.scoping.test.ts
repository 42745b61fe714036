import type { ItemTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances } from '../../db/schema/items.js';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * Limits of item templates that their other tests did not pin (mutation testing: each of these let a
 * hand-made mutant of the code through).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function createTemplate(user: SignedInUser, fields: Record<string, unknown>): Promise<ItemTemplate> {
  const response = await callApi(ctx, 'POST', '/item_templates', user, { item_template: fields });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: ItemTemplate }).data;
}

async function tagsOf(user: SignedInUser): Promise<Map<string, number>> {
  const response = await callApi(ctx, 'GET', '/item_templates/tags', user);
  expect(response.statusCode, response.body).toBe(200);
  const tags = (response.json() as { data: { tag: string; count: number }[] }).data;
  return new Map(tags.map((t) => [t.tag, t.count]));
}

describe('the tags of the templates I can see', () => {
  it('leave out another user’s unlisted templates, which are not listed anywhere', async () => {
    const me = await createUser(ctx);
    const other = await createUser(ctx);
    await createTemplate(other, { name: 'Linked only', tags: 'zzunlisted', visibility: 'unlisted' });
    await createTemplate(me, { name: 'Mine, unlisted', tags: 'zzmyunlisted', visibility: 'unlisted' });
    const tags = await tagsOf(me);
    expect(tags.get('zzunlisted')).toBeUndefined();
    expect(tags.get('zzmyunlisted')).toBe(1);
  });

  it('leave out the templates I deleted', async () => {
    const me = await createUser(ctx);
    const kept = await createTemplate(me, { name: 'Kept', tags: 'zzkept, zzgone' });
    const gone = await createTemplate(me, { name: 'Gone', tags: 'zzgone' });
    expect((await tagsOf(me)).get('zzgone')).toBe(2);
    const deleted = await callApi(ctx, 'DELETE', `/item_templates/${gone.id}`, me);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const tags = await tagsOf(me);
    expect(tags.get('zzgone')).toBe(1);
    expect(tags.get('zzkept')).toBe(1);
    expect(kept.id).not.toBe(gone.id);
  });
});

describe('a heavier template', () => {
  it('stands where the party enforces no weight, whatever a container’s max weight says', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'slots' });
    const player = await createMember(ctx, party, 'player');
    const mule = await createCharacter(ctx, player, { partyId: party.id });
    const stone = await createTemplate(gm, { name: 'Sling stone', weight: 0.1, visibility: 'public' });
    const bag = await callApi(ctx, 'POST', '/containers', player, {
      container: { name: 'Sling bag', max_weight: 1, character_id: mule.id },
    });
    expect(bag.statusCode, bag.body).toBe(201);
    const made = await callApi(ctx, 'POST', '/item_instances', player, {
      item_template_id: stone.id,
      container_id: (bag.json() as { data: { id: string } }).data.id,
      quantity: 10,
    });
    expect(made.statusCode, made.body).toBe(201);
    const heavier = await callApi(ctx, 'PATCH', `/item_templates/${stone.id}`, gm, {
      item_template: { weight: 100 },
    });
    expect(heavier.statusCode, heavier.body).toBe(200);
  });
});

describe('the templates a user is counted for', () => {
  it('are those they have, not those they deleted', async () => {
    const me = await createUser(ctx);
    await createTemplate(me, { name: 'Kept' });
    const gone = await createTemplate(me, { name: 'Gone' });
    expect((await callApi(ctx, 'DELETE', `/item_templates/${gone.id}`, me)).statusCode).toBe(204);
    const usage = await callApi(ctx, 'GET', '/subscription/usage', me);
    expect(usage.statusCode, usage.body).toBe(200);
    expect((usage.json() as { data: Record<string, { used: number }> }).data.item_templates?.used).toBe(1);
  });
});

describe('a higher value of a template held in a party where only the GM adds items', () => {
  it('stands for that GM, who may add items there anyway', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { item_conjuring: 'gm_only' });
    const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
    if (!stash) throw new Error('a new party has a stash');
    const gem = await createTemplate(gm, { name: 'Gem', base_value: 5, visibility: 'public' });
    const made = await callApi(ctx, 'POST', '/item_instances', gm, {
      item_template_id: gem.id,
      container_id: stash.id,
      quantity: 1,
    });
    expect(made.statusCode, made.body).toBe(201);
    const raised = await callApi(ctx, 'PATCH', `/item_templates/${gem.id}`, gm, {
      item_template: { base_value: 500 },
    });
    expect(raised.statusCode, raised.body).toBe(200);
  });
});

describe('a private template someone else holds', () => {
  it('may be saved private again: it hides nothing from them that was not hidden', async () => {
    const me = await createUser(ctx);
    const stranger = await createUser(ctx);
    const secret = await createTemplate(me, { name: 'Secret map', visibility: 'private' });
    const keeper = await createCharacter(ctx, stranger, { name: 'Keeper' });
    await ctx.database.db.insert(itemInstances).values({
      containerId: String(keeper.primary_container_id),
      itemTemplateId: secret.id,
      quantity: 1,
    });
    const saved = await callApi(ctx, 'PATCH', `/item_templates/${secret.id}`, me, {
      item_template: { visibility: 'private' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
