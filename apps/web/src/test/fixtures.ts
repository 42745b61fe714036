import type { AuthProviders, AuthTokens, DiscordLink, User } from '@haversack/contracts';
import { vi } from 'vitest';

/** A user as the server sends it; override what the test is about. */
export function buildUser(overrides: Partial<User> = {}): User {
  const now = new Date('2026-01-01T00:00:00Z').toISOString();
  return {
    id: 'user-1',
    email: 'ranger@example.com',
    username: 'ranger',
    display_name: null,
    tier: 'tier_free',
    subscription_status: 'active',
    tier_upgraded_at: null,
    email_verified: true,
    email_verified_at: now,
    created_at: now,
    updated_at: now,
    admin: false,
    ...overrides,
  };
}

export function buildTokens(overrides: Partial<AuthTokens> = {}, expiresInMs = 15 * 60_000): AuthTokens {
  return {
    token: 'access-1',
    refresh_token: 'refresh-1',
    expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    ...overrides,
  };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function success(data: unknown, status = 200): Response {
  return jsonResponse(status, { status: 'success', data });
}

export function failure(
  status: number,
  code: string,
  message: string,
  details?: ({ field: string; message: string } & Record<string, string>)[],
): Response {
  return jsonResponse(status, {
    status: 'error',
    error: { type: 'error', code, message, status, ...(details ? { details } : {}) },
  });
}

/**
 * A failure of password recovery as the server answers it (withErrorShape 'password_recovery'): the
 * envelope plus `data.error`, the reason the screens show (spec/01 §7).
 */
export function recoveryFailure(
  status: number,
  code: string,
  message: string,
  details?: ({ field: string; message: string } & Record<string, string>)[],
): Response {
  return jsonResponse(status, {
    status: 'error',
    error: { type: 'error', code, message, status, ...(details ? { details } : {}) },
    data: { error: details?.[0]?.message ?? message },
  });
}

type Handler = (request: { url: string; init: RequestInit }) => Response | Promise<Response>;

/** Stub the network boundary: `fetch` answers from a handler; calls are recorded for assertions. */
export function mockFetch(
  handler: Handler,
  options: { providers?: AuthProviders; discordLink?: DiscordLink } = {},
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) =>
    String(input).includes('/api/v1/containers/by_owner?')
      ? answerOwnersFromTheirPaths(handler, String(input), init)
      : handler({ url: String(input), init }),
  );
  // The sign-in and profile screens ask which providers the server offers and who is linked (issue 16);
  // those answers are set here and kept out of the recorded calls, so a test sees only the calls its
  // screen makes for what it tests.
  const providers = options.providers ?? buildProviders();
  const discordLink = options.discordLink ?? { account: null, has_password: true };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (url.endsWith('/api/v1/auth/providers')) return success(providers);
    if (url.endsWith('/api/v1/users/me/discord') && (init.method ?? 'GET') === 'GET')
      return success(discordLink);
    return fetchMock(input, init);
  });
  return fetchMock;
}

/**
 * The fake server's GET containers/by_owner, as the real one answers it: each owner as its own containers
 * path (characters/{id}/containers, parties/{id}/containers) answers in the test's handler, an owner it
 * refuses left out. The batch request is the one recorded; the paths asked here are not.
 */
async function answerOwnersFromTheirPaths(
  handler: Handler,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const batch = new URL(url, 'http://test');
  const owners = (['character', 'party'] as const).flatMap((type) =>
    (batch.searchParams.get(`${type}_ids`) ?? '')
      .split(',')
      .filter((id) => id !== '')
      .map((id) => ({ type, id })),
  );
  const data: { owner: { type: 'character' | 'party'; id: string }; containers: unknown }[] = [];
  for (const owner of owners) {
    const path = `/api/v1/${owner.type === 'character' ? 'characters' : 'parties'}/${owner.id}/containers`;
    const answer = await handler({ url: url.replace(/\/api\/v1\/containers\/by_owner\?.*$/, path), init });
    if (!answer.ok) continue;
    data.push({ owner, containers: ((await answer.json()) as { data: unknown }).data });
  }
  return success(data);
}

/** A server's providers answer; by default one without Discord. */
export function buildProviders(discord: Partial<AuthProviders['discord']> = {}): AuthProviders {
  return {
    discord: {
      sign_in: false,
      interactions: false,
      invite_url: null,
      interactions_url: 'http://localhost:3000/api/v1/discord/interactions',
      ...discord,
    },
  };
}

export function authHeaderOf(init: RequestInit | undefined): string | undefined {
  const headers = init?.headers;
  if (!headers || Array.isArray(headers) || headers instanceof Headers) return undefined;
  return headers.Authorization;
}
