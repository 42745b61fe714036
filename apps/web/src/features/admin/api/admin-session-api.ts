import {
  ADMIN_SESSION_CHECK_MS,
  ADMIN_SESSION_HEADER,
  adminSessionSchema,
  adminSessionVerificationSchema,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';
import { adminRequest } from './admin-request';
import { adminSessionStore } from './admin-session-store';

const verify = () =>
  adminRequest(`${API_V1}/admin/sessions/verify`, { schema: adminSessionVerificationSchema, toast: false });

/**
 * Entering /admin: the tab's admin session if it is still valid (a reload), otherwise a new one
 * (DESIGN §10). A refusal (not an admin) propagates. Answers whether it verified a kept session just now.
 */
export async function enterAdminMode(): Promise<'resumed' | 'started'> {
  if (adminSessionStore.getToken()) {
    try {
      await apiRequest(`${API_V1}/admin/sessions/verify`, {
        schema: adminSessionVerificationSchema,
        toast: false,
        headers: { [ADMIN_SESSION_HEADER]: adminSessionStore.getToken() ?? '' },
      });
      return 'resumed';
    } catch (error) {
      if (!isApiError(error) || error.code !== 'ADMIN_SESSION_EXPIRED') throw error;
      adminSessionStore.clear();
    }
  }
  const { data } = await apiRequest(`${API_V1}/admin/sessions`, {
    method: 'POST',
    schema: adminSessionSchema,
    toast: false,
  });
  adminSessionStore.setToken(data.token);
  return 'started';
}

export function adminEntryQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'entry'] as const,
    queryFn: async ({ client }) => {
      // A kept session verified on entry counts as the first periodic check: not asked again at once.
      if ((await enterAdminMode()) === 'resumed')
        client.setQueryData(adminSessionQueryOptions(adminSessionStore.getToken()).queryKey, true);
      return true;
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

/** Exit Admin Mode: ends the admin session on the server; leaving works even if that call fails. */
export async function exitAdminMode(): Promise<void> {
  try {
    await adminRequest(`${API_V1}/admin/sessions/current`, { method: 'DELETE', toast: false });
  } catch {
    // The session then simply expires on the server.
  } finally {
    adminSessionStore.clear();
  }
}

/** spec/01 §4, §7: the admin session is verified every 5 minutes. */
export function adminSessionQueryOptions(token: string | null) {
  return queryOptions({
    // One query per admin session: a new session after an expiry starts with a clean check.
    queryKey: ['admin', 'session', token] as const,
    queryFn: async () => {
      await verify();
      return true;
    },
    refetchInterval: ADMIN_SESSION_CHECK_MS,
    staleTime: ADMIN_SESSION_CHECK_MS,
    retry: false,
  });
}
