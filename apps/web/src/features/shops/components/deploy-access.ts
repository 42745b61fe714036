import type { Party } from '@haversack/contracts';

/**
 * Who deploys shops into a party (spec/02 §7 POST shop_instances, docs/decisions.md "Shops"): its GM or a
 * manager, while it is not archived (an archived party is read-only). Kept apart from the deploy dialog so
 * that screens offering Deploy only to them need not load it.
 */
export function isShopManagedParty(party: Pick<Party, 'is_archived' | 'user_role'>): boolean {
  return !party.is_archived && (party.user_role === 'gm' || party.user_role === 'manager');
}
