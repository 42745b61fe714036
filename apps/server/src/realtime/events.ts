/** The two party channels of spec/02 §7 Real-time. */
export type ChannelName = 'PartyChannel' | 'PartyInventoryChannel';

/**
 * A change worth telling a party about. Published only after the transaction that made it commits; the
 * cable server turns it into an Action Cable message on the party's stream.
 */
export interface DomainEvent {
  channel: ChannelName;
  partyId: string;
  action: string;
  actor: { id: string; name: string } | null;
  summary: string;
  /** Ids the clients need to invalidate the right queries. */
  ids?: Record<string, string | null>;
  /** Only the party's GMs receive it (hidden loot never leaks to players). */
  gmOnly?: boolean;
  /** The member the event is about (for removals: their subscriptions end at once). */
  userId?: string;
}

export function streamName(channel: ChannelName, partyId: string): string {
  return `${channel === 'PartyChannel' ? 'party' : 'party_inventory'}:${partyId}`;
}

/** The one stream, outside any party, on which ended sessions are announced to every server process. */
export const SESSIONS_STREAM = 'sessions';

/** A message on SESSIONS_STREAM: these sessions have ended; their sockets close with `unauthorized`. */
export interface SessionsEndedMessage {
  action: 'sessions_ended';
  user_id: string;
  session_ids: string[];
  /** Why, when the device cannot learn it from its session afterwards (a deleted account keeps none). */
  session_end?: SessionEndCause;
}

/** Told to the sockets of ended sessions in their `disconnect` frame (the web app says it in words). */
export type SessionEndCause = 'account_deleted';

/**
 * A user's own stream, outside any party: the NotificationsChannel subscription of each of their sockets
 * follows it (no parameters: the user is the socket's). New notices are announced on it after their commit.
 */
export function userNoticesStream(userId: string): string {
  return `notifications:${userId.toLowerCase()}`;
}

/** A message on a user's notices stream: the inbox and its unread count changed; the client refetches. */
export interface NotificationCreatedMessage {
  action: 'notification_created';
}

/** A message on a user's notices stream: they marked notices read (on one of their pages); the others refetch. */
export interface NotificationsReadMessage {
  action: 'notifications_read';
}

/**
 * A message on a user's notices stream: their pending invitations changed (one arrived, was withdrawn by its
 * GM, or was answered on another of their pages); the client refetches them. An invitation is no notice: it
 * is listed, and counted in the badge, as a pending invitation until it is answered.
 */
export interface InvitationsChangedMessage {
  action: 'invitations_changed';
}
