import {
  authProvidersSchema,
  type DiscordCallbackResult,
  type DiscordLink,
  type DiscordMode,
  discordCallbackResultSchema,
  discordLinkSchema,
  discordStartResultSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';

export const discordKeys = {
  providers: ['auth-providers'] as const,
  link: ['discord-link'] as const,
};

/** What this server is configured for (issue 16 §1, §4): the Discord button and the /discord steps. */
export function authProvidersQueryOptions() {
  return queryOptions({
    queryKey: discordKeys.providers,
    queryFn: async () => {
      const { data } = await apiRequest(`${API_V1}/auth/providers`, {
        schema: authProvidersSchema,
        auth: false,
        toast: false,
      });
      return data;
    },
    // Configuration changes only with a restart.
    staleTime: 5 * 60_000,
  });
}

export function discordLinkQueryOptions() {
  return queryOptions({
    queryKey: discordKeys.link,
    queryFn: async (): Promise<DiscordLink> => {
      const { data } = await apiRequest(`${API_V1}/users/me/discord`, {
        schema: discordLinkSchema,
        toast: false,
      });
      return data;
    },
  });
}

/**
 * Starts a Discord sign-in or link: the server sets the flow's cookie and answers Discord's URL, which the
 * browser then opens (a plain link cannot carry the bearer token a link needs).
 */
export async function startDiscord(mode: DiscordMode): Promise<void> {
  const { data } = await apiRequest(`${API_V1}/auth/discord/start`, {
    method: 'POST',
    body: { mode },
    schema: discordStartResultSchema,
    auth: mode === 'link',
    toast: false,
  });
  window.location.assign(data.authorization_url);
}

export async function finishDiscord(code: string, state: string): Promise<DiscordCallbackResult> {
  const { data } = await apiRequest(`${API_V1}/auth/discord/callback`, {
    method: 'POST',
    body: { code, state },
    schema: discordCallbackResultSchema,
    toast: false,
  });
  return data;
}

export function useUnlinkDiscord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest(`${API_V1}/users/me/discord`, { method: 'DELETE', toast: false });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: discordKeys.link }),
  });
}

/** The server's own words for a refused Discord call (they say what to do), else the fallback. */
export function discordFailureMessage(error: unknown, fallback: string): string {
  return (isApiError(error) && (error.serverMessage || error.message)) || fallback;
}
