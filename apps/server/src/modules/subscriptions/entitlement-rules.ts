import { type TierIdentifier, tierRank } from '@haversack/contracts';

/** spec/01 §5: unlimited (null) or no limit at all is always allowed; otherwise used + count ≤ limit. */
export function limitAllows(limit: number | null | undefined, used: number, count = 1): boolean {
  if (limit === null || limit === undefined) return true;
  return used + count <= limit;
}

export function remaining(limit: number | null | undefined, used: number): number | null {
  if (limit === null || limit === undefined) return null;
  return Math.max(0, limit - used);
}

/** spec/01 §5: a feature is allowed only if it is exactly true in the tier. */
export function featureAllowed(features: Record<string, unknown>, feature: string): boolean {
  return features[feature] === true;
}

/**
 * DESIGN §5: inside a party the effective tier is the higher of the user's own and an active patronage's
 * granted tier there.
 */
export function higherTier<T extends { identifier: string }>(own: T, granted: T | undefined): T {
  if (!granted) return own;
  return rankOf(granted.identifier) > rankOf(own.identifier) ? granted : own;
}

export function rankOf(identifier: string): number {
  return Object.hasOwn(tierRank, identifier) ? tierRank[identifier as TierIdentifier] : 0;
}

/** Monthly resources count the current UTC calendar month. */
export function currentMonth(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** One billing period later, clamped to the month's last day (Jan 31 → Feb 28), as card providers do. */
export function addBillingMonth(from: Date): Date {
  const target = new Date(from);
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

export interface SubscriptionState {
  tierIdentifier: string;
  status: 'active' | 'cancelled' | 'past_due';
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
}

/**
 * A subscription cancelled at period end keeps its tier until the period closes, then falls to Free.
 * Providers report this too, but the local provider has no one to tell us, so it is read from the dates.
 */
export function hasLapsed(state: SubscriptionState, now: Date): boolean {
  return (
    state.tierIdentifier !== 'tier_free' &&
    state.cancelAtPeriodEnd &&
    state.currentPeriodEnd !== null &&
    state.currentPeriodEnd <= now
  );
}
