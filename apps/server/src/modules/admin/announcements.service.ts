import { type Announcement, type AnnouncementBody, announcementMessages } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthenticatedUser } from '../accounts/accounts.service.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import { type AnnouncementRow, announcementsRepository as repo } from './announcements.repository.js';
import type { AuditLog } from './audit-log.js';

const LISTED = 100;

export function toAnnouncementJson(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    level: row.level,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Issue 15 Communications: banners in the app for a period, closed by each user for themselves. */
export class AnnouncementsService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #now: () => Date;

  constructor(deps: { db: Database; audit: AuditLog; now: () => Date }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#now = deps.now;
  }

  async create(caller: AdminCaller, body: AnnouncementBody): Promise<Announcement> {
    // A banner whose end has passed would never show: a mistyped date, said at once.
    if (body.ends_at && Date.parse(body.ends_at) <= this.#now().getTime()) {
      throw AppError.validation([{ field: 'ends_at', message: announcementMessages.endPassed }]);
    }
    return this.#db.transaction(async (tx) => {
      const row = await repo.insert(tx, {
        title: body.title,
        body: body.body,
        level: body.level,
        startsAt: new Date(body.starts_at),
        endsAt: body.ends_at ? new Date(body.ends_at) : null,
        createdById: caller.user.id,
      });
      const json = toAnnouncementJson(row);
      await this.#audit.record(tx, {
        ...auditActor(caller),
        action: 'announcement_created',
        targetType: 'announcement',
        targetId: row.id,
        after: {
          title: json.title,
          body: json.body,
          level: json.level,
          starts_at: json.starts_at,
          ends_at: json.ends_at,
        },
      });
      return json;
    });
  }

  async remove(caller: AdminCaller, id: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const row = await repo.delete(tx, id);
      if (!row) throw AppError.notFound('That announcement could not be found.');
      const json = toAnnouncementJson(row);
      await this.#audit.record(tx, {
        ...auditActor(caller),
        action: 'announcement_deleted',
        targetType: 'announcement',
        targetId: row.id,
        before: {
          title: json.title,
          body: json.body,
          level: json.level,
          starts_at: json.starts_at,
          ends_at: json.ends_at,
        },
      });
    });
  }

  async list(): Promise<Announcement[]> {
    return (await repo.list(this.#db, LISTED)).map(toAnnouncementJson);
  }

  async activeFor(auth: AuthenticatedUser): Promise<Announcement[]> {
    return (await repo.activeFor(this.#db, auth.user.id, this.#now())).map(toAnnouncementJson);
  }

  async dismiss(auth: AuthenticatedUser, id: string): Promise<void> {
    if (!(await repo.find(this.#db, id))) throw AppError.notFound('That announcement could not be found.');
    await repo.dismiss(this.#db, id, auth.user.id);
  }
}
