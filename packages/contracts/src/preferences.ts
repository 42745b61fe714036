import { z } from 'zod';
import { text } from './fields.js';

/**
 * spec/01 §3 Preferences, with their defaults. Issue 12: diceRollAnimation is gone (nothing in Haversack rolls
 * dice; a stored value is ignored) and sound effects start off (docs/decisions.md).
 */
export const preferencesSchema = z.object({
  theme: z.enum(['light', 'dark']),
  compactView: z.boolean(),
  notificationsEnabled: z.boolean(),
  soundEffects: z.boolean(),
  /**
   * Not in spec/01 §3: whether the admins' mass mail (announcements by email) reaches the user. Off, a mass
   * mail skips the user unless the admin sends it as a service notice (docs/decisions.md).
   */
  announcementEmails: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  theme: 'light',
  compactView: false,
  notificationsEnabled: true,
  soundEffects: false,
  announcementEmails: true,
};

/** PUT /users/preferences takes any subset; unknown keys are dropped, wrong types refused. */
export const preferencesUpdateBodySchema = z.object({ preferences: preferencesSchema.partial() });
export type PreferencesUpdateBody = z.infer<typeof preferencesUpdateBodySchema>;

export const preferencesResponseSchema = z.object({ preferences: preferencesSchema });

// ---- Unsubscribing from announcements by email, signed out (the link in a mass mail's footer) -------

export const announcementEmailsMessages = {
  unsubscribed: 'You will no longer receive announcements by email from Haversack.',
  resubscribed: 'You will receive announcements by email from Haversack again.',
  invalid:
    'This unsubscribe link is not valid: it may have been cut short. Open it again from the email, or sign in and turn off announcement emails under Preferences.',
} as const;

/** POST /api/v1/announcement_emails/unsubscribe and /resubscribe: the token of the mail's link. */
export const announcementEmailsTokenBodySchema = z.object({
  token: text({ error: announcementEmailsMessages.invalid })
    .min(1, announcementEmailsMessages.invalid)
    .max(200, announcementEmailsMessages.invalid),
});
export type AnnouncementEmailsTokenBody = z.infer<typeof announcementEmailsTokenBodySchema>;

/** The account's preference after the call. */
export const announcementEmailsResultSchema = z.object({ announcement_emails: z.boolean() });
export type AnnouncementEmailsResult = z.infer<typeof announcementEmailsResultSchema>;
