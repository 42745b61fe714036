import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { type SystemTemplate, systemTemplates } from '../modules/items/items.catalogue.js';
import { ItemsService } from '../modules/items/items.service.js';
import { systemLoot } from '../modules/loot/loot.catalogue.js';
import { LootService } from '../modules/loot/loot.service.js';
import { systemShops } from '../modules/shops/shops.catalogue.js';
import { ShopsService } from '../modules/shops/shops.service.js';
import { subscriptionsRepository } from '../modules/subscriptions/subscriptions.repository.js';
import { tierCatalogue } from '../modules/subscriptions/tier-catalogue.js';
import type { Database, Executor } from './client.js';
import { seedState } from './schema/seed-state.js';
import { catalogueChanges, readSystemCatalogue, type SeedChanges } from './seed-changes.js';

/** Bump when the seeding code changes what it writes from the same inputs. */
const SEED_CODE_VERSION = 1;
const CATALOGUE = 'catalogue';

let cachedFingerprint: string | undefined;

/**
 * The fingerprint of the bundled server's build, computed by scripts/bundle-server.mjs from the same
 * modules when it bundles them: a restart then skips loading and hashing the catalogue (some 40 ms of
 * it, issue 13 §6). Unset (undeclared) when the sources run unbundled (tests, `npm run dev`).
 */
declare const __HAVERSACK_SEED_FINGERPRINT__: string | undefined;

/** A hash of everything the seed writes from: equal fingerprints mean the seed would change nothing. */
export function seedFingerprint(): string {
  // The inputs are constants of this build: hash the 578 catalogue items once per process at most.
  cachedFingerprint ??=
    typeof __HAVERSACK_SEED_FINGERPRINT__ === 'string'
      ? __HAVERSACK_SEED_FINGERPRINT__
      : computeSeedFingerprint();
  return cachedFingerprint;
}

/** `items` is the catalogue this build seeds; a test passes another build's to compare fingerprints. */
export function computeSeedFingerprint(items: SystemTemplate[] = systemTemplates()): string {
  const inputs = {
    version: SEED_CODE_VERSION,
    tiers: tierCatalogue,
    items,
    shops: systemShops,
    loot: systemLoot,
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

/** Whether the last seed recorded this build's fingerprint, i.e. seedDatabase would skip. */
export async function isSeedCurrent(db: Executor): Promise<boolean> {
  const [recorded] = await db
    .select({ fingerprint: seedState.fingerprint })
    .from(seedState)
    .where(eq(seedState.name, CATALOGUE));
  return recorded?.fingerprint === seedFingerprint();
}

export type SeedOutcome = { status: 'seeded'; changes: SeedChanges } | { status: 'unchanged' };

/**
 * Seed data loaded idempotently after the migrations. A start whose seed inputs match what the last
 * seed recorded skips it (issue 13 §6: restarts cost no catalogue upsert); `force` runs it anyway, to
 * repair rows edited by hand. A seed answers what it changed in templates that existed before it.
 */
export async function seedDatabase(db: Database, options: { force?: boolean } = {}): Promise<SeedOutcome> {
  const fingerprint = seedFingerprint();
  return db.transaction(async (tx) => {
    // One seeder at a time: a second process starting at once waits, then finds the work done.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('haversack:seed'))`);
    const [recorded] = await tx.select().from(seedState).where(eq(seedState.name, CATALOGUE));
    if (!options.force && recorded?.fingerprint === fingerprint) return { status: 'unchanged' };
    const before = await readSystemCatalogue(tx);
    await subscriptionsRepository.seedTiers(tx);
    // DESIGN §4 coins and the SRD 5.1 catalogue (issue 5).
    await ItemsService.seedCatalogue(tx);
    // Public system shops built from that catalogue (issue 10).
    await ShopsService.seedCatalogue(tx);
    // Public system loot built from the same catalogue and the coins (issue 11).
    await LootService.seedCatalogue(tx);
    await tx
      .insert(seedState)
      .values({ name: CATALOGUE, fingerprint })
      .onConflictDoUpdate({ target: seedState.name, set: { fingerprint, seededAt: sql`now()` } });
    return { status: 'seeded', changes: catalogueChanges(before, await readSystemCatalogue(tx)) };
  });
}
