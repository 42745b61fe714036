import {
  featureLabels,
  liveUsageResources,
  subscriptionMessages,
  usageResources,
} from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import {
  buildCurrentSubscription,
  buildPatronage,
  buildTiers,
  unbuiltMention,
} from '../subscription-fixtures';
import { mockSubscriptionServer, requestBody } from '../subscription-test-server';
import { pastDueExplanation, SubscriptionPage } from './subscription-page';

const routes = [{ path: '/subscription', element: <SubscriptionPage /> }];

describe('SubscriptionPage', () => {
  it('shows the plan, its renewal date, a bar for every resource and the empty patronage lists', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_1', used: { characters: 4 } }),
    });
    renderRoutes(routes, '/subscription');

    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Adventurer');
    expect(screen.getByTestId('plan-status')).toHaveTextContent('Active');
    expect(screen.getByText('$5/month')).toBeInTheDocument();
    expect(screen.getByTestId('plan-renewal')).toHaveTextContent('Renews on April 1, 2026');
    expect(screen.getByTestId('usage-characters-summary')).toHaveTextContent('4 / 5');
    expect(screen.getByTestId('usage-characters')).toHaveAttribute('data-level', 'warning');
    expect(
      within(screen.getByTestId('usage-list'))
        .getAllByTestId(/^usage-[a-z_]+$/)
        .map((bar) => bar.dataset.testid),
    ).toEqual(liveUsageResources.map((resource) => `usage-${resource}`));
    expect(screen.getByTestId('usage-shop_templates')).toHaveTextContent('0 / 10');
    expect(screen.getByTestId('usage-item_templates')).toHaveTextContent('Unlimited');
    expect(screen.getByTestId('patronages-granted')).toHaveTextContent('You are not sponsoring anyone.');
    expect(screen.getByTestId('patronages-received')).toHaveTextContent('Nobody is sponsoring you');
    expect(screen.getByTestId('local-billing')).toHaveTextContent(subscriptionMessages.localBilling);
    expect(screen.getByTestId('local-billing')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
  });

  it('shows no usage bar for a limit that is not built yet, even when the server counts it', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_2', stored: true }) });
    renderRoutes(routes, '/subscription');

    const list = within(await screen.findByTestId('usage-list'));
    expect(list.getAllByTestId(/^usage-[a-z_]+$/)).toHaveLength(liveUsageResources.length);
    for (const resource of usageResources.filter((key) => !liveUsageResources.includes(key))) {
      expect(screen.queryByTestId(`usage-${resource}`)).not.toBeInTheDocument();
    }
    const mention = unbuiltMention();
    if (mention) expect(screen.getByTestId('usage-list')).not.toHaveTextContent(mention);
  });

  it('after a downgrade, says what is over the plan, that it is kept, and counts what the plan no longer includes', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_free',
        used: { characters: 10, parties_created: 3, shop_templates: 3 },
        subscription: { status: 'cancelled' },
      }),
    });
    renderRoutes(routes, '/subscription');

    expect(await screen.findByTestId('usage-characters-summary')).toHaveTextContent(
      '10 / 1 · 9 over the limit',
    );
    expect(screen.getByTestId('usage-parties_created-summary')).toHaveTextContent('3 / 1 · 2 over the limit');
    expect(screen.getByTestId('usage-shop_templates-summary')).toHaveTextContent('3 used · Not included');
    const notice = screen.getByTestId('over-limit');
    expect(notice).toHaveAttribute('role', 'status');
    expect(within(notice).getByText('More than your Free plan allows')).toBeInTheDocument();
    expect(
      within(notice)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '10 characters: your plan allows 1.',
      '3 parties you run: your plan allows 1.',
      '3 shop templates: your plan includes none.',
    ]);
    expect(notice).toHaveTextContent(
      'Nothing is removed: you can still open, change and delete them. You can add more once you are under your plan’s limit, or by upgrading.',
    );
    // "change" does not reach the stashes of those parties: Free has no party collaboration.
    expect(within(notice).getByTestId('over-limit-party-stash')).toHaveTextContent(
      'In your parties, your Free plan lets you look in the stash but not move things into or out of it: that needs party collaboration, on your own plan or from a member who sponsors you in that party.',
    );
  });

  it('says nothing of party stashes when what is over the plan is no party', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_free', used: { characters: 3 } }),
    });
    renderRoutes(routes, '/subscription');
    const notice = await screen.findByTestId('over-limit');
    expect(within(notice).queryByTestId('over-limit-party-stash')).not.toBeInTheDocument();
  });

  it('says "limit reached", and nothing of being over, exactly at a limit', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_free', used: { characters: 1 } }),
    });
    renderRoutes(routes, '/subscription');

    expect(await screen.findByTestId('usage-characters-summary')).toHaveTextContent(
      /^1 \/ 1 · limit reached$/,
    );
    expect(screen.getByTestId('usage-shop_templates-summary')).toHaveTextContent(/^Not included$/);
    expect(screen.queryByTestId('over-limit')).not.toBeInTheDocument();
  });

  it('cancels with the reason given, at the end of the period', async () => {
    const toastSuccess = vi.spyOn(toast, 'success');
    let cancelled = false;
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/subscription/cancel') && init.method === 'POST') {
        cancelled = true;
        return success(
          buildCurrentSubscription({ tier: 'tier_1', subscription: { cancel_at_period_end: true } })
            .subscription,
        );
      }
      if (url.endsWith('/subscription/current')) {
        return success(
          buildCurrentSubscription({ tier: 'tier_1', subscription: { cancel_at_period_end: cancelled } }),
        );
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    await user.type(within(dialog).getByLabelText(/Why are you cancelling/), 'Our campaign has ended');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));

    await vi.waitFor(() => expect(toastSuccess).toHaveBeenCalledWith(subscriptionMessages.cancelled));
    expect(requestBody(fetchMock, 'POST', '/subscription/cancel')).toEqual({
      reason: 'Our campaign has ended',
      cancel_at_period_end: true,
    });
    expect(await screen.findByTestId('plan-ends')).toHaveTextContent('Ends on April 1, 2026');
    // The plan still runs but no longer renews: the badge says when it ends, not "Active".
    expect(screen.getByTestId('plan-status')).toHaveTextContent('Ends Apr 1');
    expect(screen.getByTestId('plan-status')).toHaveAttribute('data-state', 'ending');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says a Free player is sponsored, by whom, with which plan and where, next to the limits it lifts', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_free',
        used: { characters: 1 },
        patronages: { granted: [], received: [buildPatronage({ patron_name: 'ranger' })] },
      }),
    });
    renderRoutes(routes, '/subscription');

    const plan = await screen.findByTestId('current-plan');
    const notice = within(plan).getByTestId('plan-sponsorships');
    await within(notice).findByText(/ranger sponsors you with Hero in/);
    expect(within(notice).getByRole('link', { name: 'The Lantern Bearers' })).toBeInTheDocument();
    expect(notice).toHaveTextContent('Inside that party your limits and features are Hero’s');
    // API tokens and granting patronage are checked on the user's own plan, in any party.
    expect(within(notice).getByTestId('plan-sponsorships-own-plan')).toHaveTextContent(
      'API access and sponsoring other players always follow your own plan.',
    );
    expect(screen.getByTestId('usage-characters-summary')).not.toHaveTextContent('limit reached');
    expect(screen.getByTestId('usage-characters-sponsored')).toHaveTextContent(
      'In The Lantern Bearers, your sponsor’s Hero plan applies.',
    );
    // Shops deployed in that party follow Hero there too; Free's "Not included" is only its own plan.
    expect(screen.getByTestId('usage-shop_deployments_monthly-sponsored')).toBeInTheDocument();
  });

  it('names no exception to a sponsorship when the own plan already has those features', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_2',
        patronages: { granted: [], received: [buildPatronage({ granted_tier: 'tier_3' })] },
      }),
    });
    renderRoutes(routes, '/subscription');

    const notice = await screen.findByTestId('plan-sponsorships');
    await within(notice).findByText(/sponsors you with Legend in/);
    expect(notice).toHaveTextContent('elsewhere your own Hero plan’s apply.');
    expect(within(notice).queryByTestId('plan-sponsorships-own-plan')).not.toBeInTheDocument();
  });

  it('warns, before cancelling, which sponsored members lose their plan with it', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_2',
        patronages: {
          granted: [
            buildPatronage(),
            buildPatronage({ id: 'patronage-2', beneficiary_name: 'cleric', party_name: 'Moonfall' }),
            buildPatronage({ id: 'patronage-3', beneficiary_name: 'gone', active: false }),
          ],
          received: [],
        },
      }),
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    const warning = within(dialog).getByTestId('cancel-ends-patronages');
    expect(warning).toHaveTextContent('Your 2 patronages end with it');
    expect(warning).toHaveTextContent('On April 1, 2026, these members lose the plan you granted them');
    expect(
      within(warning)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['bard: Hero in The Lantern Bearers', 'cleric: Hero in Moonfall']);
  });

  it('says nothing of patronages when cancelling a plan that sponsors nobody', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_2' }) });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    expect(within(dialog).queryByTestId('cancel-ends-patronages')).not.toBeInTheDocument();
  });

  it('warns, before cancelling, that the party stashes lock with the move to Free', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    const warning = within(dialog).getByTestId('cancel-ends-party-collaboration');
    expect(warning).toHaveTextContent('Party stashes lock for you');
    expect(warning).toHaveTextContent(
      'The Free plan does not include party collaboration. From April 1, 2026, you can no longer move things into or out of a party’s stash, or change it, in any party, the ones you run included, unless a member sponsors you in that party. You can still look in the stash and use your characters’ own inventories.',
    );
  });

  it('says, before cancelling, what is kept over the Free limits and which features stop', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_1', used: { characters: 3, shop_instances: 2 } }),
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    const summary = await within(dialog).findByTestId('plan-change-summary');
    expect(summary).toHaveTextContent('3 characters: the Free plan allows 1.');
    expect(summary).toHaveTextContent('2 deployed shops: the Free plan includes none.');
    expect(summary).toHaveTextContent('Nothing is removed');
    expect(summary).toHaveTextContent('nothing new can be made beyond the Free plan’s limits');
    // From the catalogue: what Adventurer has and Free lacks (the stash has its own notice).
    expect(summary).toHaveTextContent(featureLabels.shops_deployment);
    expect(summary).toHaveTextContent(featureLabels.loot_distribution);
    expect(summary).not.toHaveTextContent(featureLabels.party_collaboration);
  });

  it('names no stash lock when cancelling a plan whose collaboration Free also has', async () => {
    const tiers = buildTiers().map((tier) =>
      tier.identifier === 'tier_free'
        ? { ...tier, features: { ...tier.features, party_collaboration: true } }
        : tier,
    );
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }), tiers });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    await vi.waitFor(() =>
      expect(within(dialog).queryByTestId('cancel-ends-party-collaboration')).not.toBeInTheDocument(),
    );
  });

  it('says a plan staff gave costs nothing and holds until changed, and that cancelling it ends it at once', async () => {
    const toastSuccess = vi.spyOn(toast, 'success');
    let cancelled = false;
    const granted = { provider: null, current_period_end: null };
    mockFetch(({ url, init }) => {
      if (url.endsWith('/subscription/cancel') && init.method === 'POST') {
        cancelled = true;
        return success(buildCurrentSubscription({ tier: 'tier_free' }).subscription);
      }
      if (url.endsWith('/subscription/current')) {
        return success(
          cancelled
            ? buildCurrentSubscription({ tier: 'tier_free' })
            : buildCurrentSubscription({ tier: 'tier_3', subscription: granted }),
        );
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Legend');
    expect(screen.getByText('Given by staff: no charge')).toBeInTheDocument();
    expect(screen.queryByText('$20/month')).not.toBeInTheDocument();
    expect(screen.getByTestId('plan-renewal')).toHaveTextContent(
      'It holds until the site’s staff change it, or until you cancel it.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel subscription' });
    expect(dialog).toHaveTextContent('you move to the Free plan at once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await vi.waitFor(() => expect(toastSuccess).toHaveBeenCalledWith(subscriptionMessages.cancelledNow));
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Free');
  });

  it('reactivates a cancelled plan and refetches it', async () => {
    let reactivated = false;
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/subscription/reactivate') && init.method === 'POST') {
        reactivated = true;
        return success(buildCurrentSubscription({ tier: 'tier_2' }).subscription);
      }
      if (url.endsWith('/subscription/current')) {
        return success(
          buildCurrentSubscription({ tier: 'tier_2', subscription: { cancel_at_period_end: !reactivated } }),
        );
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
    renderRoutes(routes, '/subscription');

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByTestId('plan-renewal')).toHaveTextContent('Renews on April 1, 2026');
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/subscription/current')),
    ).toHaveLength(2);
  });

  it('explains a past-due payment and offers the billing portal with Stripe', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_1',
        subscription: { status: 'past_due', billing_provider: 'stripe', provider: 'stripe' },
      }),
    });
    renderRoutes(routes, '/subscription');
    const pastDue = await screen.findByTestId('past-due');
    expect(pastDue).toHaveTextContent(pastDueExplanation);
    expect(within(pastDue).getByRole('button', { name: 'Manage billing' })).toBeInTheDocument();
    expect(screen.getByTestId('plan-status')).toHaveTextContent('Past due');
    expect(screen.queryByTestId('local-billing')).not.toBeInTheDocument();
  });

  it('ends a granted patronage after confirmation', async () => {
    const fetchMock = mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_2',
        patronages: { granted: [buildPatronage()], received: [] },
      }),
      writes: { 'DELETE /patronages/patronage-1': () => new Response(null, { status: 204 }) },
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    const granted = await screen.findByTestId('patronages-granted');
    await vi.waitFor(() => expect(granted).toHaveTextContent('bard — Hero'));
    await user.click(within(granted).getByRole('button', { name: 'End patronage in The Lantern Bearers' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this patronage?' });
    expect(dialog).toHaveTextContent('bard loses Hero in The Lantern Bearers at once.');
    await user.click(within(dialog).getByRole('button', { name: 'End patronage' }));
    await vi.waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => init?.method === 'DELETE' && String(url).endsWith('/patronages/patronage-1'),
        ),
      ).toBe(true),
    );
  });

  it('names the party and the plan when a sponsored member ends their patronage', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        patronages: { granted: [], received: [buildPatronage()] },
      }),
    });
    renderRoutes(routes, '/subscription');
    const user = userEvent.setup();

    const received = await screen.findByTestId('patronages-received');
    await user.click(
      await within(received).findByRole('button', { name: 'End patronage in The Lantern Bearers' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'End this patronage?' });
    expect(dialog).toHaveTextContent(
      'You lose Hero, which ranger granted you in The Lantern Bearers, at once: your own plan applies there.',
    );
  });

  it('shows an error panel whose Try Again loads the plan', async () => {
    let attempts = 0;
    mockFetch(({ url }) => {
      if (url.endsWith('/subscription/current')) {
        attempts += 1;
        return attempts === 1
          ? failure(403, 'FORBIDDEN', 'no')
          : success(buildCurrentSubscription({ tier: 'tier_3' }));
      }
      return failure(404, 'RESOURCE_NOT_FOUND', 'not faked');
    });
    renderRoutes(routes, '/subscription');
    expect(await screen.findByTestId('error-panel')).toHaveTextContent(
      'Your subscription could not be loaded.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('plan-name')).toHaveTextContent('Legend');
    expect(screen.queryByRole('link', { name: 'Upgrade' })).not.toBeInTheDocument();
  });
});
