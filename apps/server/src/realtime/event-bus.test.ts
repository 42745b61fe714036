import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InProcessBroadcaster } from './broadcaster.js';
import { EventBus } from './event-bus.js';
import type { DomainEvent } from './events.js';

/** What each party stream received, in order. */
function listen(broadcaster: InProcessBroadcaster, partyId: string) {
  const received: { action: string; change?: unknown }[] = [];
  for (const stream of [`party:${partyId}`, `party_inventory:${partyId}`])
    broadcaster.subscribe(stream, (message) => received.push(message as never));
  return received;
}

const moved = (partyId: string): DomainEvent => ({
  channel: 'PartyInventoryChannel',
  partyId,
  action: 'item_moved',
  actor: { id: 'user-pip', name: 'Pip' },
  summary: 'Pip gave 1 × Rope to Brom',
  ids: { character_id: 'ch-pip', target_id: 'ch-brom', recipient_character_id: 'ch-brom' },
});
const activity = (partyId: string): DomainEvent => ({
  channel: 'PartyChannel',
  partyId,
  action: 'party_activity',
  actor: { id: 'user-pip', name: 'Pip' },
  summary: 'Pip gave 1 × Rope to Brom',
  ids: { character_id: 'ch-pip', target_id: 'ch-brom' },
});

describe('EventBus.publish', () => {
  it('stamps every message of one change with one change id, and another change with another', async () => {
    const broadcaster = new InProcessBroadcaster();
    const bus = new EventBus(broadcaster, pino({ level: 'silent' }));
    const received = listen(broadcaster, 'p1');
    const elsewhere = listen(broadcaster, 'p2');

    // One gift, told in the two parties it concerns (a row each, their ledger, their summaries).
    bus.publish([moved('p1'), activity('p1'), moved('p2')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.map((message) => message.action)).toEqual([
      'item_moved',
      'party_activity',
      'inventory_updated',
    ]);
    expect(elsewhere.map((message) => message.action)).toEqual(['item_moved', 'inventory_updated']);
    const [first] = received;
    expect(first?.change).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const message of [...received, ...elsewhere]) expect(message.change).toBe(first?.change);

    bus.publish([moved('p1')]);
    await new Promise((resolve) => setImmediate(resolve));
    const next = received.slice(3);
    expect(next.map((message) => message.action)).toEqual(['item_moved', 'inventory_updated']);
    expect(next[0]?.change).toEqual(next[1]?.change);
    expect(next[0]?.change).toEqual(expect.any(String));
    expect(next[0]?.change).not.toBe(first?.change);
  });

  it('keeps the fields of spec/02 §7 as they were, the change id beside them', async () => {
    const broadcaster = new InProcessBroadcaster();
    const bus = new EventBus(broadcaster, pino({ level: 'silent' }));
    const received = listen(broadcaster, 'p3');
    bus.publish([activity('p3')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      {
        action: 'party_activity',
        actor: { id: 'user-pip', name: 'Pip' },
        summary: 'Pip gave 1 × Rope to Brom',
        ids: { character_id: 'ch-pip', target_id: 'ch-brom' },
        party_id: 'p3',
        source: 'web',
        change: expect.any(String),
      },
    ]);
  });

  it('stamps nothing on what is no party change: a user’s notices and invitations', async () => {
    const broadcaster = new InProcessBroadcaster();
    const bus = new EventBus(broadcaster, pino({ level: 'silent' }));
    const notices: unknown[] = [];
    broadcaster.subscribe('notifications:user-1', (message) => notices.push(message));
    bus.noticesWritten(['user-1']);
    bus.invitationsChanged('user-1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(notices).toEqual([{ action: 'notification_created' }, { action: 'invitations_changed' }]);
  });
});
