import { inventoryMessages } from '@haversack/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * A party's containers hold what the group shares (browser review: a player deleted the Party Stash, and
 * the GM had no way to make another). Only the GM or a manager deletes one, and never the party's last.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx?.close());

/** A party on an unlimited plan, its stash, and a player with a character who may act on party containers. */
async function partyWithStash() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  const hero = await createCharacter(ctx, player, { partyId: party.id });
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!stash) throw new Error('a new party has a stash');
  return { gm, party, player, hero, stash };
}

async function addPartyContainer(partyId: string, name: string) {
  const [row] = await ctx.database.db.insert(containers).values({ name, partyId }).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

async function partyContainers(partyId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(containers)
    .where(eq(containers.partyId, partyId));
  return Number(row?.n);
}

async function ledgerRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(transactions);
  return Number(row?.n);
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

describe('deleting a party’s container', () => {
  it('is refused to a player who may move items in and out of it, and changes nothing', async () => {
    const { party, player, stash } = await partyWithStash();
    const wagon = await addPartyContainer(party.id, 'Wagon');
    const ledgerBefore = await ledgerRows();
    // The player may act on it (move items in and out); deleting it, empty or not, is not theirs to do.
    for (const id of [wagon.id, stash.id]) {
      const refused = await callApi(ctx, 'DELETE', `/containers/${id}`, player);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(errorOf(refused)).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only the party’s GM or a manager can delete the party’s containers.',
      });
    }
    expect(await partyContainers(party.id)).toBe(2);
    expect(await ledgerRows()).toBe(ledgerBefore);
  });

  it('is the GM’s or a manager’s, down to the party’s last container, which stays', async () => {
    const { gm, party, stash } = await partyWithStash();
    const manager = await createMember(ctx, party, 'manager');
    await upgrade(ctx, manager, 'tier_3');
    // Like a player, a manager acts on the party's containers through a character in the party.
    await createCharacter(ctx, manager, { partyId: party.id });
    const wagon = await addPartyContainer(party.id, 'Wagon');
    const chest = await addPartyContainer(party.id, 'Chest');

    expect((await callApi(ctx, 'DELETE', `/containers/${wagon.id}`, manager)).statusCode).toBe(204);
    expect((await callApi(ctx, 'DELETE', `/containers/${stash.id}`, gm)).statusCode).toBe(204);
    const ledgerBefore = await ledgerRows();
    for (const user of [gm, manager]) {
      const last = await callApi(ctx, 'DELETE', `/containers/${chest.id}`, user);
      expect(last.statusCode, last.body).toBe(409);
      expect(errorOf(last)).toMatchObject({
        code: 'CONFLICT',
        message: inventoryMessages.lastPartyContainer,
      });
    }
    expect(await partyContainers(party.id)).toBe(1);
    expect(await ledgerRows()).toBe(ledgerBefore);
  });

  it('keeps one container when the GM deletes the last two at once', async () => {
    const { gm, party, stash } = await partyWithStash();
    const wagon = await addPartyContainer(party.id, 'Wagon');
    for (let round = 0; round < 3; round += 1) {
      const responses = await Promise.all(
        [stash.id, wagon.id].map((id) => callApi(ctx, 'DELETE', `/containers/${id}`, gm)),
      );
      expect(await partyContainers(party.id)).toBe(1);
      expect(responses.map((r) => r.statusCode).sort()).toEqual(round === 0 ? [204, 409] : [404, 409]);
    }
  });

  it('still lets a character’s own extra containers go, as before', async () => {
    const { player, hero } = await partyWithStash();
    const pouch = await ctx.database.db
      .insert(containers)
      .values({ name: 'Pouch', characterId: hero.id })
      .returning();
    const id = pouch[0]?.id ?? '';
    expect((await callApi(ctx, 'DELETE', `/containers/${id}`, player)).statusCode).toBe(204);
  });
});

/**
 * Renaming a party's container or capping it changes what the whole group shares as much as deleting it
 * (attack review: a player renamed the Party Stash and set it to 1 slot / 1 lb, locking the others out).
 */
describe('editing a party’s container', () => {
  const refusal = {
    code: 'FORBIDDEN',
    message: 'Only the party’s GM or a manager can edit the party’s containers.',
  };

  it('is refused to a player, by either path, and changes nothing', async () => {
    const { party, player, stash } = await partyWithStash();
    const wagon = await addPartyContainer(party.id, 'Wagon');
    const ledgerBefore = await ledgerRows();
    for (const id of [stash.id, wagon.id]) {
      for (const url of [`/parties/${party.id}/containers/${id}`, `/containers/${id}`]) {
        for (const change of [
          { name: 'Alice’s private hoard' },
          { max_slots: 1, max_weight: 1 },
          { description: 'Mine' },
        ]) {
          const refused = await callApi(ctx, 'PATCH', url, player, { container: change });
          expect(refused.statusCode, refused.body).toBe(403);
          expect(errorOf(refused)).toMatchObject(refusal);
        }
      }
    }
    const [after] = await ctx.database.db.select().from(containers).where(eq(containers.id, stash.id));
    expect(after).toMatchObject({ name: stash.name, maxWeight: null, maxSlots: null, description: '' });
    expect(await ledgerRows()).toBe(ledgerBefore);
  });

  it('is the GM’s or a manager’s, while the player still moves items in and out', async () => {
    const { gm, party, player, hero, stash } = await partyWithStash();
    const manager = await createMember(ctx, party, 'manager');
    await upgrade(ctx, manager, 'tier_3');
    await createCharacter(ctx, manager, { partyId: party.id });
    const byGm = await callApi(ctx, 'PATCH', `/parties/${party.id}/containers/${stash.id}`, gm, {
      container: { name: 'Common chest' },
    });
    expect(byGm.statusCode, byGm.body).toBe(200);
    const byManager = await callApi(ctx, 'PATCH', `/containers/${stash.id}`, manager, {
      container: { max_slots: 50 },
    });
    expect(byManager.statusCode, byManager.body).toBe(200);
    expect(byManager.json()).toMatchObject({ data: { name: 'Common chest', max_slots: 50 } });

    const rope = await createTemplate(ctx, { name: 'Rope' });
    const added = await callApi(ctx, 'POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: hero.primary_container_id,
      quantity: 1,
    });
    expect(added.statusCode, added.body).toBe(201);
    const [coil] = (added.json() as { data: { id: string }[] }).data;
    const deposited = await callApi(ctx, 'POST', '/containers/transfer', player, {
      item_instance_id: coil?.id,
      source_container_id: hero.primary_container_id,
      target_container_id: stash.id,
      quantity: 1,
    });
    expect(deposited.statusCode, deposited.body).toBe(200);
  });

  it('still lets a player edit their character’s own containers', async () => {
    const { player, hero } = await partyWithStash();
    const renamed = await callApi(ctx, 'PATCH', `/containers/${hero.primary_container_id}`, player, {
      container: { name: 'Backpack of holding' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});

/**
 * An observer only reads, whatever characters they have in the party (DESIGN §4): the refusal names the
 * role, not a missing character they in fact have (spec review: "You need a character in this party…").
 */
describe('an observer with a character in the party', () => {
  async function observerWithCharacter() {
    const world = await partyWithStash();
    const observer = await createMember(ctx, world.party, 'observer');
    await upgrade(ctx, observer, 'tier_3');
    await createCharacter(ctx, observer, { partyId: world.party.id });
    return { ...world, observer };
  }

  it('is told observers cannot add containers to the party, and nothing is made', async () => {
    const { party, observer } = await observerWithCharacter();
    const ledgerBefore = await ledgerRows();
    const refused = await callApi(ctx, 'POST', `/parties/${party.id}/containers`, observer, {
      container: { name: 'Obs box' },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Observers cannot add containers to the party.',
    });
    expect(await partyContainers(party.id)).toBe(1);
    expect(await ledgerRows()).toBe(ledgerBefore);
  });

  it('is told they can look at a party container but not change it, when editing or deleting it', async () => {
    const { party, observer, stash } = await observerWithCharacter();
    const wagon = await addPartyContainer(party.id, 'Wagon');
    const refusal = { code: 'FORBIDDEN', message: 'You can look at this container but not change it.' };
    for (const url of [`/parties/${party.id}/containers/${wagon.id}`, `/containers/${wagon.id}`]) {
      const edit = await callApi(ctx, 'PATCH', url, observer, { container: { name: 'Mine' } });
      expect(edit.statusCode, edit.body).toBe(403);
      expect(errorOf(edit)).toMatchObject(refusal);
    }
    for (const id of [wagon.id, stash.id]) {
      const removal = await callApi(ctx, 'DELETE', `/containers/${id}`, observer);
      expect(removal.statusCode, removal.body).toBe(403);
      expect(errorOf(removal)).toMatchObject(refusal);
    }
    expect(await partyContainers(party.id)).toBe(2);
  });

  it('tells a player whose only character is in another party that they need one here', async () => {
    const { party } = await partyWithStash();
    const elsewhere = await partyWithStash();
    const newcomer = await createMember(ctx, party, 'player');
    await upgrade(ctx, newcomer, 'tier_3');
    // A character of theirs, in another party they also play in: not one in this party.
    await ctx.app.services.parties.join(newcomer.user.id, {
      join_code: String(elsewhere.party.join_code),
      role_request: 'player',
    });
    await createCharacter(ctx, newcomer, { partyId: elsewhere.party.id });
    const refused = await callApi(ctx, 'POST', `/parties/${party.id}/containers`, newcomer, {
      container: { name: 'Box' },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You need a character in this party to change its inventory.',
    });
    expect(await partyContainers(party.id)).toBe(1);
  });

  it('still tells a player without a character in the party that they need one', async () => {
    const { party } = await partyWithStash();
    const newcomer = await createMember(ctx, party, 'player');
    await upgrade(ctx, newcomer, 'tier_3');
    const refused = await callApi(ctx, 'POST', `/parties/${party.id}/containers`, newcomer, {
      container: { name: 'Box' },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You need a character in this party to change its inventory.',
    });
  });
});
