import { apiTokenMessages } from '@haversack/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import type { ApiTokenCredential } from '../modules/api-tokens/api-tokens.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Only a signed-in person may call this route; an API token is refused with 403 (issue 16 §5). */
    sessionOnly?: boolean;
    /**
     * A POST that only reads (its question is a body, not a query): a `read` API token may call it. The
     * route must change nothing, since a read-only token's owner was promised exactly that.
     */
    readsOnly?: boolean;
  }
}

/**
 * Calls no API token may make, whatever its scope (issue 16 §5): the admin area, managing API tokens (a
 * token cannot mint tokens), the account's security (sign-in, sign-out, signed-in devices, password, email,
 * linked accounts), billing, and starting or ending a sponsorship (it hands out a paid plan, or takes one
 * away, as billing does). Written as route patterns so that routes of other modules are covered without
 * each one remembering a flag; a route may also say `config: { sessionOnly: true }`.
 */
const sessionOnlyPrefixes = [
  '/api/v1/admin',
  '/api/v1/users/me/api_tokens',
  '/api/v1/users/me/discord',
  '/api/v1/users/me/sessions',
];
const sessionOnlyRoutes = new Set([
  'PATCH /api/v1/users/me',
  'DELETE /api/v1/users/me',
  'GET /api/v1/users/me/export',
  'PUT /api/v1/users/me/password',
  'POST /api/v1/subscription/checkout',
  'POST /api/v1/subscription/cancel',
  'POST /api/v1/subscription/reactivate',
  'POST /api/v1/subscription/billing_portal',
  'POST /api/v1/patronages',
  'DELETE /api/v1/patronages/:id',
]);

const readMethods = new Set(['GET', 'HEAD']);

/** Whether no API token may call the route `method pattern` (Fastify's pattern, `/api/v1/parties/:id`). */
export function isSessionOnlyRoute(
  method: string,
  pattern: string,
  config?: { sessionOnly?: boolean },
): boolean {
  if (config?.sessionOnly) return true;
  if (sessionOnlyPrefixes.some((prefix) => pattern === prefix || pattern.startsWith(`${prefix}/`)))
    return true;
  // Every call under /auth but the read-only ones (GET /auth/me, /auth/verify) concerns the sign-in itself.
  if (pattern.startsWith('/api/v1/auth/') && !readMethods.has(method)) return true;
  return sessionOnlyRoutes.has(`${method} ${pattern}`);
}

function isSessionOnly(request: FastifyRequest): boolean {
  const pattern = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  return isSessionOnlyRoute(request.method, pattern, request.routeOptions.config);
}

/** Throws 403 when the request may not be made with this API token. */
export function assertApiTokenMayCall(request: FastifyRequest, credential: ApiTokenCredential): void {
  if (isSessionOnly(request)) {
    throw new AppError('FORBIDDEN', apiTokenMessages.sessionOnly, {
      details: [{ field: 'authorization', message: apiTokenMessages.sessionOnly }],
    });
  }
  const reads = readMethods.has(request.method) || request.routeOptions.config.readsOnly === true;
  if (credential.scope === 'read' && !reads) {
    throw new AppError('FORBIDDEN', apiTokenMessages.readOnly, {
      details: [{ field: 'authorization', message: apiTokenMessages.readOnly }],
    });
  }
}
