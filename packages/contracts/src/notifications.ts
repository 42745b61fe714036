import { z } from 'zod';
import { pageMetaSchema } from './envelope.js';
import { numberInput } from './fields.js';

/**
 * What other people did to a user while they may have been away (the inbox of /notifications). Each is
 * told live too, to whoever is online; these stay until read, or until they are pruned.
 */
export const notificationKinds = [
  'sponsorship_started',
  'sponsorship_ended',
  'purchase_approved',
  'purchase_declined',
  'member_removed',
  'party_archived',
  'party_unarchived',
  'party_deleted',
  'role_changed',
  'party_handed_over',
  'items_received',
  // Someone else (the GM) moved or gave items out of one's character's containers.
  'items_moved',
  'loot_received',
  'loot_revealed',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Where a notice leads: its party's page, a character, or a shop of the party (none once the party is gone). */
export const notificationLinkSchema = z.object({
  kind: z.enum(['party', 'character', 'shop']),
  path: z.string(),
  label: z.string(),
});
export type NotificationLink = z.infer<typeof notificationLinkSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(notificationKinds),
  /** The whole sentence, with the names as they were when it happened. */
  message: z.string(),
  party_id: z.string().nullable(),
  party_name: z.string().nullable(),
  link: notificationLinkSchema.nullable(),
  /** How many times the same act (same kind, actor and target) was done since it was last read: 1 if once. */
  repeat_count: z.number().int().min(1),
  /** When it last happened. */
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(100)).default(20),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/** GET /notifications: the envelope's paging, plus how many of all of them are unread. */
export const notificationListEnvelopeSchema = z.object({
  status: z.literal('success'),
  data: z.array(notificationSchema),
  meta: pageMetaSchema.extend({ unread_count: z.number().int() }),
});
export type NotificationList = z.infer<typeof notificationListEnvelopeSchema>;

export const notificationReadAllSchema = z.object({ unread_count: z.number().int() });

/** The real-time channel on which a user's own new notices are announced (no parameters: the socket's user). */
export const NOTIFICATIONS_CHANNEL = 'NotificationsChannel';

/** How many notices a user keeps: the newest ones; older ones are dropped when a new one is written. */
export const NOTIFICATIONS_KEPT = 200;

export const notificationMessages = {
  notFound: 'Notification not found.',
} as const;
