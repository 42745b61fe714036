import { describe, expect, it } from 'vitest';
import { transactionKeys } from '../activity/api/transactions-api';
import { characterKeys } from '../characters/api/characters-api';
import { wealthKeys } from '../characters/api/wealth-api';
import { inventoryKeys } from '../inventory/api/inventory-api';
import { lootKeys } from '../loot/api/loot-api';
import { partyKeys } from '../parties/api/parties-api';
import { shopKeys } from '../shops/api/shops-api';
import { subscriptionKeys } from '../subscription/api/subscription-api';
import { invalidationsFor, noticeFor, type PartyMessage, resyncInvalidations } from './party-events';

const me = 'user-me';
const pip = { id: 'user-pip', name: 'Pip' };

function message(overrides: Partial<PartyMessage>): PartyMessage {
  return { action: 'item_added', party_id: 'p1', actor: pip, summary: 'Pip added Rope', ...overrides };
}

const keysOf = (m: PartyMessage) => invalidationsFor(m, 'p1');
const sameKey = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);

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
    const lists = [
      { queryKey: shopKeys.instance('shop-1') },
      { queryKey: shopKeys.partyShops('p1') },
      { queryKey: [...shopKeys.instances(), 'list'] },
    ];
    expect(keysOf(message({ action: 'shop_updated', ids: { shop_instance_id: 'shop-1' } }))).toEqual(lists);
    // A shop deployed or removed also moves its GM's count against the plan (My Content), and only that one.
    for (const action of ['shop_deployed', 'shop_closed']) {
      expect(keysOf(message({ action, ids: { shop_instance_id: 'shop-1' } }))).toEqual([
        ...lists,
        { queryKey: subscriptionKeys.contentUsage(), exact: true },
      ]);
    }
  });

  it('refreshes the container a GM stocked a shop from, with its owner and the ledgers', () => {
    const stocked = message({
      action: 'shop_updated',
      ids: { shop_instance_id: 'shop-1', source_container_id: 'c-gm', character_id: 'ch-gm' },
    });
    expect(keysOf(stocked)).toEqual([
      { queryKey: shopKeys.instance('shop-1') },
      { queryKey: shopKeys.partyShops('p1') },
      { queryKey: [...shopKeys.instances(), 'list'] },
      { queryKey: inventoryKeys.container('c-gm') },
      { queryKey: inventoryKeys.owner({ type: 'party', id: 'p1' }) },
      { queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-gm' }) },
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.character('ch-gm') },
    ]);
  });

  it('refreshes the container a GM took stock back into, with its owner and the ledgers', () => {
    const taken = message({
      action: 'shop_updated',
      ids: { shop_instance_id: 'shop-1', destination_container_id: 'c-stash', character_id: null },
    });
    expect(keysOf(taken)).toEqual([
      { queryKey: shopKeys.instance('shop-1') },
      { queryKey: shopKeys.partyShops('p1') },
      { queryKey: [...shopKeys.instances(), 'list'] },
      { queryKey: inventoryKeys.container('c-stash') },
      { queryKey: inventoryKeys.owner({ type: 'party', id: 'p1' }) },
      { queryKey: transactionKeys.party('p1') },
    ]);
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

  it('refreshes every container, ledger and the loot received after a split sale, and not after a plain one', () => {
    const ids = { shop_instance_id: 'shop-1', source_container_id: 'c-gm', character_id: 'ch-gm' };
    const plain = keysOf(message({ action: 'item_traded', ids }));
    const split = keysOf(message({ action: 'item_traded', ids: { ...ids, split_sale: 'true' } }));
    for (const key of [inventoryKeys.all, transactionKeys.all, lootKeys.summary('p1')]) {
      expect(split).toContainEqual({ queryKey: key });
      expect(plain).not.toContainEqual({ queryKey: key });
    }
  });

  // A character's history lists the rows naming it as their character or their target: a gift (or a GM's
  // move from one character's bag to another's) refreshes both sides' containers and histories.
  it('refreshes the other side’s containers and history after a move between characters', () => {
    const gift = message({
      action: 'item_moved',
      ids: {
        source_container_id: 'c-aria',
        destination_container_id: 'c-borin',
        character_id: 'ch-aria',
        target_id: 'ch-borin',
        recipient_character_id: 'ch-borin',
      },
    });
    const moved = message({
      action: 'item_moved',
      ids: { source_container_id: 'c-aria', character_id: 'ch-aria', target_id: 'ch-borin' },
    });
    // A server from before `target_id` names a gift's receiver only.
    const older = message({
      action: 'item_moved',
      ids: { character_id: 'ch-aria', recipient_character_id: 'ch-borin' },
    });
    for (const event of [gift, moved, older]) {
      const keys = keysOf(event);
      for (const id of ['ch-aria', 'ch-borin']) {
        expect(keys.filter(({ queryKey }) => sameKey(queryKey, transactionKeys.character(id)))).toHaveLength(
          1,
        );
        const owner = inventoryKeys.owner({ type: 'character', id });
        expect(keys.filter(({ queryKey }) => sameKey(queryKey, owner))).toHaveLength(1);
      }
    }
  });

  it('refreshes the party’s and the character’s wealth after an inventory change (issue 12)', () => {
    const keys = keysOf(message({ action: 'item_moved', ids: { character_id: 'ch-1' } }));
    const covers = (key: readonly unknown[]) =>
      keys.some(({ queryKey, exact }) => !exact && queryKey.every((part, i) => part === key[i]));
    expect(covers(wealthKeys.party('p1'))).toBe(true);
    expect(covers(wealthKeys.character('ch-1'))).toBe(true);
    expect(covers(wealthKeys.character('ch-other'))).toBe(false);
  });

  it('refreshes the party, its members and characters for membership events', () => {
    const membership = [
      { queryKey: partyKeys.detail('p1'), exact: true },
      { queryKey: partyKeys.members('p1') },
      { queryKey: characterKeys.party('p1') },
      { queryKey: wealthKeys.party('p1') },
      { queryKey: partyKeys.eligible('p1') },
    ];
    for (const action of ['member_added', 'member_removed'])
      expect(keysOf(message({ action, actor: null }))).toEqual(membership);
    // A new role changes what its member may do with the party's containers: they are asked for again.
    // A new GM sees hidden loot, GM-only ledger rows and every purchase request at once.
    expect(keysOf(message({ action: 'member_role_changed', actor: null }))).toEqual([
      ...membership,
      { queryKey: inventoryKeys.all },
      { queryKey: lootKeys.partyLoot('p1') },
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.characters() },
      { queryKey: shopKeys.instances() },
    ]);
  });

  it('refreshes the party, what its containers allow and the characters naming it for party_updated', () => {
    // Archived (or back) turns every container read-only (or back); renamed, the character pages say so.
    expect(keysOf(message({ action: 'party_updated' }))).toEqual([
      { queryKey: partyKeys.detail('p1'), exact: true },
      { queryKey: inventoryKeys.all },
      { queryKey: characterKeys.all },
    ]);
  });

  it('refreshes the party, its patronage panel and what the plan unlocks there for party_update (issue 14)', () => {
    expect(keysOf(message({ action: 'party_update', ids: { beneficiary_id: 'u-2' } }))).toEqual([
      { queryKey: partyKeys.detail('p1'), exact: true },
      { queryKey: partyKeys.eligible('p1') },
      // A sponsored member's stash unlocks (or locks) at once, and their subscription page follows.
      { queryKey: inventoryKeys.partyCollaboration('p1') },
      { queryKey: subscriptionKeys.account() },
      // The GM's Members tab says who can use the stash now (the member list tells the GM).
      { queryKey: partyKeys.members('p1') },
    ]);
  });

  it('refreshes the shared notes alone for notes_updated (issue 14)', () => {
    expect(keysOf(message({ action: 'notes_updated' }))).toEqual([{ queryKey: partyKeys.notes('p1') }]);
    // A party edit leaves the notes alone, and the notes leave the party alone.
    expect(keysOf(message({ action: 'party_updated' }))).not.toContainEqual({
      queryKey: partyKeys.notes('p1'),
    });
  });

  it('refreshes the party’s and the named characters’ containers and load for inventory_updated (issue 14)', () => {
    expect(
      keysOf(
        message({
          action: 'inventory_updated',
          ids: { character_id: 'ch-1', recipient_character_id: 'ch-2' },
        }),
      ),
    ).toEqual([
      { queryKey: inventoryKeys.owner({ type: 'party', id: 'p1' }) },
      { queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-1' }) },
      { queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-2' }) },
    ]);
  });

  it('refreshes the party ledger and the character’s, or every character’s, for party_activity (issue 14)', () => {
    expect(keysOf(message({ action: 'party_activity', ids: { character_id: 'ch-1' } }))).toEqual([
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.character('ch-1') },
    ]);
    const several = keysOf(message({ action: 'party_activity', ids: { character_id: null } }));
    expect(several).toEqual([
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.characters() },
    ]);
    const covers = (key: readonly unknown[]) =>
      several.some(({ queryKey }) => queryKey.every((part, i) => part === key[i]));
    expect(covers(transactionKeys.character('ch-9'))).toBe(true);
    expect(covers(transactionKeys.party('p2'))).toBe(false);
  });

  it('refreshes both sides’ histories for the party_activity of a move between characters', () => {
    expect(
      keysOf(message({ action: 'party_activity', ids: { character_id: 'ch-1', target_id: 'ch-2' } })),
    ).toEqual([
      { queryKey: transactionKeys.party('p1') },
      { queryKey: transactionKeys.character('ch-1') },
      { queryKey: transactionKeys.character('ch-2') },
    ]);
  });

  it('refreshes the party characters and the character for character events', () => {
    expect(keysOf(message({ action: 'character_updated', ids: { character_id: 'ch-2' } }))).toEqual([
      { queryKey: partyKeys.detail('p1'), exact: true },
      { queryKey: characterKeys.party('p1') },
      { queryKey: characterKeys.detail('ch-2') },
      { queryKey: wealthKeys.party('p1') },
      { queryKey: wealthKeys.character('ch-2') },
    ]);
  });

  it('refreshes the loot and the party’s Loot tab for loot events that move nothing', () => {
    for (const action of ['loot_deployed', 'loot_updated', 'loot_revealed', 'loot_hidden']) {
      expect(keysOf(message({ action, ids: { loot_instance_id: 'loot-1' } }))).toEqual([
        { queryKey: lootKeys.instance('loot-1') },
        { queryKey: lootKeys.partyLoot('p1') },
      ]);
    }
    // Without an id only the tab can be refreshed.
    expect(keysOf(message({ action: 'loot_revealed', ids: {} }))).toEqual([
      { queryKey: lootKeys.partyLoot('p1') },
    ]);
  });

  it('refreshes the party ledger too when a loot is deleted with its contents', () => {
    expect(keysOf(message({ action: 'loot_deleted', ids: { loot_instance_id: 'loot-1' } }))).toEqual([
      { queryKey: lootKeys.instance('loot-1') },
      { queryKey: lootKeys.partyLoot('p1') },
      { queryKey: transactionKeys.party('p1') },
    ]);
  });

  it('refreshes the receiving container, its character and the ledgers after a take or a claim', () => {
    for (const action of ['loot_taken', 'loot_claimed']) {
      const taken = message({
        action,
        ids: {
          loot_instance_id: 'loot-1',
          item_instance_id: 'stack-1',
          destination_container_id: 'c-pack',
          character_id: 'ch-1',
        },
      });
      expect(keysOf(taken)).toEqual([
        { queryKey: lootKeys.instance('loot-1') },
        { queryKey: lootKeys.partyLoot('p1') },
        { queryKey: inventoryKeys.container('c-pack') },
        { queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-1' }) },
        // The party's load and wealth table counts what the character now holds.
        { queryKey: wealthKeys.party('p1') },
        { queryKey: transactionKeys.party('p1') },
        { queryKey: transactionKeys.character('ch-1') },
      ]);
    }
  });

  it('refreshes every container and ledger after a distribution, which names no recipients', () => {
    const distributed = message({
      action: 'loot_distributed',
      ids: { loot_instance_id: 'loot-1', mode: 'even' },
    });
    expect(keysOf(distributed)).toEqual([
      { queryKey: lootKeys.instance('loot-1') },
      { queryKey: lootKeys.partyLoot('p1') },
      { queryKey: inventoryKeys.all },
      { queryKey: transactionKeys.all },
    ]);
  });

  it('refetches every loot after a reconnection', () => {
    expect(resyncInvalidations('p1')).toContainEqual({ queryKey: lootKeys.instances() });
  });

  it('refreshes nothing for presence, test_connection or an unknown action', () => {
    expect(keysOf(message({ action: 'presence_update', online_users: [] }))).toEqual([]);
    expect(keysOf(message({ action: 'test_connection' }))).toEqual([]);
    expect(keysOf(message({ action: 'something_new' }))).toEqual([]);
  });
});

describe('noticeFor', () => {
  it('tells me "{name} updated inventory" for 3 s, once per change, when someone else changes it', () => {
    expect(noticeFor(message({ action: 'inventory_updated' }), me)).toEqual({
      message: 'Pip updated inventory',
      duration: 3_000,
    });
    // Issue 14: the inventory channel's rows (two for a coin conversion) refresh without a notice each.
    for (const action of [
      'item_added',
      'item_moved',
      'item_updated',
      'item_traded',
      'party_inventory_updated',
    ])
      expect(noticeFor(message({ action }), me)).toBeNull();
  });

  it('names the source of the change: via Discord, via API, Admin (spec/02 §8)', () => {
    const notice = (source?: string) =>
      noticeFor(message({ action: 'inventory_updated', ...(source ? { source } : {}) }), me)?.message;
    expect(notice('discord')).toBe('Pip updated inventory via Discord');
    expect(notice('api')).toBe('Pip updated inventory via API');
    expect(notice('admin')).toBe('Admin Pip updated inventory');
    expect(notice('web')).toBe('Pip updated inventory');
    expect(notice()).toBe('Pip updated inventory');
    // A source this client does not know reads as the web.
    expect(notice('something_new')).toBe('Pip updated inventory');
  });

  it('tells the receiver of a gift who gave what, and refreshes the receiving character (issue 12 §8)', () => {
    const gift = message({
      action: 'inventory_updated',
      ids: {
        character_id: 'c-pip',
        destination_container_id: 'bag-brom',
        recipient_character_id: 'c-brom',
        recipient_user_id: me,
        recipient_notice: 'Pip gave you 2 × Rope',
      },
    });
    expect(noticeFor(gift, me)).toEqual({ message: 'Pip gave you 2 × Rope', duration: 3_000 });
    expect(noticeFor(gift, 'user-someone-else')).toEqual({
      message: 'Pip updated inventory',
      duration: 3_000,
    });
    expect(keysOf(gift)).toContainEqual({
      queryKey: inventoryKeys.owner({ type: 'character', id: 'c-brom' }),
    });
  });

  it('tells the player of the character the GM gave or moved items out of who did it (review newgm M1)', () => {
    const said = 'Gwen gave 1 × Rope from Pip to Brom';
    const gift = message({
      action: 'inventory_updated',
      actor: { id: 'user-gwen', name: 'Gwen' },
      summary: said,
      ids: {
        character_id: 'c-pip',
        recipient_user_id: 'user-brom',
        recipient_notice: 'Gwen gave you 1 × Rope from Pip',
        source_owner_user_id: me,
        source_owner_notice: said,
      },
    });
    expect(noticeFor(gift, me)).toEqual({ message: said, duration: 3_000 });
    expect(noticeFor(gift, 'user-brom')).toEqual({
      message: 'Gwen gave you 1 × Rope from Pip',
      duration: 3_000,
    });
    expect(noticeFor(gift, 'user-someone-else')).toEqual({
      message: 'Gwen updated inventory',
      duration: 3_000,
    });
  });

  it('tells the others, the GM first, that a purchase waits for approval', () => {
    const asked = message({
      action: 'shop_request_created',
      summary: 'Pip asked to buy 2 × Rope from Ropewalk for 5 gp',
      ids: { shop_instance_id: 'shop-1', shop_request_id: 'req-1', status: 'pending' },
    });
    expect(noticeFor(asked, me)).toEqual({
      message: 'Pip asked to buy 2 × Rope from Ropewalk for 5 gp',
      duration: 3_000,
    });
    expect(noticeFor({ ...asked, actor: { id: me, name: 'Me' } }, me)).toBeNull();
  });

  it('tells who asked that the GM declined their purchase, with the reason, and nobody else', () => {
    const declined = message({
      action: 'shop_request_declined',
      ids: {
        shop_instance_id: 'shop-1',
        shop_request_id: 'req-1',
        status: 'declined',
        recipient_user_id: me,
        recipient_notice: 'Pip declined your purchase of 2 × Rope: Not tonight',
      },
    });
    expect(noticeFor(declined, me)).toEqual({
      message: 'Pip declined your purchase of 2 × Rope: Not tonight',
      duration: 5_000,
    });
    expect(noticeFor(declined, 'user-someone-else')).toBeNull();
    expect(noticeFor(message({ action: 'shop_request_declined' }), me)).toBeNull();
    // An approval is told through its trade's summary, as a gift is.
    const approved = message({
      action: 'inventory_updated',
      ids: { recipient_user_id: me, recipient_notice: 'Pip approved your purchase of 2 × Rope' },
    });
    expect(noticeFor(approved, me)?.message).toBe('Pip approved your purchase of 2 × Rope');
  });

  it('tells the other side of a sponsorship that it started or ended, and nobody else', () => {
    const ended = message({
      action: 'party_update',
      ids: {
        patron_id: 'user-cara',
        beneficiary_id: me,
        recipient_user_id: me,
        recipient_notice: 'Cara no longer sponsors you in Mistwood: your own plan applies there now.',
      },
    });
    expect(noticeFor(ended, me)).toEqual({
      message: 'Cara no longer sponsors you in Mistwood: your own plan applies there now.',
      duration: 5_000,
    });
    expect(noticeFor(ended, 'user-someone-else')).toBeNull();
    expect(noticeFor(message({ action: 'party_update' }), me)).toBeNull();
  });

  it('says nothing about my own changes, or changes without an actor', () => {
    const change = { action: 'inventory_updated' };
    expect(noticeFor(message({ ...change, actor: { id: me, name: 'Me' } }), me)).toBeNull();
    expect(noticeFor(message({ ...change, actor: null }), me)).toBeNull();
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

  it('tells me what someone else did with loot, in the server’s words', () => {
    expect(noticeFor(message({ action: 'loot_revealed', summary: 'Pip revealed Goblin Hoard' }), me)).toEqual(
      { message: 'Pip revealed Goblin Hoard', duration: 3_000 },
    );
    expect(noticeFor(message({ action: 'loot_taken', summary: undefined }), me)).toEqual({
      message: 'Pip updated loot',
      duration: 3_000,
    });
    expect(noticeFor(message({ action: 'loot_claimed', actor: { id: me, name: 'Me' } }), me)).toBeNull();
  });

  it('tells me when someone else deleted a shop, not when it was only closed', () => {
    const removed = message({
      action: 'shop_closed',
      summary: 'Pip removed Troll Shop',
      ids: { shop_instance_id: 'shop-1', deleted: 'true' },
    });
    expect(noticeFor(removed, me)).toEqual({ message: 'Pip removed Troll Shop', duration: 3_000 });
    expect(noticeFor({ ...removed, actor: { id: me, name: 'Me' } }, me)).toBeNull();
    expect(noticeFor({ ...removed, ids: { shop_instance_id: 'shop-1' } }, me)).toBeNull();
  });

  it('tells me what someone else changed in a shop (a price, its reopening), in the server’s words', () => {
    const priced = message({
      action: 'shop_updated',
      summary: 'Pip priced Dagger at 2 gp 7 sp in Ironbark Smithy',
      ids: { shop_instance_id: 'shop-1' },
    });
    expect(noticeFor(priced, me)).toEqual({
      message: 'Pip priced Dagger at 2 gp 7 sp in Ironbark Smithy',
      duration: 3_000,
    });
    expect(
      noticeFor(message({ action: 'shop_updated', summary: 'Pip reopened Ironbark Smithy' }), me),
    ).toEqual({ message: 'Pip reopened Ironbark Smithy', duration: 3_000 });
    // Without the server's sentence, spec/02 §8's own words.
    expect(noticeFor(message({ action: 'shop_updated', summary: undefined }), me)).toEqual({
      message: 'Pip updated inventory',
      duration: 3_000,
    });
    expect(noticeFor({ ...priced, actor: { id: me, name: 'Me' } }, me)).toBeNull();
    // A restock the server ran on its own has nobody to name.
    expect(noticeFor({ ...priced, actor: null }, me)).toBeNull();
  });

  it('makes no notice for membership, party, notes or activity events', () => {
    for (const action of [
      'member_added',
      'member_role_changed',
      'party_updated',
      'party_update',
      'notes_updated',
      'party_activity',
    ])
      expect(noticeFor(message({ action }), me)).toBeNull();
  });

  it('tells a member whose role changed, and nobody else', () => {
    const handedOver = message({
      action: 'member_role_changed',
      actor: { id: 'gm-1', name: 'Pip' },
      ids: {
        role: 'gm',
        recipient_user_id: me,
        recipient_notice: 'Pip handed Mistwood to you: you are its Game Master now.',
      },
    });
    expect(noticeFor(handedOver, me)).toMatchObject({
      message: 'Pip handed Mistwood to you: you are its Game Master now.',
    });
    expect(noticeFor(handedOver, 'someone-else')).toBeNull();
  });
});
