import { z } from 'zod';
import { appPathMessage, isAppPath } from './app-path.js';
import { authSessionSchema } from './auth.js';
import { text } from './fields.js';

/** What this server can do with Discord, from its configuration (GET /auth/providers; issue 16 §1, §4). */
export const authProvidersSchema = z.object({
  discord: z.object({
    /** DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set: sign in, sign up and link with Discord. */
    sign_in: z.boolean(),
    /** DISCORD_PUBLIC_KEY is set: slash commands are answered at POST /api/v1/discord/interactions. */
    interactions: z.boolean(),
    /** Where a GM adds the app to a Discord server (needs the client id), or null. */
    invite_url: z.string().nullable(),
    /** The URL to enter as "Interactions Endpoint URL" in Discord's developer portal. */
    interactions_url: z.string(),
  }),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;

export const discordModes = ['login', 'link'] as const;
export type DiscordMode = (typeof discordModes)[number];

/**
 * Where a sign-in goes once it is done (the page /login?redirect= named, e.g. a party invite): a path of
 * this app only, kept with the flow's state in its signed cookie, so the round trip through Discord cannot
 * be made to end on another site.
 */
export const discordReturnPathSchema = z.string().max(2048).refine(isAppPath, appPathMessage);

export const discordStartBodySchema = z.object({
  mode: z.enum(discordModes).default('login'),
  /** Sign-in only: linking always comes back to the profile. */
  redirect: discordReturnPathSchema.optional(),
});
export const discordStartQuerySchema = z.object({ mode: z.enum(discordModes).default('login') });
export const discordStartResultSchema = z.object({ authorization_url: z.string() });

export const discordCallbackBodySchema = z.object({
  code: text().trim().min(1, 'The sign-in code is missing.').max(512),
  state: text().trim().min(1, 'The sign-in state is missing.').max(512),
});
export type DiscordCallbackBody = z.infer<typeof discordCallbackBodySchema>;

export const discordAccountSchema = z.object({
  discord_user_id: z.string(),
  username: z.string(),
  linked_at: z.string(),
});
export type DiscordAccount = z.infer<typeof discordAccountSchema>;

/** The signed-in user's link: the account (or null) and whether unlinking leaves them a way to sign in. */
export const discordLinkSchema = z.object({
  account: discordAccountSchema.nullable(),
  has_password: z.boolean(),
});
export type DiscordLink = z.infer<typeof discordLinkSchema>;

export const discordCallbackResultSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('login'),
    created: z.boolean(),
    session: authSessionSchema,
    /** The page the sign-in started for, when it named one. */
    redirect: discordReturnPathSchema.optional(),
  }),
  z.object({ mode: z.literal('link'), account: discordAccountSchema }),
]);
export type DiscordCallbackResult = z.infer<typeof discordCallbackResultSchema>;

/** The messages a person sees when a Discord sign-in or link fails (the callback page shows them). */
export const discordMessages = {
  notConfigured: 'Signing in with Discord is not set up on this server.',
  denied: 'You cancelled the Discord sign-in, so nothing changed.',
  stateInvalid: 'This Discord sign-in has expired or did not start here. Please start again.',
  codeRejected: 'Discord did not accept the sign-in (it may have taken too long). Please try again.',
  unreachable: 'Discord could not be reached. Please try again in a moment.',
  linkedElsewhere: 'This Discord account is already linked to another Haversack account.',
  alreadyLinked: 'Your account is already linked to a Discord account. Unlink it first.',
  linkNeedsSignIn: 'Sign in to Haversack first, then link Discord from your profile.',
  linkWrongUser: 'This Discord link was started by another Haversack account. Please start again.',
  emailTaken:
    'An account with the email of this Discord account already exists. Sign in with your password, then link Discord from your profile.',
  noEmail:
    'Your Discord account has no email address. Add one on Discord, or create a Haversack account with your email and link Discord from your profile.',
  unlinkNeedsPassword:
    'Set a password before unlinking Discord, or you could not sign in any more: use "Forgot password" on the sign-in page to get a link by email.',
  notLinked: 'Your account is not linked to Discord.',
  linked: 'Discord linked.',
  unlinked: 'Discord unlinked.',
} as const;
