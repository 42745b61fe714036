import {
  type AnnouncementEmailsResult,
  announcementEmailsMessages,
  announcementEmailsResultSchema,
} from '@haversack/contracts';
import { API_V1, apiRequest } from '../../../lib/http-client';

export interface AnnouncementEmailsChange extends AnnouncementEmailsResult {
  message: string;
}

/**
 * The unsubscribe link of a mass mail, signed out: the token says whose announcement emails to turn off
 * (or on again). The page shows its own refusal, so no catalogue toast.
 */
async function setAnnouncementEmails(token: string, subscribed: boolean): Promise<AnnouncementEmailsChange> {
  const response = await apiRequest(
    `${API_V1}/announcement_emails/${subscribed ? 'resubscribe' : 'unsubscribe'}`,
    { method: 'POST', body: { token }, schema: announcementEmailsResultSchema, auth: false, toast: false },
  );
  const fallback = subscribed
    ? announcementEmailsMessages.resubscribed
    : announcementEmailsMessages.unsubscribed;
  return { ...response.data, message: response.message ?? fallback };
}

const unsubscribes = new Map<string, Promise<AnnouncementEmailsChange>>();

/** The page may mount twice (StrictMode): every caller with the same token shares the one request. */
export function unsubscribeOnce(token: string): Promise<AnnouncementEmailsChange> {
  let pending = unsubscribes.get(token);
  if (!pending) {
    pending = setAnnouncementEmails(token, false);
    // A failed one is tried again when the page is opened again.
    pending.catch(() => unsubscribes.delete(token));
    unsubscribes.set(token, pending);
  }
  return pending;
}

/** The page's undo, and its unsubscribe again after an undo. */
export function changeAnnouncementEmails(
  token: string,
  subscribed: boolean,
): Promise<AnnouncementEmailsChange> {
  // The link opened again later unsubscribes again rather than show this answer.
  unsubscribes.delete(token);
  return setAnnouncementEmails(token, subscribed);
}
