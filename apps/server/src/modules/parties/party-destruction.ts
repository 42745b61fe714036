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
  await destroyContainerContents(tx, await partyContainerIds(tx, party.id), actor, 'container_deletion', {
    partyId: party.id,
    characterId: null,
    targetName: party.name,
    targetId: party.id,
  });
  await partiesRepository.deleteParty(tx, party.id);
}

/**
 * Locks what a party's deletion destroys, in the order the operations on them take their locks: its shops,
 * then its loot, then all their containers and its own, in id order. A purchase or a take holds its shop's
 * or loot's row and then waits for the containers; a deletion holding the containers and then deleting
 * that row (the party's rows cascade) would wait for it in turn, and PostgreSQL would end one of the two.
 */
export async function lockPartyHoldings(tx: Executor, partyId: string): Promise<void> {
  await shopsRepository.lockInstancesOfParty(tx, partyId);
  await lootRepository.lockInstancesOfParty(tx, partyId);
  await inventoryRepository.lockContainers(tx, await partyContainerIds(tx, partyId));
}

async function partyContainerIds(tx: Executor, partyId: string): Promise<string[]> {
  const stash = await inventoryRepository.listForOwner(tx, { partyId });
  const shopStock = await shopsRepository.shopContainerIdsOfParty(tx, partyId);
  const loot = await lootRepository.lootContainerIdsOfParty(tx, partyId);
  return [...stash.map((c) => c.id), ...shopStock, ...loot];
}
