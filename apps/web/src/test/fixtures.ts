import type { AuthTokens, User } from '@haversack/contracts';
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
  details?: { field: string; message: string }[],
): Response {
  return jsonResponse(status, {
    status: 'error',
    error: { type: 'error', code, message, status, ...(details ? { details } : {}) },
  });
}

type Handler = (request: { url: string; init: RequestInit }) => Response | Promise<Response>;

/** Stub the network boundary: `fetch` answers from a handler; calls are recorded for assertions. */
export function mockFetch(handler: Handler) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) =>
    handler({ url: String(input), init }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function authHeaderOf(init: RequestInit | undefined): string | undefined {
  const headers = init?.headers;
  if (!headers || Array.isArray(headers) || headers instanceof Headers) return undefined;
  return headers.Authorization;
}
