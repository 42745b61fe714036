import type { DomainEvent } from '../../realtime/events.js';
import type { LedgerEntry } from './ledger.repository.js';

/**
 * spec/02 §7 PartyChannel `party_activity`: the party's activity log has new entries. One per committed
 * operation and party, whatever wrote the rows (moves, trades, deployments, loot, characters), so every
 * member's Activity tab refreshes, including for rows no inventory event announces. Rows only the GMs may
 * read (hidden loot) are announced to the GMs only; the summary is that of the first row the receivers may
 * read.
 */
export function partyActivityEvents(entries: LedgerEntry[]): DomainEvent[] {
  const byParty = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    if (!entry.partyId) continue;
    const group = byParty.get(entry.partyId) ?? [];
    group.push(entry);
    byParty.set(entry.partyId, group);
  }
  const events: DomainEvent[] = [];
  for (const [partyId, group] of byParty) {
    const visible = group.filter((entry) => !entry.gmOnly);
    const told = visible.length > 0 ? visible : group;
    const [first] = told;
    if (!first) continue;
    const characters = new Set(told.map((entry) => entry.characterId).filter(Boolean));
    events.push({
      channel: 'PartyChannel',
      partyId,
      action: 'party_activity',
      actor: first.actorId ? { id: first.actorId, name: first.actorName ?? '' } : null,
      summary: first.summary,
      // One character's ledger to refresh, or none named when the rows concern several.
      ids: { character_id: characters.size === 1 ? (first.characterId ?? null) : null },
      ...(visible.length === 0 ? { gmOnly: true } : {}),
    });
  }
  return events;
}
