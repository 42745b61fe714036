import { describe, expect, it } from 'vitest';
import { transactionKeys } from '../activity/api/transactions-api';
import { characterKeys } from '../characters/api/characters-api';
import { inventoryKeys } from '../inventory/api/inventory-api';
import { partyKeys } from '../parties/api/parties-api';
import { shopKeys } from '../shops/api/shops-api';
import { invalidationsFor, noticeFor, type PartyMessage } from './party-events';

const me = 'user-me';
const pip = { id: 'user-pip', name: 'Pip' };

function message(overrides: Partial<PartyMessage>): PartyMessage {
  return { action: 'item_added', party_id: 'p1', actor: pip, summary: 'Pip added Rope', ...overrides };
}

const keysOf = (m: PartyMessage) => invalidationsFor(m, 'p1');

describe('invalidationsFor', () => {
  it('refreshes both containers of a move, their owners, and the ledgers', () => {
    const moved = message({
      action: 'item_moved',
      ids: {
        item_instance_id: 'ii-1',
        source_container_id: 'c-src',
        destination_container_id: 'c-dst',
        character_id: 'ch-1',
      },
    });
    expect(keysOf(moved)).toEqual([
      { queryKey: inventoryKeys.container('c-src') },
      { queryKey: inventoryKeys.container('c-dst') },
      { queryKey: inventoryKeys.owner({ type: 'party', id: 'p1' }) },
      { queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-1' }) },
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.character('ch-1') },
    ]);
  });

  it('names a container once when source and destination are the same, and skips missing ids', () => {
    const updated = message({
      action: 'item_updated',
      ids: { source_container_id: 'c-1', destination_container_id: 'c-1', character_id: null },
    });
    expect(keysOf(updated)).toEqual([
      { queryKey: inventoryKeys.container('c-1') },
      { queryKey: inventoryKeys.owner({ type: 'party', id: 'p1' }) },
      { queryKey: transactionKeys.party('p1') },
    ]);
  });

  it('refreshes the shop and the party’s shop lists for shop events', () => {
    for (const action of ['shop_deployed', 'shop_updated', 'shop_closed']) {
      expect(keysOf(message({ action, ids: { shop_instance_id: 'shop-1' } }))).toEqual([
        { queryKey: shopKeys.instance('shop-1') },
        { queryKey: shopKeys.partyShops('p1') },
        { queryKey: [...shopKeys.instances(), 'list'] },
      ]);
    }
  });

  it('refreshes the buyer’s container and the shop’s stock after a trade', () => {
    const traded = message({
      action: 'item_traded',
      ids: { shop_instance_id: 'shop-1', destination_container_id: 'c-buyer', character_id: 'ch-1' },
    });
    const keys = keysOf(traded);
    expect(keys).toContainEqual({ queryKey: inventoryKeys.container('c-buyer') });
    expect(keys).toContainEqual({ queryKey: shopKeys.instance('shop-1') });
    expect(keys).toContainEqual({ queryKey: shopKeys.partyShops('p1') });
    expect(keys).toContainEqual({ queryKey: transactionKeys.character('ch-1') });
  });

  it('refreshes the party, its members and characters for membership events', () => {
    for (const action of ['member_added', 'member_removed', 'member_role_changed']) {
      expect(keysOf(message({ action, actor: null }))).toEqual([
        { queryKey: partyKeys.detail('p1'), exact: true },
        { queryKey: partyKeys.members('p1') },
        { queryKey: characterKeys.party('p1') },
      ]);
    }
  });

  it('refreshes only the party itself for party_updated', () => {
    expect(keysOf(message({ action: 'party_updated' }))).toEqual([
      { queryKey: partyKeys.detail('p1'), exact: true },
    ]);
  });

  it('refreshes the party characters and the character for character events', () => {
    expect(keysOf(message({ action: 'character_updated', ids: { character_id: 'ch-2' } }))).toEqual([
      { queryKey: partyKeys.detail('p1'), exact: true },
      { queryKey: characterKeys.party('p1') },
      { queryKey: characterKeys.detail('ch-2') },
    ]);
  });

  it('refreshes nothing for presence, test_connection or an unknown action', () => {
    expect(keysOf(message({ action: 'presence_update', online_users: [] }))).toEqual([]);
    expect(keysOf(message({ action: 'test_connection' }))).toEqual([]);
    expect(keysOf(message({ action: 'something_new' }))).toEqual([]);
  });
});

describe('noticeFor', () => {
  it('tells me "{name} updated inventory" for 3 s when someone else changes it', () => {
    expect(noticeFor(message({ action: 'item_moved' }), me)).toEqual({
      message: 'Pip updated inventory',
      duration: 3_000,
    });
  });

  it('says nothing about my own changes, or changes without an actor', () => {
    expect(noticeFor(message({ actor: { id: me, name: 'Me' } }), me)).toBeNull();
    expect(noticeFor(message({ actor: null }), me)).toBeNull();
  });

  it('announces others joining and leaving for 2 s, on PartyChannel only', () => {
    const joined = message({
      action: 'presence_changed',
      change_type: 'joined',
      user_id: pip.id,
      online_users: [{ id: pip.id, username: 'Pip' }],
    });
    expect(noticeFor(joined, me)).toEqual({ message: 'Pip joined the party', duration: 2_000 });
    expect(noticeFor({ ...joined, change_type: 'left', actor: null, online_users: [] }, me)).toEqual({
      message: 'User left the party',
      duration: 2_000,
    });
    // The inventory channel's copy of the same change and the snapshot make no second notice.
    expect(noticeFor({ ...joined, action: 'presence_update' }, me)).toBeNull();
    expect(noticeFor({ ...joined, change_type: 'snapshot' }, me)).toBeNull();
  });

  it('does not announce my own arrival', () => {
    expect(
      noticeFor(message({ action: 'presence_changed', change_type: 'joined', user_id: me, actor: null }), me),
    ).toBeNull();
  });

  it('makes no notice for membership or party events', () => {
    expect(noticeFor(message({ action: 'member_added' }), me)).toBeNull();
    expect(noticeFor(message({ action: 'party_updated' }), me)).toBeNull();
  });
});
