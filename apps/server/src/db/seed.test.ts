import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.js';
import type { DatabaseHandle } from './client.js';
import { itemTemplates } from './schema/items.js';
import { seedState } from './schema/seed-state.js';
import { seedDatabase, seedFingerprint } from './seed.js';

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
    expect(await seedDatabase(database.db)).toBe('unchanged');
    expect((await dagger())?.baseValue).toBe(999);
  });

  it('seeds again when the inputs changed, and when forced', async () => {
    await database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    await database.db.update(seedState).set({ fingerprint: 'an older catalogue' });
    expect(await seedDatabase(database.db)).toBe('seeded');
    expect((await dagger())?.baseValue).toBe(2);
    const [recorded] = await database.db.select().from(seedState);
    expect(recorded?.fingerprint).toBe(seedFingerprint());

    await database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    expect(await seedDatabase(database.db, { force: true })).toBe('seeded');
    expect((await dagger())?.baseValue).toBe(2);
  });

  it('lets two starts at once seed once and agree', async () => {
    await database.db.delete(seedState);
    const results = await Promise.all([seedDatabase(database.db), seedDatabase(database.db)]);
    expect(results.sort()).toEqual(['seeded', 'unchanged']);
  });
});
