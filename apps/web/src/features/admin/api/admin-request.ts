import { ADMIN_SESSION_HEADER } from '@haversack/contracts';
import type { z } from 'zod';
import {
  type ApiResponse,
  apiDownload,
  apiRequest,
  isApiError,
  type RequestOptions,
} from '../../../lib/http-client';
import { adminSessionStore } from './admin-session-store';

function withAdminSession(options: RequestOptions): RequestOptions {
  const token = adminSessionStore.getToken();
  return token ? { ...options, headers: { ...options.headers, [ADMIN_SESSION_HEADER]: token } } : options;
}

function noteExpiry(error: unknown): never {
  if (isApiError(error) && error.code === 'ADMIN_SESSION_EXPIRED') adminSessionStore.markExpired();
  throw error;
}

/**
 * Every admin API call goes through here: it carries the admin session beside the access token, and a
 * refusal for an expired admin session turns the page into the "Admin Session Expired" card.
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
