import {
  NOTIFICATIONS_KEPT,
  type Notification,
  type NotificationList,
  type NotificationListQuery,
  notificationMessages,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { Notice, NoticeBoard } from './notices.js';
import * as policy from './notifications.policy.js';
import { type NotificationRow, notificationsRepository as repo } from './notifications.repository.js';

function toNotificationJson(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    message: row.payload.message,
    party_id: row.partyId,
    party_name: row.payload.party_name,
    link: row.payload.link,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

/**
 * The per-user inbox of what others did to them. Notices are written by the services that do those
 * things, in their own transactions (NoticeBoard); a user reads and marks only their own.
 */
export class NotificationsService implements NoticeBoard {
  readonly #db: Database;
  readonly #events: EventBus;
  readonly #now: () => Date;

  constructor(deps: { db: Database; events: EventBus; now: () => Date }) {
    this.#db = deps.db;
    this.#events = deps.events;
    this.#now = deps.now;
  }

  async write(tx: Executor, notices: Notice[]): Promise<string[]> {
    const kept = notices.filter(policy.isForAnotherUser);
    if (kept.length === 0) return [];
    const createdAt = this.#now();
    await repo.insert(
      tx,
      kept.map((notice) => ({
        userId: notice.userId,
        kind: notice.kind,
        partyId: notice.partyId,
        payload: { message: notice.message, party_name: notice.partyName, link: notice.link },
        createdAt,
      })),
    );
    const userIds = [...new Set(kept.map((notice) => notice.userId))];
    // Bounded per user: the newest NOTIFICATIONS_KEPT stay, older ones go as new ones come.
    await repo.prune(tx, userIds, NOTIFICATIONS_KEPT);
    return userIds;
  }

  announce(userIds: readonly string[]): void {
    if (userIds.length > 0) this.#events.noticesWritten(userIds);
  }

  async list(userId: string, query: NotificationListQuery): Promise<NotificationList> {
    const [rows, counts] = await Promise.all([
      repo.page(this.#db, userId, { limit: query.per_page, offset: (query.page - 1) * query.per_page }),
      repo.counts(this.#db, userId),
    ]);
    return {
      status: 'success',
      data: rows.map(toNotificationJson),
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: counts.total,
        total_pages: Math.max(1, Math.ceil(counts.total / query.per_page)),
        unread_count: counts.unread,
      },
    };
  }

  /** Someone else's notice, or none: 404 alike, so that ids of others' notices tell nothing. */
  async markRead(userId: string, id: string): Promise<Notification> {
    const row = await repo.markRead(this.#db, userId, id, this.#now());
    if (!row) throw AppError.notFound(notificationMessages.notFound);
    return toNotificationJson(row);
  }

  async markAllRead(userId: string): Promise<{ unread_count: number }> {
    await repo.markAllRead(this.#db, userId, this.#now());
    return { unread_count: 0 };
  }
}
