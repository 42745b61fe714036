import {
  type AdminGrantTierBody,
  type AdminUserQuery,
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
  /** Deletes the account for good; the admin confirms by typing the user's e-mail. */
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
