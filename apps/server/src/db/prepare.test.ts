import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.js';
import { type DatabaseHandle, openPglite } from './client.js';
import { latestMigrationMillis, migrationsAfter, NewerDatabaseError } from './migration-journal.js';
import { needsPreparation, openPreparedPglite, prepareInChild } from './prepare.js';
import { itemTemplates } from './schema/items.js';
import { seedState } from './schema/seed-state.js';
import { seedFingerprint } from './seed.js';

/** What a newer build's migrator leaves behind: a migration later than this build's last. */
const recordNewerMigration = sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at)
    VALUES ('a-newer-build', ${latestMigrationMillis() + 1000})`;

// issue 13 §6: a restart with nothing to migrate or seed does neither.
describe('whether a start has work to do', () => {
  // One database never migrated for the two tests that need one (its initdb costs seconds): the test that
  // only reads it runs first, the one that migrates it last.
  let empty: DatabaseHandle;
  beforeAll(async () => {
    empty = await openPglite({});
  }, 60_000);
  afterAll(async () => {
    await empty.close();
  });

  it('has some on a database never migrated', async () => {
    expect(await needsPreparation(empty.db)).toBe(true);
  });

  describe('on a copy of the migrated template', () => {
    let database: DatabaseHandle;
    beforeEach(async () => {
      database = await openTestDatabase();
    });
    afterEach(async () => {
      await database.close();
    });

    it('has none on a migrated and seeded database', async () => {
      expect(await needsPreparation(database.db)).toBe(false);
    });

    it('has some when the last migration is not recorded as applied', async () => {
      await database.db.execute(
        sql`DELETE FROM drizzle.__drizzle_migrations
          WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
      );
      expect(await needsPreparation(database.db)).toBe(true);
    });

    it('has some when the seed data changed since the last seed', async () => {
      await database.db.update(seedState).set({ fingerprint: 'an older catalogue' });
      expect(await needsPreparation(database.db)).toBe(true);
      await database.db.delete(seedState);
      expect(await needsPreparation(database.db)).toBe(true);
    });

    it('refuses a database upgraded by a newer build, and migrates none of it', async () => {
      await database.db.execute(recordNewerMigration);
      await expect(needsPreparation(database.db)).rejects.toThrow(
        /^the database was upgraded by a newer version of Haversack .+; run that version or restore the backup/,
      );
      await expect(database.migrate()).rejects.toThrow(NewerDatabaseError);
    });

    it('answers the migrations it applied: all on an empty database, then none', async () => {
      expect(await database.migrate()).toEqual([]);
      const applied = await empty.migrate();
      expect(applied[0]).toBe('0000_accounts');
      expect(applied).toEqual(migrationsAfter(null));
      expect(await empty.migrate()).toEqual([]);
      // Those the migrator applies on a database one migration behind: the journal's last alone.
      expect(migrationsAfter(latestMigrationMillis() - 1)).toEqual([migrationsAfter(null).at(-1)]);
    }, 60_000);
  });
});

describe('opening the server’s PGlite', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-prepare-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const pgliteDir = path.join(dataDir, 'pglite');
  let children = 0;
  const countingChild = (dir: string) => {
    children += 1;
    return prepareInChild(dir);
  };
  /** What each start said before preparing: true for a database created, false for one updated. */
  const announced: boolean[] = [];
  const onPreparing = (created: boolean) => announced.push(created);

  it('prepares an empty directory in a child process, and a restart with nothing to do in none', async () => {
    const { database: first, appliedMigrations } = await openPreparedPglite(pgliteDir, {
      prepare: countingChild,
      onPreparing,
    });
    try {
      expect(children).toBe(1);
      expect(announced).toEqual([true]);
      // An empty directory: every migration of the journal, oldest first.
      expect(appliedMigrations).toEqual(migrationsAfter(null));
      expect(appliedMigrations[0]).toBe('0000_accounts');
      const [{ templates } = { templates: 0 }] = await first.db
        .select({ templates: count() })
        .from(itemTemplates);
      expect(templates).toBeGreaterThan(500);
      const [recorded] = await first.db.select().from(seedState);
      expect(recorded?.fingerprint).toBe(seedFingerprint());
      expect(await needsPreparation(first.db)).toBe(false);
      // A seed that changed since: the next start seeds again.
      await first.db.update(seedState).set({ fingerprint: 'an older catalogue' });
    } finally {
      await first.close();
    }

    const { database: second, appliedMigrations: appliedBySeeding } = await openPreparedPglite(pgliteDir, {
      prepare: countingChild,
      onPreparing,
    });
    try {
      expect(children).toBe(2);
      expect(announced).toEqual([true, false]);
      expect(appliedBySeeding).toEqual([]);
      const [recorded] = await second.db.select().from(seedState);
      expect(recorded?.fingerprint).toBe(seedFingerprint());
    } finally {
      await second.close();
    }

    const { database: third } = await openPreparedPglite(pgliteDir, { prepare: countingChild, onPreparing });
    try {
      expect(children).toBe(2);
      // Nothing to do, nothing said.
      expect(announced).toEqual([true, false]);
      expect(await needsPreparation(third.db)).toBe(false);
      // A newer build's migration recorded: this build refuses the directory, and leaves it as it was.
      await third.db.execute(recordNewerMigration);
    } finally {
      await third.close();
    }
    await expect(openPreparedPglite(pgliteDir, { prepare: countingChild })).rejects.toThrow(
      NewerDatabaseError,
    );
    expect(children).toBe(2);
  }, 300_000);

  it('fails with the child’s reason when the directory cannot be prepared', async () => {
    const notADirectory = path.join(dataDir, 'a-file');
    writeFileSync(notADirectory, 'not a database');
    await expect(openPreparedPglite(path.join(notADirectory, 'pglite'))).rejects.toThrow(
      /preparing the database failed \(exit code 1\): .*ENOTDIR/s,
    );
  }, 60_000);
});
