import { createHmac } from 'node:crypto';
import { type AnnouncementEmailsResult, announcementEmailsMessages } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { safeEqual } from '../../lib/secrets.js';
import { preferencesRepository as repo } from './preferences.repository.js';

const userIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The API path of the one-click unsubscribe (RFC 8058) that a mass mail's List-Unsubscribe names. */
export const ONE_CLICK_PATH = '/api/v1/announcement_emails/one_click';

/**
 * The unsubscribe links of a mass mail, which work signed out. A token is `USER_ID.MAC`: the MAC is an
 * HMAC-SHA256 of the user's id under a key derived from the server's secret (JWT_SECRET or
 * DATA_DIR/jwt-secret) for this purpose only, as the account mails' link tokens are (account-mails.ts).
 * Nothing is stored: the link may only turn the account's announcement emails off or on again, so it does
 * not expire (a mail read months later still unsubscribes); a changed secret makes the old links invalid.
 */
export class AnnouncementEmailLinks {
  readonly #key: Buffer;
  readonly #appUrl: string;

  constructor(deps: {
    /** The server's secret; links are keyed by a key derived from it, never by the secret itself. */
    secret: string;
    appUrl: string;
  }) {
    this.#key = createHmac('sha256', deps.secret)
      .update('haversack: announcement e-mail unsubscribe links')
      .digest();
    this.#appUrl = deps.appUrl;
  }

  tokenFor(userId: string): string {
    return `${userId}.${this.#mac(userId)}`;
  }

  /** The user a token names, or undefined for a token this server did not make (or made for another). */
  userOf(token: string): string | undefined {
    const dot = token.indexOf('.');
    if (dot === -1) return undefined;
    const userId = token.slice(0, dot);
    if (!userIdPattern.test(userId)) return undefined;
    return safeEqual(token.slice(dot + 1), this.#mac(userId)) ? userId : undefined;
  }

  /** The page the footer links to: it unsubscribes and offers the undo. */
  pageUrl(userId: string): string {
    return `${this.#appUrl}/unsubscribe?token=${encodeURIComponent(this.tokenFor(userId))}`;
  }

  /** Where a mail client's one-click unsubscribe POSTs (List-Unsubscribe). */
  oneClickUrl(userId: string): string {
    return `${this.#appUrl}${ONE_CLICK_PATH}?token=${encodeURIComponent(this.tokenFor(userId))}`;
  }

  #mac(userId: string): string {
    return createHmac('sha256', this.#key).update(`announcement_emails:${userId}`).digest('base64url');
  }
}

/** Turns a user's announcement emails off or on with the link of a mass mail, signed out. */
export class AnnouncementEmailsService {
  readonly #db: Database;
  readonly #links: AnnouncementEmailLinks;

  constructor(deps: { db: Database; links: AnnouncementEmailLinks }) {
    this.#db = deps.db;
    this.#links = deps.links;
  }

  /**
   * A bad, tampered or cut token, or one of an account deleted since, is refused (400, the field named)
   * and changes nothing. Turning them off twice is not an error: the second click says the same.
   */
  async set(token: string, subscribed: boolean): Promise<AnnouncementEmailsResult> {
    const invalid = () =>
      new AppError('BAD_REQUEST', announcementEmailsMessages.invalid, {
        details: [{ field: 'token', message: announcementEmailsMessages.invalid }],
      });
    const userId = this.#links.userOf(token);
    if (!userId) throw invalid();
    const preferences = await repo.mergeIfExists(this.#db, userId, { announcementEmails: subscribed });
    if (!preferences) throw invalid();
    return { announcement_emails: preferences.announcementEmails !== false };
  }
}
