import type { Executor } from '../../db/client.js';
import { inventoryRepository } from '../inventory/inventory.repository.js';
import { destroyContainerContents, type LedgerActor } from '../inventory/inventory-ledger.js';
import { lootRepository } from '../loot/loot.repository.js';
import { shopsRepository } from '../shops/shops.repository.js';
import { type PartyRow, partiesRepository } from './parties.repository.js';

/**
 * Deletes a party inside the caller's transaction. The party's own containers, its shops' stock and its
 * loot go with it, one ledger row per stack (their rows and containers cascade with the party);
 * characters keep their gear and simply leave the party.
 */
export async function destroyParty(tx: Executor, party: PartyRow, actor: LedgerActor): Promise<void> {
  const stash = await inventoryRepository.listForOwner(tx, { partyId: party.id });
  const shopStock = await shopsRepository.shopContainerIdsOfParty(tx, party.id);
  const loot = await lootRepository.lootContainerIdsOfParty(tx, party.id);
  await destroyContainerContents(
    tx,
    [...stash.map((c) => c.id), ...shopStock, ...loot],
    actor,
    'container_deletion',
    { partyId: party.id, characterId: null, targetName: party.name },
  );
  await partiesRepository.deleteParty(tx, party.id);
}
