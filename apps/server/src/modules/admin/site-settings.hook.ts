import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { bearerToken } from '../../plugins/auth.js';
import type { AccessTokens } from '../accounts/access-tokens.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SiteSettingsService } from './site-settings.service.js';

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Signing in and out still works in maintenance, so that admins can get in. */
const alwaysOpen = new Set(['/api/v1/auth/login', '/api/v1/auth/refresh', '/api/v1/auth/logout']);

/**
 * Issue 15: during maintenance every write from a non-admin is refused with 503 MAINTENANCE_MODE while
 * reads still work; with registration closed, POST /auth/register is refused. Admin routes pass (their
 * own guard admits admins only).
 */
export function createSiteSettingsHook(deps: {
  settings: SiteSettingsService;
  accessTokens: AccessTokens;
  accounts: AccountsService;
}) {
  const isAdmin = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) return false;
    try {
      const auth = await deps.accounts.authenticate(await deps.accessTokens.verify(token));
      return auth.user.admin;
    } catch {
      return false;
    }
  };
  return async function siteSettingsHook(request: FastifyRequest): Promise<void> {
    if (readMethods.has(request.method)) return;
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/v1/') && !path.startsWith('/users/')) return;
    const settings = await deps.settings.current();
    if (path === '/api/v1/auth/register' && !settings.registration_open)
      throw new AppError('REGISTRATION_CLOSED');
    if (!settings.maintenance_mode || alwaysOpen.has(path) || path.startsWith('/api/v1/admin/')) return;
    if (path.startsWith('/api/v1/webhooks/')) return;
    if (await isAdmin(request)) return;
    throw new AppError('MAINTENANCE_MODE');
  };
}
