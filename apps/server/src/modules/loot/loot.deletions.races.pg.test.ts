import type { LootInstance } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lootInstances, lootTemplates } from '../../db/schema/loot.js';
import {
  createLootTemplate,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { watchLocks } from '../../test/lock-watch.js';
import { lootRepository } from './loot.repository.js';

/**
 * The attack review of 2026-11-30: a loot template deleted by its GM while they deployed it answered the
 * deployment 500, the new loot's foreign key meeting a row deleted after the deployment had read it; a
 * party deleted while a loot was deployed into it answered one of the two 500 (the loot meeting the deleted
 * party, or the deletion meeting the new loot's contents).
 * Several connections and real row locks are needed to see it, so PostgreSQL only (on PGlite one
 * transaction runs at a time). The deletion is a real request, sent once the deployment has read the
 * template (or the party) and is about to write the loot that points at it.
 */
let ctx: TestContext;
/** Tells whether the deletion had to wait for the request's locks. */
let locks: Awaited<ReturnType<typeof watchLocks>>;
let gm: SignedInUser;
let partyId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  locks = await watchLocks(ctx);
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  partyId = (await createParty(ctx, gm)).id;
});
afterAll(async () => {
  await locks.close();
  await ctx.close();
});

/** Sends the deletion and waits until it has answered, or waits on a lock the caller's transaction holds. */
async function deleteTemplateNow(templateId: string) {
  return deleteNow(`/loot_templates/${templateId}`);
}

async function deleteNow(path: string) {
  return locks.sendUntilAnsweredOrWaiting(() => callApi(ctx, 'DELETE', path, gm));
}

describe('a loot template deleted while its GM deploys it', () => {
  it('deploys the loot with its contents, and then deletes the template, which the loot outlives', async () => {
    const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 50, currency: 'gp', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 7 }]);
    let deletion: Awaited<ReturnType<typeof deleteTemplateNow>> | undefined;
    const insert = lootRepository.insertInstance.bind(lootRepository);
    const inserts = vi.spyOn(lootRepository, 'insertInstance').mockImplementation(async (db, values) => {
      deletion ??= await deleteTemplateNow(template.id);
      return insert(db, values);
    });
    let deployed: LightMyRequestResponse;
    try {
      deployed = await callApi(ctx, 'POST', '/loot_instances', gm, {
        loot_instance: { loot_template_id: template.id, party_id: partyId },
      });
    } finally {
      inserts.mockRestore();
    }
    expect(deployed.statusCode, deployed.body).toBe(201);
    expect(deletion?.outcome).toBe('waited');
    expect((await deletion?.answer)?.statusCode).toBe(204);
    const loot = deployed.json().data as LootInstance;
    const [row] = await ctx.database.db.select().from(lootInstances).where(eq(lootInstances.id, loot.id));
    expect(row?.lootTemplateId).toBeNull();
    const read = await callApi(ctx, 'GET', `/loot_instances/${loot.id}`, gm);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json().data as LootInstance).container.item_instances.map((i) => i.quantity)).toEqual([7]);
    expect(
      await ctx.database.db.select().from(lootTemplates).where(eq(lootTemplates.id, template.id)),
    ).toEqual([]);
  });
});

describe('a party deleted while its GM deploys a loot into it', () => {
  it('deploys the loot, and then deletes the party with the loot and its contents', async () => {
    const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 50, currency: 'gp', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 7 }]);
    const doomed = await createParty(ctx, gm);
    let deletion: Awaited<ReturnType<typeof deleteNow>> | undefined;
    const insert = lootRepository.insertInstance.bind(lootRepository);
    const inserts = vi.spyOn(lootRepository, 'insertInstance').mockImplementation(async (db, values) => {
      deletion ??= await deleteNow(`/parties/${doomed.id}`);
      return insert(db, values);
    });
    let deployed: LightMyRequestResponse;
    try {
      deployed = await callApi(ctx, 'POST', '/loot_instances', gm, {
        loot_instance: { loot_template_id: template.id, party_id: doomed.id },
      });
    } finally {
      inserts.mockRestore();
    }
    expect(deployed.statusCode, deployed.body).toBe(201);
    expect(deletion?.outcome).toBe('waited');
    const deleted = await deletion?.answer;
    expect(deleted?.statusCode, deleted?.body).toBe(204);
    const loot = deployed.json().data as LootInstance;
    expect(await ctx.database.db.select().from(lootInstances).where(eq(lootInstances.id, loot.id))).toEqual(
      [],
    );
  });
});
