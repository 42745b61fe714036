import {
  type CurrentSubscription,
  limitExceededMessage,
  type TierIdentifier,
  type UsageResource,
} from '@haversack/contracts';
import { useUiStore } from '../../stores/ui-store';
import { failure, mockFetch, success } from '../../test/fixtures';
import { buildCurrentSubscription } from './subscription-fixtures';

interface PlanLimitServerOptions {
  resource: UsageResource;
  /** The create the page sends, after /api/v1: "/parties". */
  createPath: string;
  /** How many the plan allows of the resource, whatever the tier's own limit. */
  limit: number;
  /** How many GET /subscription/current counts until a create is refused. */
  used: number;
  tier?: TierIdentifier;
}

/** The user's plan, counting `used` of `limit` for the resource. */
export function buildCurrentAtUsage(
  resource: UsageResource,
  used: number,
  limit: number,
  tier: TierIdentifier = 'tier_free',
): CurrentSubscription {
  const current = buildCurrentSubscription({ tier });
  return { ...current, usage: { ...current.usage, [resource]: { used, limit } } };
}

/**
 * A create page's server around a plan limit: the plan counts `used`; the create is refused with
 * LIMIT_EXCEEDED as the server words it, after which the plan counts the limit full, as when the page's
 * count was stale (one was created elsewhere). Every call is recorded.
 */
export function mockPlanLimitServer({ resource, createPath, limit, used, tier }: PlanLimitServerOptions) {
  let refused = false;
  const current = (count: number) => buildCurrentAtUsage(resource, count, limit, tier);
  const refusal = limitExceededMessage(current(used).tier.name, resource, limit);
  const fetchMock = mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    const method = init.method ?? 'GET';
    if (method === 'GET' && path === '/subscription/current')
      return success(current(refused ? Math.max(used, limit) : used));
    if (method === 'POST' && path === createPath) {
      refused = true;
      return failure(403, 'LIMIT_EXCEEDED', refusal, [{ field: resource, message: refusal, resource }]);
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${path}`);
  });
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
  return { fetchMock, refusal, posts };
}

/**
 * The messages of the toasts added from now on that match `pattern` (the page's own words). Test files share
 * a worker, and with it the toasts another file left and any its late answers add meanwhile.
 */
export function watchToasts(pattern: RegExp): () => string[] {
  const before = new Set(useUiStore.getState().toasts.map((toast) => toast.id));
  return () =>
    useUiStore
      .getState()
      .toasts.filter((toast) => !before.has(toast.id) && pattern.test(toast.message))
      .map((toast) => toast.message);
}
