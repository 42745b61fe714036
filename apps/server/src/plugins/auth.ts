import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';
import { markChangeSource } from '../lib/change-source.js';
import type { AccessTokens } from '../modules/accounts/access-tokens.js';
import type {
  AccountsService,
  AuthenticatedUser,
  SessionUser,
} from '../modules/accounts/accounts.service.js';
import { type ApiTokensService, isApiTokenSecret } from '../modules/api-tokens/api-tokens.service.js';
import { assertApiTokenMayCall } from './api-token-access.js';

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

/** What `identify` passes on for an API token, rather than treating its request as anonymous. */
const apiTokenRefusals: ReadonlySet<string> = new Set(['FORBIDDEN', 'RATE_LIMITED']);

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Authenticates once per route prefix (STYLE: "authorise once, then per action"). A bearer token is
 * either a session's short-lived access token (a JWT) or a personal API token (`hvk_...`, issue 16 §5),
 * which answers to the same rules plus its scope, and marks what the request changes as coming from the API.
 */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      accessTokens: AccessTokens;
      accounts: AccountsService;
      apiTokens: ApiTokensService;
      /** The per-user budget of API-token calls (the rate-limit plugin's); a bare app in a test has none. */
      limitApiTokenCall?: (request: FastifyRequest, userId: string) => Promise<void>;
    },
  ) => {
    app.decorateRequest('auth', null);

    const resolve = async (token: string, request: FastifyRequest): Promise<AuthenticatedUser> => {
      if (isApiTokenSecret(token)) {
        const auth = await options.apiTokens.authenticate(token);
        // Counted before the scope check: a refused call costs the budget too and tells what is left.
        await options.limitApiTokenCall?.(request, auth.user.id);
        assertApiTokenMayCall(request, auth.apiToken);
        markChangeSource('api');
        return auth;
      }
      return options.accounts.authenticate(await options.accessTokens.verify(token));
    };

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) throw new AppError('UNAUTHORIZED');
      request.auth = await resolve(token, request);
    });

    app.decorate('identify', async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (!token) return;
      try {
        request.auth = await resolve(token, request);
      } catch (error) {
        // An API token refused for this call (a session-only one) or past its budget says so, as on every
        // other route, rather than going on anonymous and answering as if no token had been sent.
        if (isApiTokenSecret(token) && error instanceof AppError && apiTokenRefusals.has(error.code))
          throw error;
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

/** The signed-in session of a route that only a person at the web app may call (never an API token). */
export function requireSession(request: FastifyRequest): SessionUser {
  const auth = requireAuth(request);
  if (auth.apiToken) throw new AppError('FORBIDDEN');
  return auth;
}
