import type { AuthProviders } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { type AnswerSchema, API_V1, apiRequest, isApiError } from '../../../lib/http-client';

// What the sign-in pages need from Discord, without zod: /login shows "Continue with Discord" from the
// providers answer, and loads the rest of the Discord client (discord-api.ts, with the contracts' schemas)
// only when the button is used (issue 13 §1).

export const discordKeys = {
  providers: ['auth-providers'] as const,
  link: ['discord-link'] as const,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The contracts' authProvidersSchema read by hand (discord-sign-in.test.ts holds it to the schema): the
 * providers answer is asked for on /login.
 */
export const authProvidersReader: AnswerSchema<AuthProviders> = {
  safeParse(data) {
    const discord = isRecord(data) ? data.discord : undefined;
    if (
      !isRecord(discord) ||
      typeof discord.sign_in !== 'boolean' ||
      typeof discord.interactions !== 'boolean' ||
      !(discord.invite_url === null || typeof discord.invite_url === 'string') ||
      typeof discord.interactions_url !== 'string'
    )
      return { success: false, error: new TypeError('Not an auth providers answer') };
    const { sign_in, interactions, invite_url, interactions_url } = discord;
    return { success: true, data: { discord: { sign_in, interactions, invite_url, interactions_url } } };
  },
};

/** GET auth/providers, read without zod. */
export async function fetchAuthProviders(): Promise<AuthProviders> {
  const { data } = await apiRequest(`${API_V1}/auth/providers`, {
    schema: authProvidersReader,
    auth: false,
    toast: false,
  });
  return data;
}

/** What this server is configured for (issue 16 §1, §4): the Discord button and the /discord steps. */
export function authProvidersQueryOptions() {
  return queryOptions({
    queryKey: discordKeys.providers,
    queryFn: fetchAuthProviders,
    // Configuration changes only with a restart.
    staleTime: 5 * 60_000,
  });
}

/** The server's own words for a refused Discord call (they say what to do), else the fallback. */
export function discordFailureMessage(error: unknown, fallback: string): string {
  return (isApiError(error) && (error.serverMessage || error.message)) || fallback;
}
