import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildCurrentSubscription, buildPatronage } from '../subscription-fixtures';
import { mockSubscriptionServer } from '../subscription-test-server';
import { PlanSummaryCard } from './plan-summary-card';

const routes = [{ path: '/dashboard', element: <PlanSummaryCard /> }];

describe('PlanSummaryCard (the dashboard’s "Your plan")', () => {
  it('says a failure to load as the dashboard’s other cards do, with Try Again', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderRoutes(routes, '/dashboard');

    const panel = await screen.findByTestId('error-panel', {}, { timeout: 10_000 });
    expect(panel).toHaveTextContent('Error loading your plan');
    expect(within(panel).getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  }, 20_000);

  it('reads "Active" for a plan that renews', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    renderRoutes(routes, '/dashboard');

    expect(await screen.findByTestId('plan-status')).toHaveTextContent('Active');
    expect(screen.queryByTestId('plan-summary-ends')).not.toBeInTheDocument();
  });

  it('does not read "Active" for a plan cancelled at period end: it says when it ends, as a warning', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({ tier: 'tier_1', subscription: { cancel_at_period_end: true } }),
    });
    renderRoutes(routes, '/dashboard');

    const badge = await screen.findByTestId('plan-status');
    expect(badge).toHaveTextContent('Ends Apr 1');
    expect(badge).not.toHaveTextContent('Active');
    expect(badge).toHaveAttribute('data-state', 'ending');
    expect(screen.getByTestId('plan-summary-ends')).toHaveTextContent(
      'Cancelled: Adventurer ends on April 1, 2026, then you are on the Free plan.',
    );
  });

  it('says who sponsors a Free player, with which plan and where, and does not alarm the limits it lifts', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_free',
        used: { characters: 1, parties_joined: 1 },
        patronages: { granted: [], received: [buildPatronage()] },
      }),
    });
    renderRoutes(routes, '/dashboard');

    const notice = await screen.findByTestId('plan-sponsorships');
    expect(notice).toHaveTextContent('You are sponsored');
    await within(notice).findByText(/ranger sponsors you with Hero in/);
    expect(within(notice).getByRole('link', { name: 'The Lantern Bearers' })).toHaveAttribute(
      'href',
      '/parties/party-1',
    );
    expect(notice).toHaveTextContent(
      'Inside that party your limits and features are Hero’s; elsewhere your own Free plan’s apply.',
    );

    // A character made in that party, and its inventory actions, count against Hero's limits there.
    const characters = screen.getByTestId('usage-characters');
    expect(characters).toHaveAttribute('data-sponsored', 'true');
    expect(screen.getByTestId('usage-characters-summary')).not.toHaveTextContent('limit reached');
    expect(screen.getByTestId('usage-characters-sponsored')).toHaveTextContent(
      'In The Lantern Bearers, your sponsor’s Hero plan applies.',
    );
    expect(within(characters).getByRole('progressbar').getAttribute('style') ?? '').not.toMatch(/red/);

    // Joining parties follows the player's own plan everywhere: still a real block.
    expect(screen.getByTestId('usage-parties_joined-summary')).toHaveTextContent('limit reached');
    expect(screen.queryByTestId('usage-parties_joined-sponsored')).not.toBeInTheDocument();
  });

  it('says nothing of a patronage that grants no more than the player’s own plan', async () => {
    mockSubscriptionServer({
      current: buildCurrentSubscription({
        tier: 'tier_2',
        patronages: { granted: [], received: [buildPatronage({ granted_tier: 'tier_1' })] },
      }),
    });
    renderRoutes(routes, '/dashboard');

    expect(await screen.findByTestId('plan-summary-name')).toHaveTextContent('Hero');
    expect(screen.queryByTestId('plan-sponsorships')).not.toBeInTheDocument();
  });
});
