import type { z } from 'zod';
import { type ApiResponse, apiRequest, type RequestOptions } from '../../../lib/http-client';

/**
 * Every call of the Dashboard, Analytics, Financial, Moderation, Communications and Bulk Operations
 * pages goes through here. Stand-in: the `admin` branch adds `adminRequest` (admin-request.ts), which
 * sends the X-Admin-Session header and turns ADMIN_SESSION_EXPIRED into the expired card; at merge this
 * becomes `export { adminRequest as adminPagesRequest } from './admin-request';`.
 */
export function adminPagesRequest<S extends z.ZodType>(
  path: string,
  options: RequestOptions & { schema: S },
): Promise<ApiResponse<z.output<S>>>;
export function adminPagesRequest(path: string, options?: RequestOptions): Promise<ApiResponse<unknown>>;
export function adminPagesRequest(path: string, options: RequestOptions & { schema?: z.ZodType } = {}) {
  return apiRequest(path, options);
}
