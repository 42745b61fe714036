import type { DomainEvent } from '../../realtime/events.js';
import type { LedgerEntry } from '../ledger/ledger.repository.js';
import { otherSide } from '../ledger/ledger-events.js';

/** spec/02 §7 PartyInventoryChannel actions, by ledger transaction type. */
const actionByType: Record<string, string> = {
  item_creation: 'item_added',
  create: 'item_added',
  item_destruction: 'item_removed',
  delete: 'item_removed',
  character_deletion: 'item_removed',
  transfer: 'item_moved',
  character_to_character_transfer: 'item_moved',
  character_to_party_transfer: 'item_moved',
  party_to_character_transfer: 'item_moved',
  party_deposit: 'item_moved',
  party_withdraw: 'item_moved',
  adjust: 'item_updated',
  split: 'item_updated',
  merge: 'item_updated',
  currency_conversion: 'item_updated',
  container_creation: 'party_inventory_updated',
  container_deletion: 'party_inventory_updated',
};

/** The real-time event a ledger row announces to its party, if it concerns one. */
export function eventFromLedger(entry: LedgerEntry): DomainEvent | null {
  if (!entry.partyId) return null;
  // A row naming no item and no container (a GM's note in the ledger) changed no inventory: the party hears
  // of it as activity only (ledger-events.ts).
  if (!entry.itemTemplateId && !entry.sourceContainerId && !entry.destinationContainerId) return null;
  const action = actionByType[entry.transactionType] ?? 'party_inventory_updated';
  const target = otherSide(entry);
  return {
    channel: 'PartyInventoryChannel',
    partyId: entry.partyId,
    action,
    actor: entry.actorId ? { id: entry.actorId, name: entry.actorName ?? '' } : null,
    summary: entry.summary,
    ids: {
      item_instance_id: entry.itemInstanceId ?? null,
      item_template_id: entry.itemTemplateId ?? null,
      source_container_id: entry.sourceContainerId ?? null,
      destination_container_id: entry.destinationContainerId ?? null,
      character_id: entry.characterId ?? null,
      // The other character whose history and containers the move changed (ledger-events.ts).
      ...(target ? { target_id: target } : {}),
      ...recipientIds(entry.details),
    },
  };
}

/**
 * An edit of a stack that writes no ledger row (its name, notes, value or attunement: the spec's ledger has
 * no type for them) still changes what the party's screens show, its wealth table included: item_updated.
 */
export function itemEditedEvent(entry: LedgerEntry): DomainEvent | null {
  return eventFromLedger({ ...entry, transactionType: 'adjust' });
}

/**
 * A gift (InventoryService.give) also names its receiver, so that their screens refresh and tell them; a
 * give or move someone else made out of a character names that character's player, who is told too.
 */
function recipientIds(details: LedgerEntry['details']): Record<string, string> {
  const keys = [
    'recipient_character_id',
    'recipient_user_id',
    'recipient_notice',
    'source_owner_user_id',
    'source_owner_notice',
  ] as const;
  const ids: Record<string, string> = {};
  for (const key of keys) {
    const value = details?.[key];
    if (typeof value === 'string') ids[key] = value;
  }
  return ids;
}
