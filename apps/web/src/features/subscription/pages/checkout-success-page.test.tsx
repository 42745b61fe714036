import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { buildCurrentSubscription } from '../subscription-fixtures';
import { mockSubscriptionServer } from '../subscription-test-server';
import { CheckoutSuccessPage } from './checkout-success-page';

const routes = [{ path: '/subscription/success', element: <CheckoutSuccessPage /> }];

describe('CheckoutSuccessPage', () => {
  it('opened without a checkout (no session_id), shows the plan as it is and confirms no payment', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_free' }) });
    renderRoutes(routes, '/subscription/success');

    expect(await screen.findByTestId('success-no-checkout')).toHaveTextContent(
      'This page confirms an upgrade when you come back from checkout, and no checkout is in progress, so there is no payment to confirm. You are on the Free plan ($0/month).',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('No checkout in progress');
    expect(screen.queryByText('Thank you for upgrading')).not.toBeInTheDocument();
    expect(screen.queryByText('Confirming payment')).not.toBeInTheDocument();
    expect(screen.queryByText(/less than a minute/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View your subscription' })).toHaveAttribute(
      'href',
      '/subscription',
    );
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute(
      'href',
      '/subscription/compare',
    );
  });

  it('back from checkout while the payment is not applied yet, says it is being confirmed', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_free' }) });
    renderRoutes(routes, '/subscription/success?session_id=cs_test_1');

    expect(await screen.findByText('Confirming payment')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    expect(screen.getByText('Reference: cs_test_1')).toBeInTheDocument();
  });

  it('back from checkout with the plan applied, confirms it', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    renderRoutes(routes, '/subscription/success?session_id=local_1');

    expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
    expect(screen.queryByTestId('success-no-checkout')).not.toBeInTheDocument();
  });
});
