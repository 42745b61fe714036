import { partyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
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

async function stacksIn(containerId: string) {
  return ctx.database.db.select().from(itemInstances).where(eq(itemInstances.containerId, containerId));
}

/** A party with the given rule, its GM (with a character), a player with a character, and its stash. */
async function table(rule: 'free' | 'gm_only') {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { item_conjuring: rule });
  const player = await createMember(ctx, party, 'player');
  // Acting on the party's own containers is a paid feature (party_collaboration).
  await upgrade(ctx, player, 'tier_3');
  const hero = await createCharacter(ctx, player, { partyId: party.id });
  const gmHero = await createCharacter(ctx, gm, { partyId: party.id });
  const stashes = body(await call('GET', `/parties/${party.id}/containers`, gm)).data;
  const stash = String(stashes[0]?.id);
  return {
    gm,
    party,
    player,
    backpack: String(hero.primary_container_id),
    gmBackpack: String(gmHero.primary_container_id),
    stash,
  };
}

const addGold = async (user: SignedInUser, containerId: string, quantity = 100) =>
  call('POST', '/item_instances', user, {
    item_template_id: (await coinTemplate(ctx, 'gp')).id,
    container_id: containerId,
    quantity,
  });

describe('party rule for conjuring items (issue 12)', () => {
  it('refuses a player’s marketplace add in a GM-only party and writes nothing', async () => {
    const { player, backpack, stash } = await table('gm_only');
    for (const target of [backpack, stash]) {
      const refused = await addGold(player, target);
      expect(refused.statusCode).toBe(403);
      expect(body(refused).error).toMatchObject({
        code: 'FORBIDDEN',
        message: partyMessages.conjuringGmOnly,
      });
      expect(await stacksIn(target)).toHaveLength(0);
    }
  });

  it('lets the GM add to a player’s container, their own and the party stash in a GM-only party', async () => {
    const { gm, backpack, gmBackpack, stash } = await table('gm_only');
    for (const target of [backpack, gmBackpack, stash]) {
      expect((await addGold(gm, target)).statusCode).toBe(201);
      expect(await stacksIn(target)).toHaveLength(1);
    }
  });

  it('lets players add freely when the party allows it', async () => {
    const { player, backpack, stash } = await table('free');
    expect((await addGold(player, backpack)).statusCode).toBe(201);
    expect((await addGold(player, stash)).statusCode).toBe(201);
  });

  it('leaves a character outside any party unaffected', async () => {
    const solo = await createUser(ctx);
    const hero = await createCharacter(ctx, solo);
    expect((await addGold(solo, String(hero.primary_container_id))).statusCode).toBe(201);
  });

  it('refuses a player raising a stack’s quantity in a GM-only party, but not lowering it', async () => {
    const { gm, party, player, backpack } = await table('free');
    await addGold(player, backpack, 10);
    const [stack] = await stacksIn(backpack);
    await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'gm_only' } });
    const raised = await call('PATCH', `/item_instances/${stack?.id}`, player, {
      item_instance: { quantity: 1000 },
    });
    expect(raised.statusCode).toBe(403);
    expect(body(raised).error.message).toBe(partyMessages.conjuringGmOnly);
    const lowered = await call('PATCH', `/item_instances/${stack?.id}`, player, {
      item_instance: { quantity: 4 },
    });
    expect(lowered.statusCode).toBe(200);
    expect((await stacksIn(backpack))[0]?.quantity).toBe(4);
  });

  it('lets only the GM change the rule, and shows it to every member', async () => {
    const { gm, party, player } = await table('free');
    const refused = await call('PATCH', `/parties/${party.id}`, player, {
      party: { item_conjuring: 'gm_only' },
    });
    expect(refused.statusCode).toBe(403);
    const changed = await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'gm_only' } });
    expect(body(changed).data.item_conjuring).toBe('gm_only');
    expect(body(await call('GET', `/parties/${party.id}`, player)).data.item_conjuring).toBe('gm_only');
    const bad = await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'sometimes' } });
    expect(bad.statusCode).toBe(422);
  });
});
