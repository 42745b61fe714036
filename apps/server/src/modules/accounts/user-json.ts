import type { User } from '@haversack/contracts';
import type { UserRow } from './accounts.repository.js';

/** spec/01 §3 User, as the server maps it; tier and status come from the user's subscription. */
export function toUserJson(row: UserRow, subscription: { tier: string; status: string }): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username || row.displayName || '',
    display_name: row.displayName,
    tier: subscription.tier,
    subscription_status: subscription.status,
    tier_upgraded_at: row.tierUpgradedAt?.toISOString() ?? null,
    email_verified: row.emailVerifiedAt !== null,
    email_verified_at: row.emailVerifiedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    admin: row.admin,
  };
}
