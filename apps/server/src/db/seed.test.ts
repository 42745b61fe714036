import { arrayContains, eq, isNotNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EQUIPMENT_PACK_TAG, systemTemplates } from '../modules/items/items.catalogue.js';
import { openTestDatabase } from '../test/helper.js';
import type { DatabaseHandle } from './client.js';
import { itemTemplates } from './schema/items.js';
import { lootTemplates } from './schema/loot.js';
import { lootTemplateItems } from './schema/loot-items.js';
import { seedState } from './schema/seed-state.js';
import { shopTemplates } from './schema/shops.js';
import { computeSeedFingerprint, seedDatabase, seedFingerprint } from './seed.js';

// issue 13 §6: a restart seeds only when the seed's inputs changed.
describe('seeding at start', () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  const dagger = async () =>
    (await database.db.select().from(itemTemplates).where(eq(itemTemplates.systemKey, 'srd:dagger')))[0];

  it('records the fingerprint of what it seeded and skips a start whose inputs are unchanged', async () => {
    const [recorded] = await database.db.select().from(seedState);
    expect(recorded).toMatchObject({ name: 'catalogue', fingerprint: seedFingerprint() });
    expect(seedFingerprint()).toMatch(/^[0-9a-f]{64}$/);

    await database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    expect((await seedDatabase(database.db)).status).toBe('unchanged');
    expect((await dagger())?.baseValue).toBe(999);
  });

  it('seeds again when the inputs changed, and when forced', async () => {
    await database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    await database.db.update(seedState).set({ fingerprint: 'an older catalogue' });
    expect((await seedDatabase(database.db)).status).toBe('seeded');
    expect((await dagger())?.baseValue).toBe(2);
    const [recorded] = await database.db.select().from(seedState);
    expect(recorded?.fingerprint).toBe(seedFingerprint());

    await database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    expect((await seedDatabase(database.db, { force: true })).status).toBe('seeded');
    expect((await dagger())?.baseValue).toBe(2);
  });

  it('gives an install seeded when equipment packs weighed 0 their weights at its next start', async () => {
    const explorersPack = eq(itemTemplates.systemKey, 'srd:explorer-s-pack');
    // What the earlier build seeded and recorded: every pack at upstream's 0 lb, under that catalogue's
    // fingerprint. Packs are weighed before the fingerprint is taken, so this build's differs.
    const earlier = systemTemplates().map((t) =>
      t.tags.includes(EQUIPMENT_PACK_TAG) ? { ...t, weight: 0 } : t,
    );
    const earlierFingerprint = computeSeedFingerprint(earlier);
    expect(earlierFingerprint).not.toBe(seedFingerprint());
    await database.db
      .update(itemTemplates)
      .set({ weight: 0 })
      .where(arrayContains(itemTemplates.tags, [EQUIPMENT_PACK_TAG]));
    await database.db.update(seedState).set({ fingerprint: earlierFingerprint });

    expect((await seedDatabase(database.db)).status).toBe('seeded');
    const [pack] = await database.db.select().from(itemTemplates).where(explorersPack);
    expect(pack?.weight).toBe(59);
    const packs = await database.db
      .select({ weight: itemTemplates.weight })
      .from(itemTemplates)
      .where(arrayContains(itemTemplates.tags, [EQUIPMENT_PACK_TAG]));
    expect(packs).toHaveLength(7);
    expect(packs.every((p) => p.weight > 0)).toBe(true);
    expect((await seedDatabase(database.db)).status).toBe('unchanged');
  });

  // An upgrade's seed rewrites templates that inventories already use: the start says what it changed.
  it('counts the existing templates it changed, by kind, and the item fields', async () => {
    await database.db
      .update(itemTemplates)
      .set({ weight: 0 })
      .where(eq(itemTemplates.systemKey, 'srd:explorer-s-pack'));
    await database.db
      .update(itemTemplates)
      .set({ weight: 5, name: 'Spike, Iron' })
      .where(eq(itemTemplates.systemKey, 'srd:spike-iron'));
    const [shop] = await database.db
      .select({ id: shopTemplates.id })
      .from(shopTemplates)
      .where(isNotNull(shopTemplates.systemKey))
      .limit(1);
    await database.db
      .update(shopTemplates)
      .set({ description: 'An older description.' })
      .where(eq(shopTemplates.id, shop?.id ?? ''));
    const [loot] = await database.db
      .select({ id: lootTemplates.id })
      .from(lootTemplates)
      .where(isNotNull(lootTemplates.systemKey))
      .limit(1);
    await database.db
      .update(lootTemplateItems)
      .set({ quantity: 99 })
      .where(eq(lootTemplateItems.lootTemplateId, loot?.id ?? ''));
    await database.db.update(seedState).set({ fingerprint: 'an older catalogue' });

    const outcome = await seedDatabase(database.db);
    expect(outcome).toEqual({
      status: 'seeded',
      changes: {
        itemTemplates: { updated: 2, fields: { weight: 2, name: 1 } },
        shopTemplates: 1,
        lootTemplates: 1,
      },
    });
    // Nothing left to change: a forced seed reports no change.
    expect(await seedDatabase(database.db, { force: true })).toEqual({
      status: 'seeded',
      changes: { itemTemplates: { updated: 0, fields: {} }, shopTemplates: 0, lootTemplates: 0 },
    });
  });

  it('lets two starts at once seed once and agree', async () => {
    await database.db.delete(seedState);
    const results = await Promise.all([seedDatabase(database.db), seedDatabase(database.db)]);
    expect(results.map((r) => r.status).sort()).toEqual(['seeded', 'unchanged']);
  });
});
