import type { DomainEvent } from './events.js';

/** spec/02 §7 PartyInventoryChannel actions that change what is in a party's containers. */
const inventoryChangeActions = new Set([
  'item_added',
  'item_removed',
  'item_moved',
  'item_updated',
  'item_traded',
  'party_inventory_updated',
]);

/**
 * Ids an `inventory_updated` passes on from the changes it sums up: a gift's receiver is told who gave what,
 * and the player of a character someone else took items out of is told who moved what.
 */
const carriedIds = [
  'recipient_character_id',
  'recipient_user_id',
  'recipient_notice',
  'source_owner_user_id',
  'source_owner_notice',
] as const;

/**
 * spec/02 §7 PartyChannel `inventory_updated`: one per committed operation and party, summing up the
 * PartyInventoryChannel changes the operation made there (a conversion writes two rows, emptying a
 * container one per stack). It carries the "{name} updated inventory" notice of spec/02 §8, so a change is
 * announced once however many rows it wrote; the inventory channel's events keep the per-row detail that
 * refreshes each container. Changes only the GMs may hear are summed up for the GMs only.
 */
export function inventorySummaries(events: DomainEvent[]): DomainEvent[] {
  const byParty = new Map<string, DomainEvent[]>();
  for (const event of events) {
    if (event.channel !== 'PartyInventoryChannel' || !inventoryChangeActions.has(event.action)) continue;
    const group = byParty.get(event.partyId) ?? [];
    group.push(event);
    byParty.set(event.partyId, group);
  }
  const summaries: DomainEvent[] = [];
  for (const [partyId, group] of byParty) {
    const visible = group.filter((event) => !event.gmOnly);
    const told = visible.length > 0 ? visible : group;
    const [first] = told;
    if (!first) continue;
    const characters = new Set(told.map((event) => event.ids?.character_id).filter(Boolean));
    const ids: Record<string, string | null> = {
      character_id: characters.size === 1 ? (first.ids?.character_id ?? null) : null,
    };
    for (const key of carriedIds) {
      const value = told.find((event) => event.ids?.[key])?.ids?.[key];
      if (value) ids[key] = value;
    }
    summaries.push({
      channel: 'PartyChannel',
      partyId,
      action: 'inventory_updated',
      actor: first.actor,
      summary: first.summary,
      ids,
      ...(visible.length === 0 ? { gmOnly: true } : {}),
    });
  }
  return summaries;
}
