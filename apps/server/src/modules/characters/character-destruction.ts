import type { Executor } from '../../db/client.js';
import { containersRepository } from '../containers/containers.repository.js';
import { destroyContainerContents, type LedgerActor } from '../inventory/inventory-ledger.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { type CharacterRow, charactersRepository } from './characters.repository.js';

/**
 * Deletes a character inside the caller's transaction, the one way a character ever goes: its gear goes
 * with it, one ledger row per stack, so replaying the ledger empties its containers. Used by the owner's
 * own delete and by an admin deleting the owner's account. Returns the ledger rows written.
 */
export async function destroyCharacter(
  tx: Executor,
  character: CharacterRow,
  actor: LedgerActor,
  /** Why it went, when not its owner's choice alone ("their account was deleted"). */
  because?: string,
): Promise<LedgerEntry[]> {
  const owned = await containersRepository.listForCharacter(tx, character.id);
  const base = {
    partyId: character.partyId,
    characterId: character.id,
    actorId: actor.id,
    actorName: actor.username,
    targetName: character.name,
    targetId: character.id,
  };
  await destroyContainerContents(
    tx,
    owned.map((c) => c.id),
    actor,
    'character_deletion',
    {
      partyId: character.partyId,
      characterId: character.id,
      targetName: character.name,
      targetId: character.id,
      ownerName: character.name,
    },
  );
  const rows: LedgerEntry[] = [
    ...owned.map((container) => ({
      ...base,
      transactionType: 'container_deletion',
      sourceContainerId: container.id,
      sourceName: `${container.name} (${character.name})`,
      summary: `${actor.username} deleted ${container.name} of ${character.name}`,
    })),
    {
      ...base,
      transactionType: 'character_deletion',
      summary: `${actor.username} deleted ${character.name}${because ? `: ${because}` : ''}`,
    },
  ];
  await ledgerRepository.record(tx, rows);
  await charactersRepository.delete(tx, character.id);
  return rows;
}
