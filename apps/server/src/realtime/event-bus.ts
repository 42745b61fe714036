import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.js';
import { currentChangeSource, currentChangeTab } from '../lib/change-source.js';
import type { Broadcaster } from './broadcaster.js';
import {
  type DomainEvent,
  type InvitationsChangedMessage,
  type NotificationCreatedMessage,
  type NotificationsReadMessage,
  SESSIONS_STREAM,
  type SessionEndCause,
  type SessionsEndedMessage,
  streamName,
  userNoticesStream,
} from './events.js';
import { inventorySummaries } from './party-summaries.js';

/**
 * Services publish domain events through this bus only after their transaction commits (never for a
 * rolled-back change); `inTransaction` collects them while the transaction runs.
 */
export class EventBus {
  constructor(
    private readonly broadcaster: Broadcaster,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Publishes what one committed operation emitted, followed by one PartyChannel `inventory_updated` per
   * party whose inventory it changed (party-summaries.ts): call it once per operation. Every message of
   * one call carries the same `change` id (a UUID), so that a page hearing of one change on several
   * messages reads what they name once (the web's party-channels.ts).
   */
  publish(events: DomainEvent[]): void {
    // DESIGN §4: every event says where its change came from, as its ledger rows do; and the tab that
    // asked for it, which already refetches what it changed (docs/decisions.md, seventh session).
    const source = currentChangeSource();
    const tab = currentChangeTab();
    const change = randomUUID();
    for (const event of [...events, ...inventorySummaries(events)]) {
      const { channel, partyId, ...payload } = event;
      this.broadcaster
        .publish(streamName(channel, partyId), {
          ...payload,
          party_id: partyId,
          source,
          ...(tab ? { tab } : {}),
          change,
        })
        .catch((error: unknown) => this.log.warn({ err: error, action: event.action }, 'broadcast failed'));
    }
  }

  /**
   * Sessions ended by logout, a password change or reset, refresh-token reuse or an email change: every
   * process closes their sockets (cable-server.ts). Call after the commit that ended them.
   */
  sessionsEnded(userId: string, sessionIds: string[], cause?: SessionEndCause): void {
    const message: SessionsEndedMessage = {
      action: 'sessions_ended',
      user_id: userId,
      session_ids: sessionIds,
      ...(cause ? { session_end: cause } : {}),
    };
    this.broadcaster
      .publish(SESSIONS_STREAM, message)
      .catch((error: unknown) => this.log.warn({ err: error, userId }, 'broadcast of ended sessions failed'));
  }

  /** Notices for these users were committed: each of their open pages refreshes its inbox. */
  noticesWritten(userIds: readonly string[]): void {
    const message: NotificationCreatedMessage = { action: 'notification_created' };
    for (const userId of new Set(userIds))
      this.broadcaster
        .publish(userNoticesStream(userId), message)
        .catch((error: unknown) => this.log.warn({ err: error, userId }, 'broadcast of a notice failed'));
  }

  /** The user marked notices read: their other pages (another device) refresh their inbox and its count. */
  noticesRead(userId: string): void {
    const message: NotificationsReadMessage = { action: 'notifications_read' };
    this.broadcaster
      .publish(userNoticesStream(userId), message)
      .catch((error: unknown) => this.log.warn({ err: error, userId }, 'broadcast of notices read failed'));
  }

  /** The user's pending invitations changed (committed): each of their open pages refetches them. */
  invitationsChanged(userId: string): void {
    const message: InvitationsChangedMessage = { action: 'invitations_changed' };
    this.broadcaster
      .publish(userNoticesStream(userId), message)
      .catch((error: unknown) => this.log.warn({ err: error, userId }, 'broadcast of invitations failed'));
  }

  /** Runs `work` in a transaction and publishes what it emitted once the commit succeeded. */
  async inTransaction<T>(
    db: { transaction<R>(fn: (tx: Executor) => Promise<R>): Promise<R> },
    work: (tx: Executor, emit: (event: DomainEvent) => void) => Promise<T>,
  ): Promise<T> {
    const events: DomainEvent[] = [];
    const result = await db.transaction((tx) => work(tx, (event) => events.push(event)));
    this.publish(events);
    return result;
  }
}
