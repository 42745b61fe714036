import {
  type AdminGrantTierBody,
  type AdminUserQuery,
  type AdminUserSummary,
  adminDeletedUserSchema,
  adminUserDetailSchema,
  adminUserSummarySchema,
  pageMetaSchema,
} from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminRequest } from './admin-request';

export type AdminUserSearch = Partial<Omit<AdminUserQuery, 'per_page'>>;

export const ADMIN_USERS_PER_PAGE = 25;

export function adminUsersQueryOptions(search: AdminUserSearch) {
  const params = new URLSearchParams({ per_page: String(ADMIN_USERS_PER_PAGE) });
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return queryOptions({
    queryKey: ['admin', 'users', 'list', search] as const,
    queryFn: async ({ signal }) => {
      const response = await adminRequest(`${API_V1}/admin/users?${params}`, {
        schema: z.array(adminUserSummarySchema),
        signal,
        toast: false,
      });
      return { users: response.data, meta: pageMetaSchema.parse(response.meta) };
    },
    placeholderData: keepPreviousData,
  });
}

/** The users report's page size: the largest page the list answers. */
const REPORT_PER_PAGE = 100;
/** As the audit log's export: at most 10,000 rows in one file. */
export const USERS_REPORT_MAX = 10_000;

/**
 * Every user, newest first, for the Reports page's CSV: the list's pages read one after another (at most
 * USERS_REPORT_MAX users); `truncated` says when more exist.
 */
export async function fetchUsersForReport(): Promise<{ users: AdminUserSummary[]; truncated: boolean }> {
  const users: AdminUserSummary[] = [];
  for (let page = 1; ; page += 1) {
    const params = new URLSearchParams({ page: String(page), per_page: String(REPORT_PER_PAGE) });
    const response = await adminRequest(`${API_V1}/admin/users?${params}`, {
      schema: z.array(adminUserSummarySchema),
      toast: false,
    });
    users.push(...response.data);
    const meta = pageMetaSchema.parse(response.meta);
    if (page >= meta.total_pages || response.data.length === 0) return { users, truncated: false };
    if (users.length >= USERS_REPORT_MAX) return { users, truncated: true };
  }
}

export function adminUserQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', 'detail', userId] as const,
    queryFn: async ({ signal }) =>
      (
        await adminRequest(`${API_V1}/admin/users/${userId}`, {
          schema: adminUserDetailSchema,
          signal,
          toast: false,
        })
      ).data,
  });
}

const detailCall = (userId: string, action: string, body?: unknown) =>
  adminRequest(`${API_V1}/admin/users/${userId}/${action}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
    schema: adminUserDetailSchema,
  });

export const adminUserActions = {
  suspend: (userId: string, reason: string) => detailCall(userId, 'suspend', { reason }),
  unsuspend: (userId: string) => detailCall(userId, 'unsuspend'),
  revokeSessions: (userId: string) => detailCall(userId, 'revoke_sessions'),
  grantTier: (userId: string, body: AdminGrantTierBody) => detailCall(userId, 'tier', body),
  /** Deletes the account for good; the admin confirms by typing the user's email. */
  deleteAccount: (userId: string, confirmEmail: string) =>
    adminRequest(`${API_V1}/admin/users/${userId}`, {
      method: 'DELETE',
      body: { confirm_email: confirmEmail },
      schema: adminDeletedUserSchema,
      toast: false,
    }),
  sendPasswordReset: (userId: string) =>
    adminRequest(`${API_V1}/admin/users/${userId}/password_reset`, { method: 'POST' }),
};
