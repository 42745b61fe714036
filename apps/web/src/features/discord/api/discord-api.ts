import {
  type DiscordCallbackResult,
  type DiscordLink,
  type DiscordMode,
  discordCallbackResultSchema,
  discordLinkSchema,
  discordStartResultSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { safeRedirectTarget, sameSitePath } from '../../../lib/redirect';
import { discordKeys } from './discord-sign-in';

// The providers answer and the failure wording live in discord-sign-in.ts (no zod, for /login).
export { authProvidersQueryOptions, discordFailureMessage, discordKeys } from './discord-sign-in';

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
 * browser then opens (a plain link cannot carry the bearer token a link needs). A sign-in passes on the
 * page /login's ?redirect= named (a party invite) when it is a page of this site and not an auth page; the
 * server keeps it with the flow's state. Checked here, not on /login: this file loads with the click.
 */
export async function startDiscord(mode: DiscordMode, redirect?: string | null): Promise<void> {
  const path = sameSitePath(redirect);
  const returnTo = path && safeRedirectTarget(path) === path ? path : undefined;
  const { data } = await apiRequest(`${API_V1}/auth/discord/start`, {
    method: 'POST',
    body: { mode, ...(returnTo ? { redirect: returnTo } : {}) },
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
