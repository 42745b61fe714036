import { describe, expect, it } from 'vitest';
import { eventFromLedger } from '../modules/inventory/inventory-events.js';
import type { LedgerEntry } from '../modules/ledger/ledger.repository.js';
import { partyActivityEvents } from '../modules/ledger/ledger-events.js';
import type { DomainEvent } from './events.js';
import { inventorySummaries } from './party-summaries.js';

const pip = { id: 'u-pip', name: 'Pip' };

function rowEvent(overrides: Partial<DomainEvent>): DomainEvent {
  return {
    channel: 'PartyInventoryChannel',
    partyId: 'p1',
    action: 'item_moved',
    actor: pip,
    summary: 'Pip moved 1 × Rope from Backpack to Stash',
    ids: { character_id: 'ch-1' },
    ...overrides,
  };
}

function row(overrides: Partial<LedgerEntry>): LedgerEntry {
  return {
    transactionType: 'transfer',
    partyId: 'p1',
    characterId: 'ch-1',
    actorId: 'u-pip',
    actorName: 'Pip',
    summary: 'Pip moved 1 × Rope',
    ...overrides,
  };
}

describe('inventorySummaries (PartyChannel inventory_updated)', () => {
  it('sums up one operation in one message per party, with the first change’s actor and summary', () => {
    const summaries = inventorySummaries([
      rowEvent({ action: 'item_updated', summary: 'Pip converted 20 cp into 2 sp' }),
      rowEvent({ action: 'item_updated', summary: 'Pip converted 20 cp into 2 sp' }),
      rowEvent({ partyId: 'p2', action: 'item_added', summary: 'Pip added Rope' }),
    ]);
    expect(summaries).toEqual([
      {
        channel: 'PartyChannel',
        partyId: 'p1',
        action: 'inventory_updated',
        actor: pip,
        summary: 'Pip converted 20 cp into 2 sp',
        ids: { character_id: 'ch-1' },
      },
      expect.objectContaining({ partyId: 'p2', action: 'inventory_updated', summary: 'Pip added Rope' }),
    ]);
  });

  it('passes a gift’s receiver on, names no character when several changed, and ignores other events', () => {
    const [summary] = inventorySummaries([
      rowEvent({ ids: { character_id: 'ch-1' } }),
      rowEvent({
        ids: {
          character_id: 'ch-2',
          recipient_character_id: 'ch-3',
          recipient_user_id: 'u-3',
          recipient_notice: 'Pip gave you 1 × Rope',
        },
      }),
      rowEvent({ action: 'loot_taken' }),
      rowEvent({ channel: 'PartyChannel', action: 'character_updated' }),
    ]);
    expect(summary?.ids).toEqual({
      character_id: null,
      recipient_character_id: 'ch-3',
      recipient_user_id: 'u-3',
      recipient_notice: 'Pip gave you 1 × Rope',
    });
    expect(inventorySummaries([rowEvent({ action: 'shop_updated' })])).toEqual([]);
  });

  it('passes on the player of the character someone else took items out of (review newgm M1)', () => {
    const [summary] = inventorySummaries([
      rowEvent({
        ids: {
          character_id: 'ch-1',
          source_owner_user_id: 'u-1',
          source_owner_notice: 'Gwen gave 1 × Rope from Pip to Brom',
        },
      }),
    ]);
    expect(summary?.ids).toEqual({
      character_id: 'ch-1',
      source_owner_user_id: 'u-1',
      source_owner_notice: 'Gwen gave 1 × Rope from Pip to Brom',
    });
  });

  it('keeps a change only the GMs may hear for the GMs', () => {
    expect(inventorySummaries([rowEvent({ gmOnly: true })])).toEqual([
      expect.objectContaining({ action: 'inventory_updated', gmOnly: true }),
    ]);
  });
});

describe('partyActivityEvents (PartyChannel party_activity)', () => {
  it('announces the rows of one operation once per party, and nothing for rows outside parties', () => {
    const events = partyActivityEvents([
      row({ summary: 'Pip bought 2 × Rope' }),
      row({ summary: 'Pip bought 2 × Rope', characterId: null }),
      row({ partyId: null, summary: 'Pip tidied a bag' }),
      row({ partyId: 'p2', characterId: 'ch-9', summary: 'Pip sold a gem' }),
    ]);
    expect(events).toEqual([
      {
        channel: 'PartyChannel',
        partyId: 'p1',
        action: 'party_activity',
        actor: pip,
        summary: 'Pip bought 2 × Rope',
        ids: { character_id: 'ch-1' },
      },
      expect.objectContaining({ partyId: 'p2', ids: { character_id: 'ch-9' } }),
    ]);
    expect(partyActivityEvents([row({ partyId: null })])).toEqual([]);
  });

  it('tells players only of rows they may read, and the GMs alone of hidden loot', () => {
    const [mixed] = partyActivityEvents([
      row({ gmOnly: true, summary: 'Pip deployed Goblin Hoard' }),
      row({ summary: 'Pip moved 1 × Rope' }),
    ]);
    expect(mixed).toMatchObject({ summary: 'Pip moved 1 × Rope' });
    expect(mixed?.gmOnly).toBeUndefined();
    expect(partyActivityEvents([row({ gmOnly: true, characterId: null, actorId: null })])).toEqual([
      expect.objectContaining({ gmOnly: true, actor: null, ids: { character_id: null } }),
    ]);
  });

  it('names both sides of a move between characters, and no character when the rows concern several', () => {
    const [gift] = partyActivityEvents([row({ characterId: 'ch-1', targetId: 'ch-2' })]);
    expect(gift?.ids).toEqual({ character_id: 'ch-1', target_id: 'ch-2' });
    // The party (a deposit) and the character itself (a purchase) are no other side.
    const [deposit] = partyActivityEvents([row({ targetId: 'p1' }), row({ targetId: 'ch-1' })]);
    expect(deposit?.ids).toEqual({ character_id: 'ch-1' });
    const [spread] = partyActivityEvents([
      row({ characterId: 'ch-1', targetId: 'ch-2' }),
      row({ characterId: 'ch-1', targetId: 'ch-3' }),
    ]);
    expect(spread?.ids).toEqual({ character_id: null });
  });
});

describe('eventFromLedger (PartyInventoryChannel)', () => {
  it('announces a row that changed a container, and not a note that changed none', () => {
    expect(
      eventFromLedger(row({ transactionType: 'party_deposit', destinationContainerId: 'c-1' })),
    ).toMatchObject({
      channel: 'PartyInventoryChannel',
      action: 'item_moved',
    });
    expect(eventFromLedger(row({ transactionType: 'create', itemTemplateId: 't-1' }))?.action).toBe(
      'item_added',
    );
    expect(eventFromLedger(row({ transactionType: 'adjust', summary: 'GM: the inn cost 30 gp' }))).toBeNull();
  });

  // A character's history lists the rows naming it as their character or their target (a gift names the
  // giver's character and targets the receiver's): both sides' histories refresh.
  it('names the row’s target when it is neither the row’s character nor its party', () => {
    const gift = row({
      transactionType: 'character_to_character_transfer',
      characterId: 'ch-1',
      targetId: 'ch-2',
      sourceContainerId: 'c-1',
      destinationContainerId: 'c-2',
    });
    expect(eventFromLedger(gift)?.ids).toMatchObject({ character_id: 'ch-1', target_id: 'ch-2' });
    const deposit = row({ transactionType: 'party_deposit', targetId: 'p1', destinationContainerId: 'c-1' });
    expect(eventFromLedger(deposit)?.ids).not.toHaveProperty('target_id');
    const bought = row({ transactionType: 'purchase', targetId: 'ch-1', destinationContainerId: 'c-1' });
    expect(eventFromLedger(bought)?.ids).not.toHaveProperty('target_id');
  });
});
