import { itemInstanceDetailSchema } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

// The item sheet shows what an item is (its rules text), which a list's rows leave out: GET
// item_instances/{id} carries the template's description, and whether the viewer may open its page.

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

async function add(user: SignedInUser, templateId: string, containerId: unknown) {
  const response = await call('POST', '/item_instances', user, {
    item_template_id: templateId,
    container_id: containerId,
    quantity: 1,
  });
  expect(response.statusCode).toBe(201);
  return String(body(response).data[0]?.id);
}

describe('GET item_instances/{id}: what the item sheet shows', () => {
  it("gives the template's description and that its page may be opened", async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player);
    const rope = await createTemplate(ctx, {
      name: 'Rope, hempen (50 feet)',
      description: 'Rope has 2 hit points and can be burst with a DC 17 Strength check.',
    });
    const id = await add(player, rope.id, hero.primary_container_id);

    const response = await call('GET', `/item_instances/${id}`, player);
    expect(response.statusCode).toBe(200);
    const detail = itemInstanceDetailSchema.parse(body(response).data);
    expect(detail.item_template.description).toBe(
      'Rope has 2 hit points and can be burst with a DC 17 Strength check.',
    );
    expect(detail.item_template.viewable).toBe(true);

    // A page of items stays as light as it was: no description on its rows.
    const page = body(await call('GET', `/containers/${hero.primary_container_id}/items`, player)).data;
    expect(page[0]?.item_template).not.toHaveProperty('description');
  });

  it("gives a GM's private homebrew's description to the player holding it, but not its page", async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    const blade = await createTemplate(ctx, {
      name: 'Whisperblade',
      description: 'While you hold it, you can hear whispers through walls.',
      visibility: 'private',
      creatorId: gm.user.id,
    });
    const id = await add(gm, blade.id, hero.primary_container_id);

    const seen = itemInstanceDetailSchema.parse(
      body(await call('GET', `/item_instances/${id}`, player)).data,
    );
    expect(seen.item_template.description).toBe('While you hold it, you can hear whispers through walls.');
    expect(seen.item_template.viewable).toBe(false);
    // Its page stays the GM's alone.
    expect((await call('GET', `/item_templates/${blade.id}`, player)).statusCode).toBe(404);
    const own = itemInstanceDetailSchema.parse(body(await call('GET', `/item_instances/${id}`, gm)).data);
    expect(own.item_template.viewable).toBe(true);
  });

  it('is still not found by someone who may not see the container', async () => {
    const player = await createUser(ctx);
    const hero = await createCharacter(ctx, player);
    const stranger = await createUser(ctx);
    const rope = await createTemplate(ctx, { description: 'A secret.' });
    const id = await add(player, rope.id, hero.primary_container_id);
    expect((await call('GET', `/item_instances/${id}`, stranger)).statusCode).toBe(404);
  });
});
