import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { partyCollaborationQuery } from '../../inventory/api/inventory-api';
import { subscriptionKeys } from './subscription-api';

describe('what a plan change refreshes', () => {
  it('asks again whether the party stash can be used, with the rest of the account’s plan data', async () => {
    // Review (keyboard, 11): after an upgrade, the party Inventory still said collaboration was not included.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const collaboration = partyCollaborationQuery('p1').queryKey;
    client.setQueryData(collaboration, false);
    expect(client.getQueryState(collaboration)?.isInvalidated).toBe(false);

    // What useRefreshAfterPlanChange does after a checkout, a cancellation or a reactivation.
    await client.invalidateQueries({ queryKey: subscriptionKeys.account() });

    expect(client.getQueryState(collaboration)?.isInvalidated).toBe(true);
    client.clear();
  });
});
