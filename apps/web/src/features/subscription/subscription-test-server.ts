import type { CurrentSubscription, Tier } from '@haversack/contracts';
import { failure, jsonResponse, mockFetch, success } from '../../test/fixtures';
import { buildCurrentSubscription, buildTiers } from './subscription-fixtures';

interface FakeServerOptions {
  current?: CurrentSubscription;
  /** The plans GET /subscription/tiers answers; by default the catalogue as the server presents it. */
  tiers?: Tier[];
  billingProvider?: 'local' | 'stripe' | 'none';
  /** Answers for the writes, by "METHOD /path" after /api/v1. */
  writes?: Record<string, () => Response>;
  /** The checkout references the server issued to this user; by default any it is asked about. */
  checkouts?: string[];
}

/** The subscription endpoints at the network boundary, with every call recorded. */
export function mockSubscriptionServer(options: FakeServerOptions = {}) {
  const current = options.current ?? buildCurrentSubscription();
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    const method = init.method ?? 'GET';
    if (method === 'GET' && path === '/subscription/tiers') {
      return jsonResponse(200, {
        status: 'success',
        data: options.tiers ?? buildTiers(),
        meta: { billing_provider: options.billingProvider ?? 'local' },
      });
    }
    if (method === 'GET' && path === '/subscription/current') return success(current);
    const checkout = /^\/subscription\/checkout\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && checkout !== undefined) {
      const sessionId = decodeURIComponent(checkout);
      return options.checkouts === undefined || options.checkouts.includes(sessionId)
        ? success({ session_id: sessionId, created_at: '2026-03-01T00:00:00.000Z' })
        : failure(404, 'RESOURCE_NOT_FOUND', 'Checkout not found.');
    }
    const write = options.writes?.[`${method} ${path}`];
    if (write) return write();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${path}`);
  });
}

export function requestBody(
  fetchMock: ReturnType<typeof mockFetch>,
  method: string,
  pathEnd: string,
): unknown {
  const call = fetchMock.mock.calls.find(
    ([url, init]) => init?.method === method && String(url).endsWith(pathEnd),
  );
  return call?.[1]?.body === undefined ? undefined : JSON.parse(String(call[1].body));
}
