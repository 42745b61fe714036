import { type DirectRow, type DirectStatement, toDate, toDateOrNull } from '../../db/direct.js';
import { statementName } from '../../db/statements.js';
import type { SubscriptionRow, TierRow } from './subscriptions.repository.js';

/**
 * The read of a user's subscription with its tier that every counted action makes (the entitlements'
 * `ownTier`), written once as SQL and mapped by hand (db/direct.ts).
 */
const subscriptionColumns =
  's.id, s.user_id, s.tier_id, s.status, s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.cancel_reason, s.cancelled_at, s.provider, s.provider_customer_id, s.provider_subscription_id, s.provider_event_at, s.created_at, s.updated_at';
const SUBSCRIPTION_WIDTH = 15;
const tierColumns =
  't.id, t.identifier, t.name, t.description, t.rank, t.price_cents, t.currency, t.interval, t.limits, t.features, t.created_at, t.updated_at';
const TIER_WIDTH = 12;

const byUser = (extra: string) =>
  `select ${subscriptionColumns}, ${tierColumns}${extra}
  from subscriptions s
  join subscription_tiers t on t.id = s.tier_id
 where s.user_id = $1
 limit 1`;

/** $1 the user. */
export const subscriptionByUserStatement: DirectStatement = {
  name: 'subscriptions_by_user_direct',
  text: byUser(''),
};

const withProbe = new Map<string, DirectStatement>();

/** $1 the user, $2 the party of the probe: its text is a yes/no about them (the entitlements' probe). */
export function subscriptionByUserWithStatement(probe: string): DirectStatement {
  let statement = withProbe.get(probe);
  if (!statement) {
    statement = {
      name: statementName('subscriptions_by_user_with_direct', probe),
      text: byUser(`, (${probe})`),
    };
    withProbe.set(probe, statement);
  }
  return statement;
}

export function subscriptionWithTierFrom(row: DirectRow): { subscription: SubscriptionRow; tier: TierRow } {
  const t = SUBSCRIPTION_WIDTH;
  return {
    subscription: {
      id: row[0] as string,
      userId: row[1] as string,
      tierId: row[2] as string,
      status: row[3] as SubscriptionRow['status'],
      currentPeriodStart: toDateOrNull(row[4]),
      currentPeriodEnd: toDateOrNull(row[5]),
      cancelAtPeriodEnd: row[6] as boolean,
      cancelReason: row[7] as string | null,
      cancelledAt: toDateOrNull(row[8]),
      provider: row[9] as SubscriptionRow['provider'],
      providerCustomerId: row[10] as string | null,
      providerSubscriptionId: row[11] as string | null,
      providerEventAt: toDateOrNull(row[12]),
      createdAt: toDate(row[13]),
      updatedAt: toDate(row[14]),
    },
    tier: {
      id: row[t] as string,
      identifier: row[t + 1] as string,
      name: row[t + 2] as string,
      description: row[t + 3] as string,
      rank: row[t + 4] as number,
      priceCents: row[t + 5] as number,
      currency: row[t + 6] as string,
      interval: row[t + 7] as string,
      limits: row[t + 8] as TierRow['limits'],
      features: row[t + 9] as TierRow['features'],
      createdAt: toDate(row[t + 10]),
      updatedAt: toDate(row[t + 11]),
    },
  };
}

/** The probe's answer, after the subscription's and the tier's columns. */
export function probeFrom(row: DirectRow): boolean {
  return row[SUBSCRIPTION_WIDTH + TIER_WIDTH] as boolean;
}
