import { ADMIN_SESSION_HEADER } from '@haversack/contracts';
import type { z } from 'zod';
import {
  type ApiResponse,
  apiDownload,
  apiRequest,
  isApiError,
  type RequestOptions,
} from '../../../lib/http-client';
import { recheckSessionUser } from '../../../lib/session';
import { adminSessionStore } from './admin-session-store';

function withAdminSession(options: RequestOptions): RequestOptions {
  const token = adminSessionStore.getToken();
  return token ? { ...options, headers: { ...options.headers, [ADMIN_SESSION_HEADER]: token } } : options;
}

function noteExpiry(error: unknown): never {
  if (isApiError(error) && error.code === 'ADMIN_SESSION_EXPIRED') adminSessionStore.markExpired();
  // The admin flag may have been taken away (the admin command's revoke): asking who we are now lets the
  // admin route send a user who is no longer an admin to the dashboard, rather than a page of refusals.
  if (isApiError(error) && error.status === 403) void recheckSessionUser();
  throw error;
}

/**
 * Every admin API call goes through here: it carries the admin session beside the access token, a
 * refusal for an expired admin session turns the page into the "Admin Session Expired" card, and any other
 * refusal checks whether the user is still an admin.
 */
export function adminRequest<S extends z.ZodType>(
  path: string,
  options: RequestOptions & { schema: S },
): Promise<ApiResponse<z.output<S>>>;
export function adminRequest(path: string, options?: RequestOptions): Promise<ApiResponse<unknown>>;
export function adminRequest(path: string, options: RequestOptions & { schema?: z.ZodType } = {}) {
  // Expiry shows as the card, never as a toast.
  return apiRequest(path, withAdminSession(options)).catch(noteExpiry);
}

export function adminDownload(path: string, options: RequestOptions = {}) {
  return apiDownload(path, withAdminSession(options)).catch(noteExpiry);
}
