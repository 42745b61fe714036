import {
  NOTIFICATIONS_KEPT,
  type Notification,
  type NotificationLink,
  type NotificationList,
  type NotificationListQuery,
  notificationMessages,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { Notice, NoticeBoard } from './notices.js';
import * as policy from './notifications.policy.js';
import {
  type ListedNotification,
  type NewNotificationRow,
  type NotificationRow,
  notificationsRepository as repo,
} from './notifications.repository.js';

/** How long an unread notice takes in repeats of the same act, as one: an hour. */
const FOLD_WINDOW_MS = 60 * 60_000;

/** The same words but for the numbers: 1 gp given, then 2 gp, is the same act; giving and adding are not. */
const shape = (message: string) => message.replace(/\d+/g, '#');

/** The same act again: in the same party, leading to the same place (the character given to, the shop). */
function isSameAct(row: NotificationRow, notice: Notice): boolean {
  return (
    row.partyId === notice.partyId &&
    (row.payload.link?.path ?? null) === (notice.link?.path ?? null) &&
    shape(row.payload.message) === shape(notice.message)
  );
}

/**
 * Every notice reads as a sentence: the party's and the sponsorship's words end with a full stop, the
 * ledger's summaries that items and loot reuse ("Aria gave 3 × Healing potion to Pip") do not.
 */
export function asSentence(message: string): string {
  return /[.!?…]$/.test(message) ? message : `${message}.`;
}

/**
 * Where a notice leads now: a party deleted since (its id set null) is not found any more, and a party the
 * user was removed from or left is not theirs to open: its notices name it, and lead nowhere in it (their
 * own characters stay theirs to open). A link to the party is named as the party is now (renamed since,
 * "Open <new name>"); the sentence keeps the name it had when it happened.
 */
function linkNow({ row, inParty, partyNameNow }: ListedNotification): NotificationLink | null {
  const link = row.payload.link;
  if (link?.kind === 'character') return link;
  if (row.partyId === null || !inParty || !link) return null;
  // Only the party's own page is labelled by its name; a link to one of its tabs ("Party Loot") keeps its words.
  const namedByParty = link.kind === 'party' && link.path === `/parties/${row.partyId}`;
  return namedByParty && partyNameNow !== null ? { ...link, label: partyNameNow } : link;
}

function toNotificationJson(listed: ListedNotification): Notification {
  const { row } = listed;
  return {
    id: row.id,
    kind: row.kind,
    message: asSentence(row.payload.message),
    party_id: row.partyId,
    party_name: row.payload.party_name,
    link: linkNow(listed),
    repeat_count: row.repeatCount,
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
    const userIds = [...new Set(kept.map((notice) => notice.userId))];
    await repo.lockInboxes(tx, userIds);
    const since = new Date(createdAt.getTime() - FOLD_WINDOW_MS);
    const folded = new Set<string>();
    const fresh: NewNotificationRow[] = [];
    for (const notice of kept) {
      const payload = { message: notice.message, party_name: notice.partyName, link: notice.link };
      // The same act again (a player handing over 1 gp 300 times, even between other acts): one unread
      // notice, counted, not 300.
      const same =
        notice.actorId === null
          ? undefined
          : (
              await repo.unreadSince(
                tx,
                { userId: notice.userId, actorId: notice.actorId, kind: notice.kind },
                since,
              )
            ).find((row) => !folded.has(row.id) && isSameAct(row, notice));
      if (same) {
        folded.add(same.id);
        await repo.fold(tx, same.id, payload, createdAt);
      } else {
        fresh.push({
          userId: notice.userId,
          actorId: notice.actorId,
          kind: notice.kind,
          partyId: notice.partyId,
          payload,
          createdAt,
        });
      }
    }
    await repo.insert(tx, fresh);
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
    this.#events.noticesRead(userId);
    return toNotificationJson(row);
  }

  async markAllRead(userId: string): Promise<{ unread_count: number }> {
    await repo.markAllRead(this.#db, userId, this.#now());
    this.#events.noticesRead(userId);
    return { unread_count: 0 };
  }
}
