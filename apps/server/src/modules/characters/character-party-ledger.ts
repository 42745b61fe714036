import { formatEnUs } from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
import { inventoryRepository } from '../inventory/inventory.repository.js';
import type { LedgerActor } from '../inventory/inventory-ledger.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';

/** Why a party's ledger names a character's gear that did not move (`details.reason`, the action's kind). */
export type PartyChange = 'joined_party' | 'left_party';

/**
 * A character coming into a party or going out of it, in the caller's transaction (its party_id changes
 * there too): the party's ledger says what it brought or took, one row per stack its containers hold, so
 * that the party's record accounts for what it holds; a character with nothing says only that it came or
 * went, in one row without an item (as a GM's note is). The rows are `adjust` rows from the stack's
 * container into itself: the gear stayed where it was, so a replay of the ledger skips them, Undo offers
 * nothing, and (no `scope`) no monthly allowance counts them. The character's containers are locked, so
 * the rows say exactly what it held at that moment. Returns the rows written.
 */
export async function recordPartyChange(
  tx: Executor,
  character: { id: string; name: string },
  partyId: string,
  change: PartyChange,
  actor: LedgerActor,
): Promise<LedgerEntry[]> {
  const owned = await inventoryRepository.listForCharacters(tx, [character.id]);
  await inventoryRepository.lockContainers(
    tx,
    owned.map((container) => container.id),
  );
  const base = {
    transactionType: 'adjust',
    partyId,
    characterId: character.id,
    actorId: actor.id,
    actorName: actor.username,
    targetName: character.name,
    targetId: character.id,
    details: { reason: change },
  } satisfies Omit<LedgerEntry, 'summary'>;
  const lead = change === 'joined_party' ? 'joined the party carrying' : 'left the party with';
  const rows: LedgerEntry[] = [];
  for (const container of owned) {
    const stacks = await inventoryRepository.allInstances(tx, container.id);
    const withTemplates = await inventoryRepository.instancesWithTemplates(
      tx,
      stacks.map((stack) => stack.id),
    );
    withTemplates.sort(
      (a, b) =>
        a.instance.createdAt.getTime() - b.instance.createdAt.getTime() ||
        a.instance.id.localeCompare(b.instance.id),
    );
    const where = `${container.name} (${character.name})`;
    for (const { instance, template } of withTemplates) {
      const name = (instance.instanceData.name_override as string | undefined) ?? template.name;
      rows.push({
        ...base,
        itemTemplateId: template.id,
        itemInstanceId: instance.id,
        itemName: name,
        quantity: instance.quantity,
        sourceContainerId: container.id,
        sourceName: where,
        destinationContainerId: container.id,
        destinationName: where,
        summary: `${character.name} ${lead} ${formatEnUs(instance.quantity)} × ${name}`,
      });
    }
  }
  if (rows.length === 0)
    rows.push({
      ...base,
      summary: `${character.name} ${change === 'joined_party' ? 'joined the party' : 'left the party'}`,
    });
  await ledgerRepository.record(tx, rows);
  return rows;
}
