import { z } from 'zod';
import { hasVisibleText, nameText } from './fields.js';

/** Issue 16 §5: personal API tokens. `read` answers GET and HEAD only; `read_write` what the web may do. */
export const apiTokenScopes = ['read', 'read_write'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];
export const apiTokenScopeLabels: Record<ApiTokenScope, string> = {
  read: 'Read only',
  read_write: 'Read and write',
};

/** Every secret starts with this, so that a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'hvk_';
/** Lifetimes offered at creation, in days; `null` is "never expires". */
export const apiTokenLifetimes = [7, 30, 90, 365] as const;
export const DEFAULT_API_TOKEN_LIFETIME_DAYS = 90;
/** Active (not revoked) tokens a user may hold at once. */
export const MAX_API_TOKENS = 20;
/** The last-used time is written at most this often per token (each request would otherwise write). */
export const API_TOKEN_LAST_USED_RESOLUTION_S = 60;

export const apiTokenMessages = {
  nameRequired: 'Token name is required',
  nameTooLong: 'Token name must be at most 60 characters',
  lifetime: 'Choose 7, 30, 90 or 365 days, or never',
  tooMany: `You can have at most ${MAX_API_TOKENS} API tokens. Revoke one first.`,
  expired: 'This API token has expired.',
  revoked: 'This API token has been revoked.',
  readOnly: 'This API token is read-only: it can only read (GET and HEAD, and the two plan checks).',
  sessionOnly: 'API tokens cannot be used for this call. Sign in to Haversack to do it.',
} as const;

export const apiTokenCreateSchema = z.object({
  name: nameText()
    .trim()
    .min(1, apiTokenMessages.nameRequired)
    .max(60, apiTokenMessages.nameTooLong)
    .refine(hasVisibleText, apiTokenMessages.nameRequired),
  scope: z.enum(apiTokenScopes),
  /** Left out: the web form's default, 90 days; `null`: never. */
  expires_in_days: z
    .union([...apiTokenLifetimes.map((days) => z.literal(days)), z.null()], {
      error: apiTokenMessages.lifetime,
    })
    .default(DEFAULT_API_TOKEN_LIFETIME_DAYS),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;
export const apiTokenCreateBodySchema = z.object({ api_token: apiTokenCreateSchema });

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiTokenScopes),
  /** The secret's first characters, e.g. `hvk_Ab12`, to tell tokens apart. */
  hint: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  expired: z.boolean(),
  created_at: z.string(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a creation: the only time the secret is ever shown. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;
