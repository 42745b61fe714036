import { z } from 'zod';
import { entityId, hasVisibleText, nameText, numberInput, text, withinRequestDates } from './fields.js';
import { tierIdentifiers } from './subscriptions.js';

// Issue 15: the contents of the admin pages (dashboard, analytics, financial, moderation,
// communications, bulk operations) and the two calls every signed-in user makes (reports, banners).

const count = z.number().int();
const bareDate = (name: string) =>
  withinRequestDates(z.iso.date({ error: `${name} must be a date (YYYY-MM-DD)` }), name);

// ---- Dashboard --------------------------------------------------------------------------------------

export const dailyCountSchema = z.object({ date: z.string(), count });
/**
 * A tier with its users, how many of them staff granted the plan to, and how many are on it through demo
 * billing (nobody pays for either).
 */
export const tierCountSchema = z.object({
  tier: z.string(),
  name: z.string(),
  count,
  granted: count,
  demo: count,
});

export const adminDashboardSchema = z.object({
  users: z.object({ total: count, new_7d: count, new_30d: count, active_7d: count, active_30d: count }),
  parties: count,
  characters: count,
  item_templates: count,
  item_stacks: count,
  inventory_actions_per_day: z.array(dailyCountSchema),
  subscriptions_by_tier: z.array(tierCountSchema),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

// ---- Analytics --------------------------------------------------------------------------------------

export const analyticsGranularities = ['day', 'week'] as const;
export const ANALYTICS_MAX_DAYS = 366;

export const analyticsQuerySchema = z
  .object({
    from: bareDate('from'),
    to: bareDate('to'),
    granularity: z.enum(analyticsGranularities, { error: 'granularity must be day or week' }).default('day'),
  })
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'to must not be before from' })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= ANALYTICS_MAX_DAYS * 86_400_000, {
    path: ['to'],
    message: `The range may span at most ${ANALYTICS_MAX_DAYS} days`,
  });
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const analyticsSeriesKeys = [
  'signups',
  'active_users',
  'inventory_actions',
  'shop_activity',
  'loot_activity',
  'upgrades',
  'cancellations',
] as const;
export type AnalyticsSeriesKey = (typeof analyticsSeriesKeys)[number];

export const analyticsPointSchema = z.object({
  period: z.string(),
  signups: count,
  active_users: count,
  inventory_actions: count,
  shop_activity: count,
  loot_activity: count,
  upgrades: count,
  cancellations: count,
});
export type AnalyticsPoint = z.infer<typeof analyticsPointSchema>;

export const adminAnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(analyticsGranularities),
  points: z.array(analyticsPointSchema),
});
export type AdminAnalytics = z.infer<typeof adminAnalyticsSchema>;

// ---- Financial --------------------------------------------------------------------------------------

export const adminFinancialSchema = z.object({
  by_tier_status: z.array(z.object({ tier: z.string(), name: z.string(), status: z.string(), count })),
  monthly_revenue: z.array(
    z.object({ month: z.string(), paid_subscriptions: count, revenue_cents: count, currency: z.string() }),
  ),
  cancellations: z.array(
    z.object({
      user_id: z.string(),
      email: z.string(),
      /** The plan cancelled; null for one that took effect before the app kept it (migration 0025). */
      tier: z.string().nullable(),
      reason: z.string().nullable(),
      cancelled_at: z.string(),
      cancel_at_period_end: z.boolean(),
    }),
  ),
});
export type AdminFinancial = z.infer<typeof adminFinancialSchema>;

export const billingEventSchema = z.object({
  id: z.string(),
  provider: z.string(),
  type: z.string(),
  received_at: z.string(),
});
export type BillingEvent = z.infer<typeof billingEventSchema>;

export const pageQuerySchema = z.object({
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(100)).default(25),
});

// ---- Moderation -------------------------------------------------------------------------------------

export const reportTargetTypes = ['item_template', 'shop_template', 'loot_template', 'party'] as const;
export type ReportTargetType = (typeof reportTargetTypes)[number];
export const reportStatuses = ['open', 'dismissed', 'unpublished'] as const;
export const REPORT_REASON_MAX = 1000;

export const createReportBodySchema = z.object({
  target_type: z.enum(reportTargetTypes, { error: 'Choose what you are reporting' }),
  target_id: entityId(),
  reason: text({ error: 'Say why you are reporting this' })
    .trim()
    .min(1, 'Say why you are reporting this')
    .max(REPORT_REASON_MAX, `Keep the reason under ${REPORT_REASON_MAX} characters`),
});
export type CreateReportBody = z.infer<typeof createReportBodySchema>;

export const reportSchema = z.object({
  id: z.string(),
  target_type: z.enum(reportTargetTypes),
  target_id: z.string(),
  reason: z.string(),
  status: z.enum(reportStatuses),
  created_at: z.string(),
});
export type Report = z.infer<typeof reportSchema>;

/** The most characters of the reported content's description a moderation card shows. */
export const REPORT_EXCERPT_MAX = 200;

export const adminReportSchema = reportSchema.extend({
  reporter_email: z.string().nullable(),
  target_name: z.string().nullable(),
  /**
   * The start of the content's description (at most REPORT_EXCERPT_MAX characters, then "…"), so that the
   * moderator sees what was reported; null when it has none or is gone.
   */
  target_excerpt: z.string().nullable(),
  target_owner_email: z.string().nullable(),
  /** Whether the content is still public (false: already private, or gone). */
  target_public: z.boolean(),
  open_reports_on_target: count,
  resolved_at: z.string().nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

export const adminReportQuerySchema = pageQuerySchema.extend({
  status: z.enum(reportStatuses).default('open'),
});

// ---- Communications ---------------------------------------------------------------------------------

export const announcementLevels = ['info', 'warning', 'critical'] as const;
/** Here rather than in text-rules.ts with the names' own: the sign-in page loads that file, never this one. */
export const communicationMessages = {
  multiLineTitle: 'A title must fit on one line: no line breaks or tabs',
  multiLineSubject: 'A subject must fit on one line: no line breaks or tabs',
} as const;
const dateTime = (name: string) =>
  withinRequestDates(z.iso.datetime({ offset: true, error: `${name} must be a date and time` }), name);

export const announcementBodySchema = z
  .object({
    // A banner's headline: one line, and something a user can see (not "\u200B\u200B").
    title: nameText({ error: 'Give the announcement a title' }, communicationMessages.multiLineTitle)
      .trim()
      .min(1, 'Give the announcement a title')
      .max(120, 'Keep the title under 120 characters')
      .refine(hasVisibleText, 'Give the announcement a title'),
    body: text().trim().max(2000, 'Keep the message under 2000 characters').default(''),
    level: z.enum(announcementLevels, { error: 'Choose info, warning or critical' }).default('info'),
    starts_at: dateTime('starts_at'),
    ends_at: dateTime('ends_at').nullable().optional(),
  })
  .refine((a) => !a.ends_at || Date.parse(a.ends_at) > Date.parse(a.starts_at), {
    path: ['ends_at'],
    message: 'The end must come after the start',
  });

export const announcementMessages = {
  endPassed: 'The end has already passed: the banner would never show',
} as const;
export type AnnouncementBody = z.infer<typeof announcementBodySchema>;

export const announcementSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  level: z.enum(announcementLevels),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  created_at: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const massMailAudiences = ['all', ...tierIdentifiers] as const;
export const massMailBodySchema = z.object({
  audience: z.enum(massMailAudiences, { error: 'Choose all users or one tier' }),
  // It becomes every mail's Subject header: a line break there would start a header of its own.
  subject: nameText({ error: 'Write a subject' }, communicationMessages.multiLineSubject)
    .trim()
    .min(1, 'Write a subject')
    .max(200, 'Keep the subject under 200 characters')
    .refine(hasVisibleText, 'Write a subject'),
  body: text({ error: 'Write the message' })
    .trim()
    .min(1, 'Write the message')
    .max(20_000, 'Keep the message under 20000 characters'),
  /**
   * A service notice (a change to the terms, a security incident) also reaches users who turned announcement
   * emails off; the audit log records it. Absent: false.
   */
  service_notice: z.boolean({ error: 'Say whether this is a service notice' }).optional(),
});
export type MassMailBody = z.infer<typeof massMailBodySchema>;

// ---- Background admin operations (mass mail, bulk) ----------------------------------------------------

export const adminOperationSchema = z.object({
  id: z.string(),
  kind: z.enum(['mass_mail', 'bulk_users', 'bulk_templates']),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  total: count,
  processed: count,
  changed: count,
  params: z.record(z.string(), z.unknown()),
  actor_email: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type AdminOperation = z.infer<typeof adminOperationSchema>;

export const adminOperationListQuerySchema = z.object({
  kind: z.enum(['mass_mail', 'bulk_users', 'bulk_templates']).optional(),
});

// ---- Bulk operations --------------------------------------------------------------------------------

export const userBulkFilterSchema = z.object({
  tier: z.enum(tierIdentifiers).optional(),
  status: z.enum(['active', 'suspended']).optional(),
  signed_up_before: bareDate('signed_up_before').optional(),
  signed_up_after: bareDate('signed_up_after').optional(),
  email_contains: text().trim().max(320).optional(),
});
export type UserBulkFilter = z.infer<typeof userBulkFilterSchema>;

export const templateKinds = ['item_template', 'shop_template', 'loot_template'] as const;
export const templateBulkFilterSchema = z.object({
  kind: z.enum(templateKinds, { error: 'Choose item, shop or loot templates' }),
  /** Owner: a user id or part of the owner's email. */
  owner: text().trim().max(320).optional(),
});
export type TemplateBulkFilter = z.infer<typeof templateBulkFilterSchema>;

export const bulkOperationBodySchema = z.discriminatedUnion('action', [
  z.object({
    target: z.literal('users'),
    filter: userBulkFilterSchema,
    action: z.literal('change_tier'),
    tier: z.enum(tierIdentifiers, { error: 'Choose the new tier' }),
  }),
  /** Suspends every matching user who is neither an admin nor suspended already (the dry run counts those). */
  z.object({
    target: z.literal('users'),
    filter: userBulkFilterSchema,
    action: z.literal('suspend'),
    reason: text().trim().min(1, 'Say why the accounts are suspended').max(500),
  }),
  z.object({
    target: z.literal('templates'),
    filter: templateBulkFilterSchema,
    action: z.literal('unpublish'),
  }),
]);
export type BulkOperationBody = z.infer<typeof bulkOperationBodySchema>;

export const bulkPreviewSchema = z.object({ count });
