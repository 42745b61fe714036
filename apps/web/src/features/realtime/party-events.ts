import type { QueryKey } from '@tanstack/react-query';
import { z } from 'zod';
import { transactionKeys } from '../activity/api/transactions-api';
import { characterKeys } from '../characters/api/characters-api';
import { wealthKeys } from '../characters/api/wealth-api';
import { inventoryKeys } from '../inventory/api/inventory-api';
import { lootKeys } from '../loot/api/loot-api';
import { partyKeys } from '../parties/api/parties-api';
import { shopKeys } from '../shops/api/shops-api';
import { subscriptionKeys } from '../subscription/api/subscription-api';

export type PartyChannelName = 'PartyChannel' | 'PartyInventoryChannel';

const onlineUserSchema = z.object({ id: z.string(), username: z.string() });
export type OnlineUser = z.infer<typeof onlineUserSchema>;

/**
 * A broadcast on a party channel (DESIGN §6). The contracts package has no schema for the socket's
 * payloads, so the client reads them here, loosely: an unknown action is ignored, never an error.
 */
export const partyMessageSchema = z.object({
  action: z.string(),
  party_id: z.string().optional(),
  actor: z.object({ id: z.string(), name: z.string() }).nullish(),
  summary: z.string().optional(),
  ids: z.record(z.string(), z.string().nullable()).optional(),
  user_id: z.string().optional(),
  online_users: z.array(onlineUserSchema).optional(),
  change_type: z.string().optional(),
  /** DESIGN §4: where the change came from (web, discord, api, admin, system); older servers send none. */
  source: z.string().optional(),
  /** The browser tab that asked for the change, when it said so (lib/tab-id.ts). */
  tab: z.string().optional(),
  /**
   * The committed change the message tells of: every message the server publishes for one change carries the
   * same id (event-bus.ts); presence and older servers send none.
   */
  change: z.string().optional(),
});
export type PartyMessage = z.infer<typeof partyMessageSchema>;

/** spec/02 §7: the inventory actions of PartyInventoryChannel, one per ledger row. */
const inventoryActions = new Set([
  'item_added',
  'item_removed',
  'item_moved',
  'item_updated',
  'item_traded',
  'party_inventory_updated',
]);
const membershipActions = new Set(['member_added', 'member_removed', 'member_role_changed']);
const characterActions = new Set(['character_assigned', 'character_removed', 'character_updated']);
const presenceActions = new Set(['presence_update', 'presence_changed']);
/** spec/02 §7: a shop was deployed, changed (stock, prices, open) or closed. */
const shopActions = new Set([
  'shop_deployed',
  'shop_updated',
  'shop_closed',
  // Issue 10 §8: a purchase waiting for approval was made or decided (its held goods left the shelf).
  'shop_request_created',
  'shop_request_approved',
  'shop_request_declined',
  'shop_request_cancelled',
]);

/**
 * spec/02 §6 loot events (PartyInventoryChannel): deployed, edited, revealed, hidden, deleted, and items
 * taken, claimed or distributed out of it. Each names its loot in `ids.loot_instance_id`.
 */
const lootActions = new Set([
  'loot_deployed',
  'loot_updated',
  'loot_revealed',
  'loot_hidden',
  'loot_deleted',
  'loot_taken',
  'loot_claimed',
  'loot_distributed',
]);

export function isPresenceAction(action: string): boolean {
  return presenceActions.has(action);
}

export interface Invalidation {
  queryKey: QueryKey;
  /** Only this query, not the ones filed under it (e.g. the party itself but not its invitations). */
  exact?: boolean;
}

const idOf = (message: PartyMessage, key: string): string | null => message.ids?.[key] ?? null;

/**
 * The characters whose containers and history a change touched: its own character and the other side of
 * it (`target_id`: a gift's receiver, a GM moving a stack from one character's bag to another's). A
 * character's history lists the rows naming it as their character or their target, so both refresh.
 * `recipient_character_id` names a gift's receiver for servers that send no `target_id`.
 */
function charactersOf(message: PartyMessage): string[] {
  const ids = [
    idOf(message, 'character_id'),
    idOf(message, 'target_id'),
    idOf(message, 'recipient_character_id'),
  ];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

const characterOwners = (ids: string[]): Invalidation[] =>
  ids.map((id) => ({ queryKey: inventoryKeys.owner({ type: 'character', id }) }));
const characterHistories = (ids: string[]): Invalidation[] =>
  ids.map((id) => ({ queryKey: transactionKeys.character(id) }));

/**
 * The queries an event makes stale, and no others (issue 6 item 4). Inventory changes refresh the containers
 * they touched (each container's key holds its detail, capacity and items), the owners' container lists
 * that show how full they are, and the ledgers that record them; membership refreshes the party, its
 * members and characters; a party update the party alone.
 */
export function invalidationsFor(message: PartyMessage, partyId: string): Invalidation[] {
  const { action } = message;
  const characterId = idOf(message, 'character_id');
  const recipientId = idOf(message, 'recipient_character_id');
  const shopId = idOf(message, 'shop_instance_id');
  // A shop event (or a trade at one) refreshes that shop and the lists of the party's shops.
  const shops: Invalidation[] =
    shopActions.has(action) || (action === 'item_traded' && shopId)
      ? [
          ...(shopId ? [{ queryKey: shopKeys.instance(shopId) }] : []),
          { queryKey: shopKeys.partyShops(partyId) },
          { queryKey: [...shopKeys.instances(), 'list'] },
          // A shop deployed or removed counts against its GM's plan (My Content says how much is left).
          ...(action === 'shop_deployed' || action === 'shop_closed'
            ? [{ queryKey: subscriptionKeys.contentUsage(), exact: true }]
            : []),
        ]
      : [];
  if (shopActions.has(action)) {
    // A GM stocking the shop from a container (`source_container_id`) or taking stock back into one
    // (`destination_container_id`): that container, its owner's lists (the party's wealth table is filed
    // under the party's) and the ledgers change too.
    const touched = [idOf(message, 'source_container_id'), idOf(message, 'destination_container_id')].filter(
      (id): id is string => id !== null,
    );
    if (touched.length === 0) return shops;
    const characters = charactersOf(message);
    return [
      ...shops,
      ...touched.map((id) => ({ queryKey: inventoryKeys.container(id) })),
      { queryKey: inventoryKeys.owner({ type: 'party', id: partyId }) },
      ...characterOwners(characters),
      { queryKey: transactionKeys.party(partyId) },
      ...characterHistories(characters),
    ];
  }
  if (lootActions.has(action)) return lootInvalidations(message, partyId);
  if (inventoryActions.has(action)) {
    const containers = [
      ...new Set(
        [idOf(message, 'source_container_id'), idOf(message, 'destination_container_id')].filter(
          (id): id is string => id !== null,
        ),
      ),
    ];
    // Issue 12 §8: a gift also changes the receiving character's containers, and its history.
    const characters = charactersOf(message);
    return [
      ...containers.map((id) => ({ queryKey: inventoryKeys.container(id) })),
      { queryKey: inventoryKeys.owner({ type: 'party', id: partyId }) },
      ...characterOwners(characters),
      { queryKey: transactionKeys.party(partyId) },
      ...characterHistories(characters),
      ...shops,
      // Issue 11 §8: a split sale pays several characters, which the event does not name one by one.
      ...(idOf(message, 'split_sale')
        ? [
            { queryKey: inventoryKeys.all },
            { queryKey: transactionKeys.all },
            { queryKey: lootKeys.summary(partyId) },
          ]
        : []),
    ];
  }
  if (membershipActions.has(action)) {
    return [
      { queryKey: partyKeys.detail(partyId), exact: true },
      { queryKey: partyKeys.members(partyId) },
      { queryKey: characterKeys.party(partyId) },
      // Issue 12 §7: a member who leaves takes their characters out of the party's wealth table.
      { queryKey: wealthKeys.party(partyId) },
      // The patronage panel lists the members one may sponsor.
      { queryKey: partyKeys.eligible(partyId) },
      // A new role changes what that member may do with every container of the party (an observer looks,
      // a player moves): the containers say so (can_act), and the open screens redraw their buttons.
      // A new GM (a hand-over, the owner's account deleted) gains what only GMs see: hidden loot, the
      // GM-only rows of the ledger, every member's purchase requests; a member made observer loses them.
      ...(action === 'member_role_changed'
        ? [
            { queryKey: inventoryKeys.all },
            { queryKey: lootKeys.partyLoot(partyId) },
            { queryKey: transactionKeys.party(partyId) },
            { queryKey: transactionKeys.characters() },
            { queryKey: shopKeys.instances() },
          ]
        : []),
    ];
  }
  if (characterActions.has(action)) {
    return [
      { queryKey: partyKeys.detail(partyId), exact: true },
      { queryKey: characterKeys.party(partyId) },
      ...(characterId ? [{ queryKey: characterKeys.detail(characterId) }] : []),
      // Issue 12 §4, §7: a character joining, leaving or changing its max weight changes the loads shown.
      { queryKey: wealthKeys.party(partyId) },
      ...(characterId ? [{ queryKey: wealthKeys.character(characterId) }] : []),
    ];
  }
  // Issue 14: PartyChannel's own messages (the server's realtime/party-summaries.ts, ledger-events.ts).
  if (action === 'inventory_updated') {
    // One per change: the party's containers and load, and those of the characters it names.
    return [
      { queryKey: inventoryKeys.owner({ type: 'party', id: partyId }) },
      ...(characterId ? [{ queryKey: inventoryKeys.owner({ type: 'character', id: characterId }) }] : []),
      ...(recipientId ? [{ queryKey: inventoryKeys.owner({ type: 'character', id: recipientId }) }] : []),
    ];
  }
  if (action === 'party_activity') {
    // New rows in the party's ledger: those of the character named and of the other side of its move (a
    // gift's receiver); a change of several characters names none, so all their ledgers.
    return [
      { queryKey: transactionKeys.party(partyId) },
      ...(characterId
        ? characterHistories(charactersOf(message))
        : [{ queryKey: transactionKeys.characters() }]),
    ];
  }
  // The party itself was edited (settings, archive, join code).
  // Archived or back: every container of the party turns read-only or back (can_act); renamed: the
  // character pages that name the party.
  if (action === 'party_updated')
    return [
      { queryKey: partyKeys.detail(partyId), exact: true },
      { queryKey: inventoryKeys.all },
      { queryKey: characterKeys.all },
    ];
  // What the party gives a member changed (a sponsorship started or ended).
  // The sponsored member's plan in the party changed with it: the stash's lock in their Move menus and
  // drops, and their own subscription page's received patronages.
  if (action === 'party_update') {
    return [
      { queryKey: partyKeys.detail(partyId), exact: true },
      { queryKey: partyKeys.eligible(partyId) },
      { queryKey: inventoryKeys.partyCollaboration(partyId) },
      { queryKey: subscriptionKeys.account() },
      // The GM's Members tab: who can use the party stash now (the member list tells the GM).
      { queryKey: partyKeys.members(partyId) },
    ];
  }
  if (action === 'notes_updated') return [{ queryKey: partyKeys.notes(partyId) }];
  // Presence and test_connection change no cached data.
  return [];
}

/**
 * A loot event refreshes that loot and the party's Loot tab. A take or a claim also refreshes the container
 * that received the items, its character's containers and the ledgers, as an inventory move does. A
 * distribution names no recipients (any character of the party, or the stash when one was full), so every
 * container and ledger on screen is refreshed.
 */
function lootInvalidations(message: PartyMessage, partyId: string): Invalidation[] {
  const lootId = idOf(message, 'loot_instance_id');
  const destination = idOf(message, 'destination_container_id');
  const characters = charactersOf(message);
  const loot: Invalidation[] = [
    ...(lootId ? [{ queryKey: lootKeys.instance(lootId) }] : []),
    { queryKey: lootKeys.partyLoot(partyId) },
  ];
  if (message.action === 'loot_taken' || message.action === 'loot_claimed') {
    return [
      ...loot,
      ...(destination ? [{ queryKey: inventoryKeys.container(destination) }] : []),
      ...characterOwners(characters),
      // The party's load and wealth table counts what the character now holds.
      { queryKey: wealthKeys.party(partyId) },
      { queryKey: transactionKeys.party(partyId) },
      ...characterHistories(characters),
    ];
  }
  if (message.action === 'loot_distributed') {
    return [...loot, { queryKey: inventoryKeys.all }, { queryKey: transactionKeys.all }];
  }
  // Deleting a loot writes `delete` rows to the party's ledger.
  if (message.action === 'loot_deleted') return [...loot, { queryKey: transactionKeys.party(partyId) }];
  return loot;
}

/** After a reconnection events may have been missed: everything the party page shows is refetched. */
export function resyncInvalidations(partyId: string): Invalidation[] {
  return [
    { queryKey: partyKeys.detail(partyId) },
    { queryKey: characterKeys.party(partyId) },
    { queryKey: inventoryKeys.all },
    { queryKey: transactionKeys.party(partyId) },
    { queryKey: shopKeys.instances() },
    { queryKey: lootKeys.instances() },
  ];
}

/** spec/02 §9: notices last 3 s; joins and leaves 2 s. */
export const INVENTORY_NOTICE_MS = 3_000;
export const PRESENCE_NOTICE_MS = 2_000;
/** A declined purchase may carry the GM's reason: long enough to read a sentence. */
export const DECISION_NOTICE_MS = 5_000;

export interface Notice {
  message: string;
  duration: number;
}

/**
 * spec/02 §8 real-time notices, for other people's changes only: "{name} updated inventory" once per
 * inventory change (PartyChannel `inventory_updated`), the server's sentence for loot ("Pip revealed Goblin Hoard"; "{name} updated loot" without one), and "{name} joined/left the party" (User when the name is unknown) for presence changes. Presence
 * is announced on both channels; only PartyChannel's copy (`presence_changed`) makes a notice, so it shows once.
 */
/**
 * spec/02 §8: "{name} updated inventory via Discord", "{name} updated inventory via API", "Admin {name}
 * updated inventory", else "{name} updated inventory", from the event's `source`.
 */
export function inventoryNotice(name: string, source: string | undefined): string {
  if (source === 'discord') return `${name} updated inventory via Discord`;
  if (source === 'api') return `${name} updated inventory via API`;
  if (source === 'admin') return `Admin ${name} updated inventory`;
  return `${name} updated inventory`;
}

export function noticeFor(message: PartyMessage, myUserId: string | null): Notice | null {
  // Issue 14: told once per change, from PartyChannel's summary, however many rows the change wrote (the
  // inventory channel's rows refresh the containers silently).
  if (message.action === 'inventory_updated') {
    if (!message.actor || message.actor.id === myUserId) return null;
    // Issue 12 §8: the receiver of a gift is told who gave what ("Pip gave you 2 × Rope").
    const gift = idOf(message, 'recipient_notice');
    if (gift && myUserId !== null && idOf(message, 'recipient_user_id') === myUserId) {
      return { message: gift, duration: INVENTORY_NOTICE_MS };
    }
    // Review newgm M1: the player of a character someone else (the GM) gave or moved items out of is told
    // who moved what ("Gwen gave 1 × Rope from Pip to Brom").
    const moved = idOf(message, 'source_owner_notice');
    if (moved && myUserId !== null && idOf(message, 'source_owner_user_id') === myUserId) {
      return { message: moved, duration: INVENTORY_NOTICE_MS };
    }
    return {
      message: inventoryNotice(message.actor.name || 'Someone', message.source),
      duration: INVENTORY_NOTICE_MS,
    };
  }
  if (lootActions.has(message.action)) {
    if (!message.actor || message.actor.id === myUserId) return null;
    return {
      message: message.summary || `${message.actor.name || 'Someone'} updated loot`,
      duration: INVENTORY_NOTICE_MS,
    };
  }
  // A shop's shelf changed under the people looking at it (a price, its stock, its reopening): told as
  // loot is, in the server's sentence ("Pip priced Dagger at 3 gp in Ironbark Smithy"), else spec/02 §8's
  // "{name} updated inventory". Its closing is told on the shop's page, by the alert that takes Buy away.
  if (message.action === 'shop_updated') {
    if (!message.actor || message.actor.id === myUserId) return null;
    return {
      message: message.summary || inventoryNotice(message.actor.name || 'Someone', message.source),
      duration: INVENTORY_NOTICE_MS,
    };
  }
  // A shop the GM deleted (`shop_closed` with `ids.deleted`): its page turns to Not Found and an open buy
  // dialog goes with it, so the player is told why, as for hidden loot ("Pip removed Troll Shop").
  if (message.action === 'shop_closed' && idOf(message, 'deleted') === 'true') {
    if (!message.actor || message.actor.id === myUserId) return null;
    return {
      message: message.summary || `${message.actor.name || 'Someone'} removed a shop`,
      duration: INVENTORY_NOTICE_MS,
    };
  }
  // A purchase waiting for approval is news to the GM wherever they are in the party ("Pip asked to buy
  // 2 × Rope from Ropewalk for 5 gp"); the badge on the shop's Requests tab shows only on that page.
  if (message.action === 'shop_request_created') {
    if (!message.actor || message.actor.id === myUserId || !message.summary) return null;
    return { message: message.summary, duration: INVENTORY_NOTICE_MS };
  }
  // A GM declining a purchase request tells who asked, with the reason if one was given; everyone else
  // only sees the request list change. (An approval is told through its trade, as a gift is.)
  if (message.action === 'shop_request_declined') {
    if (!message.actor || message.actor.id === myUserId || myUserId === null) return null;
    const notice = idOf(message, 'recipient_notice');
    if (!notice || idOf(message, 'recipient_user_id') !== myUserId) return null;
    return { message: notice, duration: DECISION_NOTICE_MS };
  }
  // A sponsorship started or ended tells the other side of it: what they may do in the party changed
  // ("Cara no longer sponsors you in Mistwood: your own plan applies there now"). A new role tells its
  // member ("Pip handed Mistwood to you: you are its Game Master now").
  if (message.action === 'party_update' || message.action === 'member_role_changed') {
    if (myUserId === null || message.actor?.id === myUserId) return null;
    const notice = idOf(message, 'recipient_notice');
    if (!notice || idOf(message, 'recipient_user_id') !== myUserId) return null;
    return { message: notice, duration: DECISION_NOTICE_MS };
  }
  if (message.action === 'presence_changed') {
    const who = message.user_id ?? message.actor?.id ?? null;
    if (who === null || who === myUserId) return null;
    if (message.change_type !== 'joined' && message.change_type !== 'left') return null;
    const name =
      message.actor?.name || message.online_users?.find((user) => user.id === who)?.username || 'User';
    return { message: `${name} ${message.change_type} the party`, duration: PRESENCE_NOTICE_MS };
  }
  return null;
}
