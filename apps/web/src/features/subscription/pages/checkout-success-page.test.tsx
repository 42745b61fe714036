import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { subscriptionKeys } from '../api/subscription-api';
import { buildCurrentSubscription } from '../subscription-fixtures';
import { mockSubscriptionServer } from '../subscription-test-server';
import { CheckoutSuccessPage, PAYMENT_WAIT_MS } from './checkout-success-page';

const routes = [{ path: '/subscription/success', element: <CheckoutSuccessPage /> }];
/** A reference as local billing issues them (local_ and 24 hex digits). */
const localReference = `local_${'0a1b2c3d'.repeat(3)}`;

afterEach(() => {
  vi.useRealTimers();
});

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
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Confirming your upgrade');
    expect(screen.queryByText('Thank you for upgrading')).not.toBeInTheDocument();
    expect(screen.getByText('Reference: cs_test_1')).toBeInTheDocument();
  });

  it('keeps asking while the payment is applied, and after a minute without it says none was received', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_free' }) });
    renderRoutes(routes, '/subscription/success?session_id=cs_made_up');
    expect(await screen.findByText('Confirming payment')).toBeInTheDocument();
    const asked = () =>
      server.mock.calls.filter(([url]) => String(url).endsWith('/subscription/current')).length;
    const first = asked();

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_WAIT_MS + 1_000));
    expect(asked()).toBeGreaterThan(first + 5);
    expect(await screen.findByTestId('success-not-confirmed')).toHaveTextContent(
      'We have not received a payment for this checkout, and you are still on the Free plan.',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment not confirmed yet');
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute(
      'href',
      '/subscription/compare',
    );
    // It stops asking once it has said so.
    const after = asked();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(asked()).toBe(after);
  });

  it('back from checkout with the plan applied, confirms it', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    renderRoutes(routes, `/subscription/success?session_id=${localReference}`);

    expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    expect(document.title).toBe('Upgrade complete · Haversack');
    expect(screen.queryByTestId('success-no-checkout')).not.toBeInTheDocument();
  });

  it('after a move to a lower plan, says the plan has changed rather than thanking for an upgrade', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    // The address the switch from Hero leads to: it names the plan before, so a reload says the same.
    renderRoutes(routes, `/subscription/success?previous_plan=tier_2&session_id=${localReference}`);

    expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your plan has changed');
    expect(document.title).toBe('Plan change complete · Haversack');
    expect(screen.queryByText(/upgrad/i)).not.toBeInTheDocument();
  });

  it('thanks for an upgrade from a paid plan to a higher one', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_2' }) });
    renderRoutes(routes, '/subscription/success?previous_plan=tier_1&session_id=sub_A');

    expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Hero plan');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    expect(document.title).toBe('Upgrade complete · Haversack');
  });

  it('leads back to the page the upgrade was asked from, and only to a page of this app', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    const view = renderRoutes(
      routes,
      `/subscription/success?${new URLSearchParams({ session_id: 'local_1', from: '/parties/p1?tab=shops' })}`,
    );
    expect(await screen.findByRole('link', { name: 'Back to where you were' })).toHaveAttribute(
      'href',
      '/parties/p1?tab=shops',
    );
    view.unmount();

    renderRoutes(
      routes,
      `/subscription/success?${new URLSearchParams({ session_id: 'local_1', from: '//evil.example' })}`,
    );
    expect(await screen.findByTestId('success-plan')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to where you were' })).not.toBeInTheDocument();
  });

  it('shows a reference only when it is one a billing provider issues, never other text from the address', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    const local = `local_${'0a1b2c3d'.repeat(3)}`;
    const shown = renderRoutes(routes, `/subscription/success?${new URLSearchParams({ session_id: local })}`);
    expect(await screen.findByTestId('success-plan')).toBeInTheDocument();
    expect(screen.getByText(`Reference: ${local}`)).toBeInTheDocument();
    shown.unmount();

    // A link made to put a sentence on a billing page (attack review 25): the page is shown, the text is not.
    for (const sessionId of [
      'REFUND-PENDING. Your card was charged twice: call Haversack billing at +1 555 0100 or visit evil.example/refund',
      '<script>alert(1)</script>',
      'cs_test_a1 call +1 555 0100',
      `cs_test_${'a'.repeat(300)}`,
      'local_1',
      'sub_',
    ]) {
      const view = renderRoutes(
        routes,
        `/subscription/success?${new URLSearchParams({ session_id: sessionId })}`,
      );
      expect(await screen.findByTestId('success-plan')).toBeInTheDocument();
      expect(screen.queryByText(/Reference/)).not.toBeInTheDocument();
      expect(document.body.textContent).not.toMatch(/555 0100|evil\.example|<script>|cs_test_a/);
      view.unmount();
    }
  });

  describe('an address without the plan before the checkout (a bookmark, a shared or made-up link)', () => {
    const signedIn = (tierUpgradedAt: string | null) =>
      useAuthStore.setState({
        isAuthenticated: true,
        user: buildUser({ tier: 'tier_3', tier_upgraded_at: tierUpgradedAt }),
      });

    it('tells a user whose plan did not just go up the plan they are on, without thanking', async () => {
      signedIn('2026-03-01T00:00:00.000Z');
      mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_3' }) });
      renderRoutes(routes, '/subscription/success?session_id=anything');

      expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Legend plan');
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your plan');
      expect(document.title).toBe('Your plan · Haversack');
      expect(screen.queryByText(/upgrad/i)).not.toBeInTheDocument();
      expect(screen.queryByText(/new limits/)).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'View your subscription' })).toHaveAttribute(
        'href',
        '/subscription',
      );
    });

    // Review: a made-up reference still thanked a user who had upgraded within the hour, and showed it.
    it('neither thanks nor shows a reference the server did not issue to this user', async () => {
      signedIn(new Date(Date.now() - 5 * 60_000).toISOString());
      const server = mockSubscriptionServer({
        current: buildCurrentSubscription({ tier: 'tier_3' }),
        checkouts: [localReference],
      });
      const madeUp = `local_${'0'.repeat(24)}`;
      renderRoutes(routes, `/subscription/success?session_id=${madeUp}`);

      expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Legend plan');
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your plan');
      expect(screen.queryByText(/Thank you/)).not.toBeInTheDocument();
      expect(screen.queryByText(/Reference/)).not.toBeInTheDocument();
      expect(
        server.mock.calls.some(([url]) => String(url).endsWith(`/subscription/checkout/${madeUp}`)),
      ).toBe(true);
    });

    it('thanks a user whose plan went up within the hour', async () => {
      signedIn(new Date(Date.now() - 5 * 60_000).toISOString());
      mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_3' }) });
      renderRoutes(routes, '/subscription/success?session_id=cs_test_1');

      expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Legend plan');
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    });

    it('thanks a user whose payment it saw land while open', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      // The user was loaded before the payment's webhook: the session does not know of the upgrade yet.
      signedIn(null);
      let current = buildCurrentSubscription({ tier: 'tier_free' });
      mockFetch(({ url }) =>
        url.endsWith('/subscription/current')
          ? success(current)
          : url.endsWith('/subscription/checkout/cs_test_1')
            ? success({ session_id: 'cs_test_1', created_at: '2026-03-01T00:00:00.000Z' })
            : success({}),
      );
      renderRoutes(routes, '/subscription/success?session_id=cs_test_1');
      expect(await screen.findByText('Confirming payment')).toBeInTheDocument();

      current = buildCurrentSubscription({ tier: 'tier_1' });
      await act(() => vi.advanceTimersByTimeAsync(3_500));
      expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    });
  });
});

describe('CheckoutSuccessPage on a slow or dropped connection', () => {
  it('keeps saying the payment is being confirmed when one of its checks fails, with a note', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_free' }) });
    const { queryClient } = renderRoutes(routes, '/subscription/success?session_id=cs_test_1');
    expect(await screen.findByText('Confirming payment')).toBeInTheDocument();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await queryClient.refetchQueries({ queryKey: subscriptionKeys.current() });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByText('Confirming payment')).toBeInTheDocument();
    expect(screen.queryByText('We could not confirm your plan. Please try again.')).not.toBeInTheDocument();
  }, 20_000);

  it('keeps thanking for the upgrade it confirmed when a later check fails, with a note', async () => {
    mockSubscriptionServer({ current: buildCurrentSubscription({ tier: 'tier_1' }) });
    const { queryClient } = renderRoutes(routes, `/subscription/success?session_id=${localReference}`);
    expect(await screen.findByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await queryClient.refetchQueries({ queryKey: subscriptionKeys.current() });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Thank you for upgrading');
    expect(screen.getByTestId('success-plan')).toHaveTextContent('You are on the Adventurer plan');
  }, 20_000);
});
