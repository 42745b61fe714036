import { z } from 'zod';
import { ACCOUNT_DELETED_MESSAGE } from './constants.js';
import { secretText, text } from './fields.js';
import { patronageSchema, subscriptionSchema } from './subscriptions.js';

/**
 * DELETE /users/me: the account's password confirms it; an account without one (made through Discord)
 * types its e-mail instead. Both are optional here: which one is needed depends on the account.
 */
export const accountDeletionBodySchema = z.object({
  password: secretText().max(200, 'Password must be at most 200 characters').optional(),
  confirm_email: text().trim().max(320, 'E-mail must be at most 320 characters').optional(),
});
export type AccountDeletionBody = z.infer<typeof accountDeletionBodySchema>;

export const accountClosureMessages = {
  deleted: ACCOUNT_DELETED_MESSAGE,
  passwordRequired: 'Enter your password to delete your account',
  passwordWrong: 'Password is incorrect',
  emailRequired: 'Type your e-mail address to confirm',
  emailWrong: 'This is not your account’s e-mail address',
  adminRefused:
    'Admins cannot delete their own account here: have your admin flag revoked first (npm run admin -- revoke EMAIL).',
  noSuccessorRoom: (party: string) =>
    `No other member of ${party} has room on their plan to run another party. Delete ${party}, or ask a member to upgrade, before deleting your account.`,
  exported: 'Your Haversack data, as of the export date.',
  exportFailed: 'Your data could not be downloaded. Please try again.',
} as const;

/**
 * The most ledger rows a personal export carries, the newest first: a long campaign's ledger can run to
 * hundreds of thousands of rows, and a party's full history is downloaded from the party's ledger (CSV).
 */
export const ACCOUNT_EXPORT_LEDGER_CAP = 10_000;

const exportTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  visibility: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/**
 * GET /users/me/export: everything Haversack keeps about the signed-in person, as one JSON file. Never a
 * password hash, a token or a provider's identifier: the response is serialised through this schema, so a
 * field not named here cannot leak into the file.
 */
export const accountExportSchema = z.object({
  format: z.literal('haversack-export'),
  version: z.literal(1),
  exported_at: z.string(),
  profile: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    display_name: z.string().nullable(),
    email_verified_at: z.string().nullable(),
    discord_linked: z.boolean(),
    admin: z.boolean(),
    tier_upgraded_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  preferences: z.record(z.string(), z.unknown()),
  subscription: subscriptionSchema.omit({ billing_provider: true }).extend({ tier_name: z.string() }),
  patronages: z.object({ granted: z.array(patronageSchema), received: z.array(patronageSchema) }),
  characters: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      race: z.string(),
      character_class: z.string(),
      level: z.number(),
      notes: z.string(),
      party_id: z.string().nullable(),
      created_at: z.string(),
      containers: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          is_primary: z.boolean(),
          items: z.array(
            z.object({
              id: z.string(),
              item_template_id: z.string(),
              name: z.string(),
              quantity: z.number(),
              notes: z.string(),
              is_identified: z.boolean(),
              instance_data: z.record(z.string(), z.unknown()),
            }),
          ),
        }),
      ),
    }),
  ),
  parties: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), joined_at: z.string() })),
  templates: z.object({
    items: z.array(exportTemplateSchema),
    shops: z.array(exportTemplateSchema),
    loot: z.array(exportTemplateSchema),
  }),
  ledger: z.object({
    /** Rows where the person acted, the newest first, at most `ACCOUNT_EXPORT_LEDGER_CAP`. */
    entries: z.array(
      z.object({
        id: z.string(),
        transaction_type: z.string(),
        summary: z.string(),
        item_name: z.string().nullable(),
        quantity: z.number().nullable(),
        source_name: z.string().nullable(),
        destination_name: z.string().nullable(),
        source: z.string(),
        transaction_date: z.string(),
      }),
    ),
    total_count: z.number().int(),
    truncated: z.boolean(),
  }),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
