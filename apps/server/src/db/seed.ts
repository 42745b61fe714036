import { ItemsService } from '../modules/items/items.service.js';
import { LootService } from '../modules/loot/loot.service.js';
import { ShopsService } from '../modules/shops/shops.service.js';
import { subscriptionsRepository } from '../modules/subscriptions/subscriptions.repository.js';
import type { Database } from './client.js';

/** Seed data every start loads idempotently, after the migrations. */
export async function seedDatabase(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await subscriptionsRepository.seedTiers(tx);
    // DESIGN §4 coins and the SRD 5.1 catalogue (issue 5).
    await ItemsService.seedCatalogue(tx);
    // Public system shops built from that catalogue (issue 10).
    await ShopsService.seedCatalogue(tx);
    // Public system loot built from the same catalogue and the coins (issue 11).
    await LootService.seedCatalogue(tx);
  });
}
