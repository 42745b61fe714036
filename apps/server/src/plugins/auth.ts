import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';
import type { AccessTokens } from '../modules/accounts/access-tokens.js';
import type { AccountsService, AuthenticatedUser } from '../modules/accounts/accounts.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` (or `identify` when a token is present). */
    auth: AuthenticatedUser | null;
  }
  interface FastifyInstance {
    /** preHandler: a valid bearer token is required. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler: a bearer token is honoured when present and valid, otherwise the request is anonymous. */
    identify: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Authenticates once per route prefix (STYLE: "authorise once, then per action"). */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { accessTokens: AccessTokens; accounts: AccountsService }) => {
    app.decorateRequest('auth', null);

    const resolve = async (token: string) =>
      options.accounts.authenticate(await options.accessTokens.verify(token));

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) throw new AppError('UNAUTHORIZED');
      request.auth = await resolve(token);
    });

    app.decorate('identify', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) return;
      try {
        request.auth = await resolve(token);
      } catch {
        request.auth = null;
      }
    });
  },
  { name: 'auth', dependencies: ['error-handler'] },
);

/** The authenticated user of a route guarded by `authenticate`. */
export function requireAuth(request: FastifyRequest): AuthenticatedUser {
  if (!request.auth) throw new AppError('UNAUTHORIZED');
  return request.auth;
}
