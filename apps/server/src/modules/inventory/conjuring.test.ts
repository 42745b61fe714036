import { characterMessages, itemTemplateMessages, partyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('refuses a player raising an item’s value in a GM-only party (a shop would pay it out), not lowering it', async () => {
    const { gm, party, player, backpack } = await table('free');
    const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 10, currency: 'gp', stackSize: 0 });
    await call('POST', '/item_instances', player, {
      item_template_id: gem.id,
      container_id: backpack,
      quantity: 4,
    });
    const [stack] = await stacksIn(backpack);
    await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'gm_only' } });
    for (const instance_data of [{ value_override: 2000 }, { value_override: 10, currency_override: 'pp' }]) {
      const raised = await call('PATCH', `/item_instances/${stack?.id}`, player, {
        item_instance: { instance_data },
      });
      expect(raised.statusCode).toBe(403);
      expect(body(raised).error.message).toBe(partyMessages.valueRaiseGmOnly);
    }
    expect((await stacksIn(backpack))[0]?.instanceData).toEqual({});
    const lowered = await call('PATCH', `/item_instances/${stack?.id}`, player, {
      item_instance: { instance_data: { value_override: 5 } },
    });
    expect(lowered.statusCode).toBe(200);
    const byGm = await call('PATCH', `/item_instances/${stack?.id}`, gm, {
      item_instance: { instance_data: { value_override: 50 } },
    });
    expect(byGm.statusCode).toBe(200);
  });

  it('refuses a player raising the value of their own template whose items are in a GM-only party', async () => {
    const { gm, party, player, backpack } = await table('free');
    const made = await call('POST', '/item_templates', player, {
      item_template: { name: 'Pebble', base_value: 1, currency: 'cp', stack_size: 0, visibility: 'private' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const pebble = String(body(made).data.id);
    await call('POST', '/item_instances', player, {
      item_template_id: pebble,
      container_id: backpack,
      quantity: 10,
    });
    await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'gm_only' } });

    const raised = await call('PATCH', `/item_templates/${pebble}`, player, {
      item_template: { base_value: 5000, currency: 'gp' },
    });
    expect(raised.statusCode).toBe(403);
    expect(body(raised).error.message).toBe(itemTemplateMessages.valueRaiseGmOnly);
    // Renaming it, or making it cheaper, is not making coins.
    const renamed = await call('PATCH', `/item_templates/${pebble}`, player, {
      item_template: { name: 'Gravel' },
    });
    expect(renamed.statusCode).toBe(200);
    // Once no item of it is in such a party, its owner prices it as they like.
    const other = await call('POST', '/item_templates', player, {
      item_template: { name: 'Shell', base_value: 1, currency: 'cp', stack_size: 0, visibility: 'private' },
    });
    const shell = String(body(other).data.id);
    const dearer = await call('PATCH', `/item_templates/${shell}`, player, {
      item_template: { base_value: 50 },
    });
    expect(dearer.statusCode).toBe(200);
  });

  it('refuses a player bringing items into a GM-only party from a character outside it', async () => {
    const { gm, party, player, backpack } = await table('gm_only');
    const mule = await createCharacter(ctx, player);
    const muleBag = String(mule.primary_container_id);
    expect((await addGold(player, muleBag, 500)).statusCode).toBe(201);
    const [pile] = await stacksIn(muleBag);
    const moved = await call('POST', '/containers/transfer', player, {
      item_instance_id: pile?.id,
      source_container_id: muleBag,
      target_container_id: backpack,
      quantity: 100,
    });
    expect(moved.statusCode).toBe(403);
    expect(body(moved).error.message).toBe(partyMessages.importGmOnly);
    expect(await stacksIn(backpack)).toHaveLength(0);
    expect((await stacksIn(muleBag))[0]?.quantity).toBe(500);

    // Nor can the mule join with its gold; empty, it may.
    const joined = await call('PATCH', `/characters/${mule.id}`, player, {
      character: { party_id: party.id },
    });
    expect(joined.statusCode).toBe(403);
    expect(body(joined).error.message).toBe(characterMessages.carriesItemsIntoGmOnlyParty);
    const empty = await createCharacter(ctx, player);
    const emptyJoins = await call('PATCH', `/characters/${empty.id}`, player, {
      character: { party_id: party.id },
    });
    expect(emptyJoins.statusCode).toBe(200);

    // Out of the party is the player's business; within it, moves are free; the GM may bring items in.
    const gmMule = await createCharacter(ctx, gm);
    const gmBag = String(gmMule.primary_container_id);
    await addGold(gm, gmBag, 10);
    const [gmPile] = await stacksIn(gmBag);
    const gmMoved = await call('POST', '/containers/transfer', gm, {
      item_instance_id: gmPile?.id,
      source_container_id: gmBag,
      target_container_id: backpack,
    });
    expect(gmMoved.statusCode).toBe(200);
  });

  it('never lets a character join a GM-only party holding gold that raced in with the join', async () => {
    const { party, player } = await table('gm_only');
    for (let round = 0; round < 6; round += 1) {
      const joiner = await createCharacter(ctx, player);
      const mule = await createCharacter(ctx, player);
      const muleBag = String(mule.primary_container_id);
      await addGold(player, muleBag, 100);
      const [pile] = await stacksIn(muleBag);
      const [joined, moved] = await Promise.all([
        call('PATCH', `/characters/${joiner.id}`, player, { character: { party_id: party.id } }),
        call('POST', '/containers/transfer', player, {
          item_instance_id: pile?.id,
          source_container_id: muleBag,
          target_container_id: joiner.primary_container_id,
        }),
      ]);
      // One of the two is refused, whichever comes second; never both through.
      expect([joined.statusCode, moved.statusCode], `round ${round}`).not.toEqual([200, 200]);
      const inParty = joined.statusCode === 200;
      const holds = (await stacksIn(String(joiner.primary_container_id))).length > 0;
      expect(inParty && holds, `round ${round}`).toBe(false);
    }
  });

  it('lets a character with items join a party where members may add items', async () => {
    const { party, player } = await table('free');
    const hero = await createCharacter(ctx, player);
    await addGold(player, String(hero.primary_container_id), 5);
    const joined = await call('PATCH', `/characters/${hero.id}`, player, {
      character: { party_id: party.id },
    });
    expect(joined.statusCode).toBe(200);
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
