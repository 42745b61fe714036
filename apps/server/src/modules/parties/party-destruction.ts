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
 * Locks what the deletion of parties destroys, in the order the operations on them take their locks: their
 * shops, then their loot, then all their containers and their own, with `alsoContainerIds` (an account's
 * characters' when the account goes), in id order. A purchase or a take holds its shop's or loot's row and
 * then waits for the containers; a deletion holding the containers and then deleting that row (the party's
 * rows cascade) would wait for it in turn, and PostgreSQL would end one of the two.
 */
export async function lockPartyHoldings(
  tx: Executor,
  partyIds: string[],
  alsoContainerIds: string[] = [],
): Promise<void> {
  const inOrder = [...new Set(partyIds)].sort();
  for (const partyId of inOrder) await shopsRepository.lockInstancesOfParty(tx, partyId);
  for (const partyId of inOrder) await lootRepository.lockInstancesOfParty(tx, partyId);
  const containerIds = [...alsoContainerIds];
  for (const partyId of inOrder) containerIds.push(...(await partyContainerIds(tx, partyId)));
  // One statement for all of them: lockContainers sorts the ids, so every container goes in id order.
  await inventoryRepository.lockContainers(tx, containerIds);
}

async function partyContainerIds(tx: Executor, partyId: string): Promise<string[]> {
  const stash = await inventoryRepository.listForOwner(tx, { partyId });
  const shopStock = await shopsRepository.shopContainerIdsOfParty(tx, partyId);
  const loot = await lootRepository.lootContainerIdsOfParty(tx, partyId);
  return [...stash.map((c) => c.id), ...shopStock, ...loot];
}
