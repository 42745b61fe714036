import type { AdminUserDetail } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { BilledPlanNotice } from './billed-plan-notice';

const subscription = (provider: string | null): AdminUserDetail['subscription'] =>
  ({
    tier: 'tier_2',
    tier_name: 'Hero',
    status: 'active',
    provider,
    current_period_end: null,
    cancel_at_period_end: false,
  }) as AdminUserDetail['subscription'];

const renderNotice = (email: string, provider: string | null) =>
  renderRoutes(
    [{ path: '/', element: <BilledPlanNotice email={email} subscription={subscription(provider)} /> }],
    '/',
  );

describe('BilledPlanNotice', () => {
  it('warns that Stripe goes on charging a paying user whose plan is replaced by a grant', () => {
    renderNotice('alice@example.com', 'stripe');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'alice@example.com pays for Hero through Stripe. A granted plan replaces it here, but Stripe goes on charging them: cancel their subscription in the Stripe dashboard first.',
    );
  });

  it('says a demo-billing plan is replaced, and says nothing of a plan without a provider', () => {
    const { unmount } = renderNotice('bob@example.com', 'local');
    expect(screen.getByRole('alert')).toHaveTextContent('bob@example.com is on Hero through demo billing');
    unmount();
    renderNotice('carl@example.com', null);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
