import {
  featureKeys,
  featureLabels,
  isLiveFeature,
  isLiveLimit,
  isLiveUsageResource,
  limitKeys,
  subscriptionMessages,
} from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { subscriptionKeys } from '../api/subscription-api';
import { limitLabels } from '../plan-text';
import {
  buildCurrentSubscription,
  buildPatronage,
  buildStoredTiers,
  unbuiltMention,
} from '../subscription-fixtures';
import { mockSubscriptionServer, requestBody } from '../subscription-test-server';
import { UpgradePage } from './upgrade-page';

const routes = [
  { path: '/subscription/upgrade', element: <UpgradePage /> },
  { path: '/subscription/success', element: <p>success page</p> },
];

describe('UpgradePage', () => {
  it('explains a limit that was hit and recommends the lowest plan that lifts it', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ used: { characters: 1 } }) });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');

    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      // Counted by the limit, as the create pages' "1 of 1 character used" (review: "1 of 1 characters").
      'You have used 1 of 1 character on the Free plan.',
    );
    const options = within(screen.getByTestId('upgrade-options'));
    expect(options.getAllByRole('heading').map((heading) => heading.textContent)).toEqual([
      'Adventurer',
      'Hero',
      'Legend',
    ]);
    expect(screen.getByTestId('upgrade-option-tier_1')).toHaveTextContent('Recommended');
    expect(screen.getByTestId('upgrade-option-tier_2')).not.toHaveTextContent('Recommended');
    expect(within(screen.getByTestId('upgrade-option-tier_1')).getByText('5 characters')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('upgrade-option-tier_3')).getByText('Unlimited characters'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade to Adventurer — $5/month' })).toBeInTheDocument();
    expect(screen.getByTestId('local-billing')).toHaveTextContent(subscriptionMessages.localBilling);
    // A standing notice, not an alert announced on every visit.
    expect(screen.getByTestId('local-billing')).toHaveAttribute('role', 'status');
  });

  it('counts a limit above one in the plural', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_1', used: { characters: 5 } }),
    });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');

    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      'You have used 5 of 5 characters on the Adventurer plan.',
    );
  });

  it('says upgrades are unavailable when the server has no billing, and offers no working button', async () => {
    const fetchMock = mockSubscriptionServer({ billingProvider: 'none' });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');

    expect(await screen.findByTestId('billing-disabled')).toHaveTextContent(
      'Upgrades are not available: billing is not configured on this server.',
    );
    expect(screen.queryByTestId('local-billing')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Upgrade to Adventurer — $5/month' });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toBeUndefined();
  });

  it('explains a missing feature and offers only the plans that include it', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?feature=patronage_system');

    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      'Sponsoring other players (patronage) is not included in your Free plan.',
    );
    expect(screen.queryByTestId('upgrade-option-tier_1')).not.toBeInTheDocument();
    expect(screen.getByTestId('upgrade-option-tier_2')).toHaveTextContent('Recommended');
    expect(screen.getByTestId('upgrade-option-tier_3')).toBeInTheDocument();
  });

  it('tells a player refused the party stash that a sponsor in the party is the other way in', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?feature=party_collaboration');
    const explanation = await screen.findByTestId('upgrade-explanation');
    expect(explanation).toHaveTextContent('Party collaboration is not included in your Free plan.');
    expect(within(explanation).getByTestId('party-collaboration-note')).toHaveTextContent(
      'Party collaboration: each player who uses the party stash needs it on their own plan or through a patronage (a member on Hero or Legend can sponsor them in that party). The Game Master’s plan does not cover the other players.',
    );
    expect(screen.getByTestId('upgrade-option-tier_1')).toHaveTextContent('Recommended');
  });

  it('names the feature asked about once per plan, not again under "Also includes"', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?feature=party_collaboration');
    const adventurer = await screen.findByTestId('upgrade-option-tier_1');
    expect(within(adventurer).getByText('Includes party collaboration')).toBeInTheDocument();
    expect(
      within(adventurer)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Deploy shops', 'Loot distribution']);
    for (const tier of ['tier_1', 'tier_2', 'tier_3']) {
      const card = screen.getByTestId(`upgrade-option-${tier}`);
      expect(within(card).getAllByText(/party collaboration/i)).toHaveLength(1);
    }
  });

  it('says on each card after the first what it adds over the one before, so Hero and Legend read apart', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?feature=party_collaboration');
    const changes = (tier: string) =>
      within(screen.getByTestId(`upgrade-option-${tier}`))
        .getAllByRole('listitem')
        .map((item) => item.textContent ?? '');

    expect(await screen.findByTestId('upgrade-option-tier_1')).toHaveTextContent('Also includes:');
    expect(screen.getByTestId('upgrade-option-tier_2')).toHaveTextContent('More than Adventurer:');
    expect(changes('tier_2')).toEqual(
      expect.arrayContaining(['Characters: 5 → 20', 'Sponsor other players (patronage)']),
    );
    expect(screen.getByTestId('upgrade-option-tier_3')).toHaveTextContent('More than Hero:');
    expect(changes('tier_3')).toContain('Characters: 20 → Unlimited');
    expect(changes('tier_3')).not.toContain('Sponsor other players (patronage)');
  });

  it('puts every plan’s price at the right of its name, Recommended or not, at any width', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?resource=characters');
    await screen.findByTestId('upgrade-options');
    for (const [tier, price] of [
      ['tier_1', '$5/month'],
      ['tier_2', '$10/month'],
      ['tier_3', '$20/month'],
    ] as const) {
      const card = within(screen.getByTestId(`upgrade-option-${tier}`));
      const header = card.getByText(price, { selector: 'p' }).parentElement;
      // One row that never wraps (a wrapping row put the Recommended card's price under its name on a phone),
      // holding the name (and the badge) on the left.
      expect(header?.getAttribute('style')).toMatch(/--group-wrap:\s*nowrap/);
      expect(header).toContainElement(card.getByRole('heading'));
    }
  });

  it('tells a plain plan choice as information, and a limit that was hit as a warning', async () => {
    mockSubscriptionServer();
    const { unmount } = renderRoutes(routes, '/subscription/upgrade?tier=tier_2');
    const choice = await screen.findByTestId('upgrade-explanation');
    expect(choice).toHaveTextContent('Move from Free ($0/month) to Hero ($10/month).');
    expect(choice.getAttribute('style')).toContain('blue');
    expect(choice.getAttribute('style')).not.toContain('yellow');
    unmount();
    mockSubscriptionServer({ current: buildCurrentSubscription({ used: { characters: 1 } }) });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');
    expect((await screen.findByTestId('upgrade-explanation')).getAttribute('style')).toContain('yellow');
  });

  it('says a count over the limit after a downgrade as kept against what the plan allows', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ used: { characters: 10 } }) });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');
    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      'You have 10 characters; your Free plan allows 1. Nothing is removed',
    );
  });

  it('offers only plans with room for one more than the user has, and recommends the first of them', async () => {
    // 7 characters kept from Legend: Adventurer's 5 would still refuse the next one.
    mockSubscriptionServer({ current: buildCurrentSubscription({ used: { characters: 7 } }) });
    renderRoutes(routes, '/subscription/upgrade?resource=characters');
    const options = await screen.findByTestId('upgrade-options');
    expect(screen.queryByTestId('upgrade-option-tier_1')).not.toBeInTheDocument();
    expect(within(options).getByTestId('upgrade-option-tier_2')).toHaveTextContent('Recommended');
  });

  it('says "Shop deployment is not included in your Free plan" for the shop feature', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?feature=shops_deployment');
    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      'Shop deployment is not included in your Free plan.',
    );
    expect(screen.getByTestId('upgrade-option-tier_1')).toHaveTextContent('Recommended');
  });

  it.each([
    [
      'feature=shops_deployment&resource=shop_deployments_monthly',
      'Your Free plan allows no shop deployments a month.',
    ],
    ['resource=shop_instances', 'Your Free plan allows no deployed shops.'],
  ])('says a limit the plan has none of as a limit (%s)', async (query, sentence) => {
    mockSubscriptionServer();
    renderRoutes(routes, `/subscription/upgrade?${query}`);
    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(sentence);
    expect(screen.getByTestId('upgrade-explanation')).not.toHaveTextContent('/ month');
    expect(screen.getByTestId('upgrade-option-tier_1')).toHaveTextContent('Recommended');
  });

  it.each([
    'feature=ai_tools',
    'feature=loot_distribution',
    'feature=api_access',
    'feature=custom_branding',
    'feature=premium_support',
    'resource=loot_templates',
    'resource=ai_uses_monthly',
  ])('sells nothing that is not built yet: ?%s is not an upgrade subject', async (query) => {
    const [kind, key] = query.split('=') as [string, string];
    const live = kind === 'feature' ? isLiveFeature(key) : isLiveUsageResource(key);
    mockSubscriptionServer({
      tiers: buildStoredTiers(),
      current: buildCurrentSubscription({ stored: true }),
    });
    renderRoutes(routes, `/subscription/upgrade?${query}`);
    if (live) {
      expect(await screen.findByTestId('upgrade-explanation')).toBeInTheDocument();
    } else {
      expect(await screen.findByTestId('upgrade-unknown')).toBeInTheDocument();
      expect(screen.queryByTestId('upgrade-options')).not.toBeInTheDocument();
    }
  });

  it('lists only live limits and features among what a plan changes, even when the plans carry more', async () => {
    mockSubscriptionServer({
      tiers: buildStoredTiers(),
      current: buildCurrentSubscription({ tier: 'tier_1', stored: true }),
    });
    renderRoutes(routes, '/subscription/upgrade?tier=tier_3');

    const option = await screen.findByTestId('upgrade-option-tier_3');
    const changes = within(option)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(changes).toContain('Characters: 5 → Unlimited');
    expect(changes).toContain('Shop templates: 10 → Unlimited');
    expect(changes).toContain('Sponsor other players (patronage)');
    const mention = unbuiltMention();
    if (mention) expect(option).not.toHaveTextContent(mention);
    const labels = [
      ...limitKeys.filter((key) => !isLiveLimit(key)).map((key) => limitLabels[key]),
      ...featureKeys.filter((key) => !isLiveFeature(key)).map((key) => featureLabels[key]),
    ];
    for (const label of labels) expect(changes.some((change) => change.startsWith(label))).toBe(false);
  });

  it('shows every plan when asked about none in particular', async () => {
    mockSubscriptionServer();
    renderRoutes(
      [...routes, { path: '/subscription/compare', element: <p>compare page</p> }],
      '/subscription/upgrade',
    );
    expect(await screen.findByText('compare page')).toBeInTheDocument();
  });

  it('answers an unknown query with a friendly message and a link to compare', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/upgrade?resource=dragons');
    expect(await screen.findByTestId('upgrade-unknown')).toHaveTextContent(
      'We could not tell which plan, limit or feature this link is about.',
    );
    expect(screen.getByTestId('upgrade-unknown')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Compare all plans' })).toHaveAttribute(
      'href',
      '/subscription/compare',
    );
  });

  it('starts checkout for the chosen plan and follows the returned URL to the success page', async () => {
    const fetchMock = mockSubscriptionServer({
      writes: {
        'POST /subscription/checkout': () =>
          success({
            checkout_url: `${window.location.origin}/subscription/success?session_id=local_1`,
            session_id: 'local_1',
          }),
      },
    });
    const { router } = renderRoutes(routes, '/subscription/upgrade?tier=tier_2');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Upgrade to Hero — $10/month' }));

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscription/success'));
    expect(router.state.location.search).toBe('?session_id=local_1');
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toEqual({
      tier_id: 'tier_2',
      return_url: '/subscription/success?previous_plan=tier_free',
    });
  });

  it('asks checkout to come back to the page whose refusal led here', async () => {
    const fetchMock = mockSubscriptionServer({
      writes: {
        // As demo billing answers: the return address asked for, with the session.
        'POST /subscription/checkout': () =>
          success({
            checkout_url: `/subscription/success?${new URLSearchParams({ from: '/parties/p1?tab=shops', session_id: 'local_2' })}`,
            session_id: 'local_2',
          }),
      },
    });
    const { router } = renderRoutes(
      routes,
      `/subscription/upgrade?${new URLSearchParams({ tier: 'tier_2', from: '/parties/p1?tab=shops' })}`,
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Upgrade to Hero — $10/month' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscription/success'));
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toEqual({
      tier_id: 'tier_2',
      return_url: `/subscription/success?${new URLSearchParams({ from: '/parties/p1?tab=shops', previous_plan: 'tier_free' })}`,
    });
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('/parties/p1?tab=shops');
  });

  it("says a Stripe customer's plan is changed in place, with proration, never a second subscription", async () => {
    const fetchMock = mockSubscriptionServer({
      billingProvider: 'stripe',
      current: buildCurrentSubscription({
        tier: 'tier_1',
        subscription: { provider: 'stripe', billing_provider: 'stripe' },
      }),
      writes: {
        'POST /subscription/checkout': () =>
          success({ checkout_url: '/subscription/success?session_id=sub_A', session_id: 'sub_A' }),
      },
    });
    const { router } = renderRoutes(routes, '/subscription/upgrade?tier=tier_2');
    expect(await screen.findByTestId('plan-change-notice')).toHaveTextContent(
      'You already pay for Adventurer through Stripe. Choosing another plan changes that subscription at once: no second subscription is started, and the price difference for the rest of this period is prorated on your next invoice.',
    );
    expect(screen.queryByRole('button', { name: /Upgrade to/ })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Switch to Hero — $10/month' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscription/success'));
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toEqual({
      tier_id: 'tier_2',
      return_url: '/subscription/success?previous_plan=tier_1',
    });
  });

  it('says nothing of a plan change to someone who does not pay through Stripe yet', async () => {
    mockSubscriptionServer({
      billingProvider: 'stripe',
      current: buildCurrentSubscription({ subscription: { billing_provider: 'stripe' } }),
    });
    renderRoutes(routes, '/subscription/upgrade?tier=tier_2');
    expect(await screen.findByRole('button', { name: 'Upgrade to Hero — $10/month' })).toBeInTheDocument();
    expect(screen.queryByTestId('plan-change-notice')).not.toBeInTheDocument();
  });

  it('shows the server refusal next to the button (already on this plan)', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_1' }),
      writes: {
        'POST /subscription/checkout': () => failure(409, 'CONFLICT', subscriptionMessages.sameTier),
      },
    });
    renderRoutes(routes, '/subscription/upgrade?tier=tier_3');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Upgrade to Legend/ }));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent(subscriptionMessages.sameTier);
  });

  it('offers a lower paid plan as a switch, saying first what it ends and limits', async () => {
    const fetchMock = mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_2',
        used: { characters: 7 },
        patronages: { granted: [buildPatronage()], received: [] },
      }),
      writes: {
        'POST /subscription/checkout': () =>
          success({ checkout_url: '/subscription/success?session_id=local_3', session_id: 'local_3' }),
      },
    });
    const { router } = renderRoutes(routes, '/subscription/upgrade?tier=tier_1');

    expect(await screen.findByTestId('upgrade-explanation')).toHaveTextContent(
      'Move down from Hero ($10/month) to Adventurer ($5/month).',
    );
    expect(screen.getByTestId('upgrade-explanation')).not.toHaveTextContent('cancel');
    // A move down is not headed as an upgrade.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Switch to a lower plan');
    expect(screen.queryByText(/bigger plan/)).not.toBeInTheDocument();
    expect(document.title).toBe('Switch plan · Haversack');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Switch to Adventurer — $5/month' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/The switch applies at once/)).toBeInTheDocument();
    expect(dialog.getByTestId('cancel-ends-patronages')).toHaveTextContent(
      'bard: Hero in The Lantern Bearers',
    );
    const summary = dialog.getByTestId('plan-change-summary');
    expect(summary).toHaveTextContent('7 characters: the Adventurer plan allows 5.');
    expect(summary).toHaveTextContent('Nothing is removed');
    expect(summary).toHaveTextContent(featureLabels.patronage_system);
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toBeUndefined();

    await user.click(dialog.getByRole('button', { name: 'Switch to Adventurer' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/subscription/success'));
    // The plan before goes with the return address, for the success page to tell a move down from an upgrade.
    expect(requestBody(fetchMock, 'POST', '/subscription/checkout')).toEqual({
      tier_id: 'tier_1',
      return_url: '/subscription/success?previous_plan=tier_2',
    });
  });
});

describe('UpgradePage on a slow or dropped connection', () => {
  it('keeps the plans on offer when a refresh of the user’s plan fails, with a note', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ used: { characters: 1 } }) });
    const { queryClient } = renderRoutes(routes, '/subscription/upgrade?resource=characters');
    expect(await screen.findByTestId('upgrade-options')).toBeInTheDocument();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await queryClient.refetchQueries({ queryKey: subscriptionKeys.current() });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('upgrade-options')).toBeInTheDocument();
    expect(screen.queryByText('Your plan could not be loaded. Please try again.')).not.toBeInTheDocument();
  }, 20_000);
});
