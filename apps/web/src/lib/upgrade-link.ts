import { isLiveFeature, isLiveUsageResource } from '@haversack/contracts';
import type { ApiError } from './http-client';
import { sameSitePath } from './redirect';
import { toast } from './toast';

export const upgradeLinkLabel = 'See upgrade options';

type PlanRefusal = Pick<ApiError, 'code' | 'details' | 'message' | 'serverMessage'>;

/** Issue 3: the two refusals that a better plan would lift. */
export function isPlanRefusal(error: Pick<ApiError, 'code'>): boolean {
  return error.code === 'LIMIT_EXCEEDED' || error.code === 'FEATURE_NOT_AVAILABLE';
}

/**
 * The upgrade page for what a refusal names (details[0].resource or .feature), or null when the error is not
 * a plan refusal. A refusal that names nothing this server offers still leads to the plan comparison.
 */
export function upgradePathFor(error: PlanRefusal, from: string | null = null): string | null {
  if (!isPlanRefusal(error)) return null;
  const detail = error.details[0];
  const back: Record<string, string> = from ? { from } : {};
  if (error.code === 'LIMIT_EXCEEDED' && isLiveUsageResource(detail?.resource)) {
    return `/subscription/upgrade?${new URLSearchParams({ resource: detail.resource, ...back })}`;
  }
  if (error.code === 'FEATURE_NOT_AVAILABLE' && isLiveFeature(detail?.feature)) {
    return `/subscription/upgrade?${new URLSearchParams({ feature: detail.feature, ...back })}`;
  }
  return '/subscription/compare';
}

/**
 * Where the user is now, for an upgrade to lead back to once bought: not the plan pages themselves, nor
 * the site's root (which only sends on to the dashboard).
 */
export function currentPlace(): string | null {
  const { pathname, search } = window.location;
  if (pathname === '/' || pathname.startsWith('/subscription')) return null;
  return sameSitePath(`${pathname}${search}`);
}

/**
 * The catalogue's line for these codes is generic; the server's own sentence says what was hit ("Your Free
 * plan allows 1 character. Upgrade to create more."), so refusals show that one.
 */
export function planRefusalMessage(error: PlanRefusal): string {
  return error.serverMessage ?? error.message;
}

/**
 * Issue 3: a plan refusal in one toast, its words and the way to the upgrade that lifts it, as the client's
 * own refusal toasts say it; for requests that answer their refusals themselves (`toast: false`).
 */
export function toastPlanRefusal(error: PlanRefusal): void {
  const upgradePath = upgradePathFor(error);
  if (upgradePath)
    toast.error(planRefusalMessage(error), undefined, { label: upgradeLinkLabel, href: upgradePath });
}
