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
    const targets = new Set(told.map(otherSide).filter((id) => id !== null && !characters.has(id)));
    // One character's ledger to refresh (and the other side's, as a gift's receiver), or none named when
    // the rows concern several.
    const [target] = targets;
    const named = characters.size === 1 && targets.size <= 1;
    events.push({
      channel: 'PartyChannel',
      partyId,
      action: 'party_activity',
      actor: first.actorId ? { id: first.actorId, name: first.actorName ?? '' } : null,
      summary: first.summary,
      ids: {
        character_id: named ? (first.characterId ?? null) : null,
        ...(named && target ? { target_id: target } : {}),
      },
      ...(visible.length === 0 ? { gmOnly: true } : {}),
    });
  }
  return events;
}

/**
 * The other side of a row, whose history lists it too: a character's history is the rows naming it as
 * their character or their target (LedgerService's characterRows), and a gift, a GM's move between two
 * characters' containers or a take into another's bag names the receiver as the target only. The party
 * (a deposit) and the row's own character (a purchase) are no other side, and are left out to keep events
 * small; a shop or a loot named there refreshes no history and costs one id.
 */
export function otherSide(entry: LedgerEntry): string | null {
  const target = entry.targetId ?? null;
  return target === null || target === entry.characterId || target === entry.partyId ? null : target;
}
