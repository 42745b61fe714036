import { featureKeys, featureLabels, limitKeys, liveFeatureKeys, liveLimitKeys } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { subscriptionKeys } from '../api/subscription-api';
import { limitLabels } from '../plan-text';
import { buildCurrentSubscription, buildStoredTiers, unbuiltMention } from '../subscription-fixtures';
import { mockSubscriptionServer } from '../subscription-test-server';
import { ComparePlansPage } from './compare-plans-page';

const routes = [{ path: '/subscription/compare', element: <ComparePlansPage /> }];

/** The row headings of the plan table, after the price. */
async function rowHeadings(): Promise<string[]> {
  const table = await screen.findByTestId('plan-table');
  return within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent ?? '');
}

const unbuiltLabels = [
  ...limitKeys.filter((key) => !liveLimitKeys.includes(key)).map((key) => limitLabels[key]),
  ...featureKeys.filter((key) => !liveFeatureKeys.includes(key)).map((key) => featureLabels[key]),
];

describe('ComparePlansPage', () => {
  beforeEach(() => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
  });

  it('lists every live limit and feature, and nothing that is not built, as the server answers', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');

    expect(await rowHeadings()).toEqual([
      'Price',
      ...liveLimitKeys.map((key) => limitLabels[key]),
      ...liveFeatureKeys.map((key) => featureLabels[key]),
    ]);
    expect(screen.getByRole('rowheader', { name: 'Deploy shops' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Shop templates' })).toBeInTheDocument();
    // Named as the shops beside it are: what is deployed, not the code's "instances".
    expect(screen.getByRole('rowheader', { name: 'Deployed shops' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'Deployed loot' })).toBeInTheDocument();
  });

  it('says on each plan card what it adds over the plan below, so that Hero and Legend read apart', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');
    const additions = (tier: string) =>
      within(screen.getByTestId(`plan-${tier}`))
        .queryAllByRole('listitem')
        .map((item) => item.textContent ?? '');

    await screen.findByTestId('plan-tier_3');
    expect(
      within(screen.getByTestId('plan-tier_free')).queryByTestId('plan-additions'),
    ).not.toBeInTheDocument();
    expect(screen.getByTestId('plan-tier_2')).toHaveTextContent('More than Adventurer:');
    expect(additions('tier_2')).toEqual(
      expect.arrayContaining(['Characters: 5 → 20', 'Sponsor other players (patronage)']),
    );
    // Legend adds no feature over Hero here, only room: its card says so rather than repeating Hero's.
    expect(screen.getByTestId('plan-tier_3')).toHaveTextContent('More than Hero:');
    expect(additions('tier_3')).toContain('Characters: 20 → Unlimited');
    expect(additions('tier_3')).not.toContain('Sponsor other players (patronage)');
  });

  it('says under the table that each player needs Party collaboration, on their plan or through a patronage', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');
    const note = await screen.findByTestId('party-collaboration-note');
    expect(note).toHaveTextContent(
      'Party collaboration: each player who uses the party stash needs it on their own plan or through a patronage (a member on Hero or Legend can sponsor them in that party). The Game Master’s plan does not cover the other players.',
    );
    // The plans that can sponsor come from the catalogue (those with patronage), and the row points at it.
    expect(screen.getByRole('rowheader', { name: 'Party collaboration' })).toHaveAccessibleDescription(
      note.textContent ?? '',
    );
  });

  it('names each region once: the section and the table scrolling inside it (axe landmark-unique)', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');
    await screen.findByTestId('plan-table');
    expect(screen.getAllByRole('region', { name: 'Limits and features' })).toHaveLength(1);
    const section = screen.getByRole('region', { name: 'Limits and features' });
    expect(
      within(section).getByRole('region', { name: 'Plan comparison table, scrolls sideways' }),
    ).toContainElement(screen.getByTestId('plan-table'));
  });

  it('tells a phone that the plan table goes on sideways, and hides that from wider screens', async () => {
    mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');
    const hint = await screen.findByTestId('plan-table-scroll-hint');
    expect(hint).toHaveTextContent('Swipe the table sideways to see every plan.');
    // Mantine's hiddenFrom: a class its stylesheet hides from the sm breakpoint up.
    expect(hint.className).toContain('mantine-hidden-from-sm');
  });

  it('sells no unbuilt feature or limit even when the plans carry them (AI, API, branding, support)', async () => {
    mockSubscriptionServer({
      tiers: buildStoredTiers(),
      current: buildCurrentSubscription({ stored: true }),
    });
    renderRoutes(routes, '/subscription/compare');

    const headings = await rowHeadings();
    expect(headings).toHaveLength(1 + liveLimitKeys.length + liveFeatureKeys.length);
    for (const label of unbuiltLabels) {
      expect(headings).not.toContain(label);
      expect(screen.queryByText(label)).not.toBeInTheDocument();
    }
    const mention = unbuiltMention();
    if (mention) expect(document.body).not.toHaveTextContent(mention);
  });

  it('offers a lower paid plan as a switch, and Free through cancelling', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_3' }) });
    renderRoutes(routes, '/subscription/compare');

    const hero = within(await screen.findByTestId('plan-tier_2'));
    expect(hero.getByRole('link', { name: 'Switch to Hero' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?tier=tier_2',
    );
    expect(hero.queryByText(/cancel/i)).not.toBeInTheDocument();
    const free = screen.getByTestId('plan-tier_free');
    expect(free).toHaveTextContent(
      'To move to Free, cancel your Legend plan on your subscription page: you keep it until the period ends, then move to Free.',
    );
  });
});

describe('ComparePlansPage on a slow or dropped connection', () => {
  beforeEach(() => {
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
  });

  it('keeps the plans on screen when a refresh of the user’s plan fails, with a note', async () => {
    mockSubscriptionServer();
    const { queryClient } = renderRoutes(routes, '/subscription/compare');
    await screen.findByTestId('plan-table');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await queryClient.refetchQueries({ queryKey: subscriptionKeys.current() });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('plan-table')).toBeInTheDocument();
    expect(screen.queryByText('The plans could not be loaded. Please try again.')).not.toBeInTheDocument();
  }, 20_000);
});

// Review: "Compare plans" on /home sent a visitor to /login; the plans (GET /subscription/tiers) are public.
describe('ComparePlansPage for a visitor', () => {
  beforeEach(() => {
    useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
  });

  it('shows the prices and plan lines, with the way to an account instead of the buy buttons', async () => {
    const server = mockSubscriptionServer();
    renderRoutes(routes, '/subscription/compare');

    expect(await rowHeadings()).toEqual([
      'Price',
      ...liveLimitKeys.map((key) => limitLabels[key]),
      ...liveFeatureKeys.map((key) => featureLabels[key]),
    ]);
    expect(screen.getByTestId('plan-tier_1')).toHaveTextContent('$5/month');
    expect(screen.getByTestId('compare-visitor')).toHaveTextContent(
      'Every account starts on the Free plan. Create one to choose a plan; you can upgrade whenever you need more.',
    );
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register?redirect=%2Fsubscription%2Fcompare',
    );
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?redirect=%2Fsubscription%2Fcompare',
    );
    expect(screen.queryByRole('link', { name: /^(Upgrade|Switch) to/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Current plan')).not.toBeInTheDocument();
    expect(screen.queryByText(/cancel/i)).not.toBeInTheDocument();
    // Nothing of an account is asked for.
    expect(server.mock.calls.map(([url]) => new URL(String(url), 'http://test').pathname)).toEqual([
      '/api/v1/subscription/tiers',
    ]);
  });
});
