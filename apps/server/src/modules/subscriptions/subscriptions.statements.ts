import { type DirectRow, type DirectStatement, toDate, toDateOrNull } from '../../db/direct.js';
import { statementName } from '../../db/statements.js';
import type { SubscriptionRow, TierRow } from './subscriptions.repository.js';

/**
 * The read of a user's subscription with its tier that every counted action makes (the entitlements'
 * `ownTier`), written once as SQL and mapped by hand (db/direct.ts).
 */
const subscriptionColumns =
  's.id, s.user_id, s.tier_id, s.status, s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.cancel_reason, s.cancelled_at, s.provider, s.provider_customer_id, s.provider_subscription_id, s.provider_event_at, s.created_at, s.updated_at, s.cancelled_tier_id';
const SUBSCRIPTION_WIDTH = 16;
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

type Probe = (user: string, party: string) => string;
const withProbe = new Map<Probe, DirectStatement>();

/** $1 the user, $2 the party of the probe, a yes/no about them (the entitlements' probe). */
export function subscriptionByUserWithStatement(probe: Probe): DirectStatement {
  let statement = withProbe.get(probe);
  if (!statement) {
    const text = probe('$1', '$2');
    statement = {
      name: statementName('subscriptions_by_user_with_direct', text),
      text: byUser(`, (${text})`),
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
      cancelledTierId: row[15] as string | null,
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

/**
 * The same read as one column of a caller's statement: a JSON array of the subscription's and the tier's
 * columns and the probe's answer (false without a probe), or null when the user has no subscription.
 */
export function subscriptionReadColumn(user: string, party: string, probe: Probe | undefined): string {
  return `(select json_build_array(${subscriptionColumns}, ${tierColumns}, ${probe ? probe(user, party) : 'false'})
   from subscriptions s join subscription_tiers t on t.id = s.tier_id
  where s.user_id = ${user} limit 1)`;
}

/** What `subscriptionReadColumn` answered: the row `findByUserWith` would have. */
export interface SubscriptionRead {
  row: (ReturnType<typeof subscriptionWithTierFrom> & { probe: boolean }) | undefined;
}

/** JSON has no dates: the timestamps come back as text, turned into dates by the mapper's `toDate`. */
export function subscriptionReadFrom(answer: unknown): SubscriptionRead {
  if (answer === null || answer === undefined) return { row: undefined };
  const row = (typeof answer === 'string' ? JSON.parse(answer) : answer) as unknown[];
  return { row: { ...subscriptionWithTierFrom(row), probe: probeFrom(row) } };
}
