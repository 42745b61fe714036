import { tierIdentifiers, tierRank } from '@haversack/contracts';
import { Alert, Anchor, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { sameSitePath } from '../../../lib/redirect';
import { useAuthStore } from '../../../stores/auth-store';
import { checkoutSessionQueryOptions, currentSubscriptionQueryOptions } from '../api/subscription-api';
import { formatDate, formatPricePerMonth } from '../plan-text';

/** How often the page asks again while a card payment is being applied, and for how long. */
const PAYMENT_POLL_MS = 3_000;
export const PAYMENT_WAIT_MS = 60_000;

/**
 * A checkout reference as the billing providers issue them: local billing's `local_` and 24 hex digits
 * (local-billing.ts), a Stripe Checkout session's `cs_test_…`/`cs_live_…`, or, after a plan change, the
 * Stripe subscription's `sub_…` (subscriptions.service.ts `checkout`); Stripe ids are letters and digits,
 * at most 255 characters. Anything else is not even asked about: a link could otherwise put any sentence
 * on a billing page ("Reference: call +1 555…", attack review 25). One that looks right is shown only once
 * the server says it issued it to this user (GET /subscription/checkout/{id}).
 */
const CHECKOUT_REFERENCE =
  /^(?:local_[0-9a-f]{24}|cs_(?:test|live)_[A-Za-z0-9]{1,240}|sub_[A-Za-z0-9]{1,240})$/;

/** The address's checkout reference when it looks like one, else null. */
export function checkoutReference(sessionId: string | null): string | null {
  return sessionId !== null && CHECKOUT_REFERENCE.test(sessionId) ? sessionId : null;
}

/**
 * An address without the plan before the checkout thanks for an upgrade only if the user's plan went up
 * this recently (`tier_upgraded_at`): one comes back from a payment within minutes.
 */
export const RECENT_UPGRADE_MS = 60 * 60_000;

/** Whether `ms` have passed since the page opened. */
function useWaitedFor(ms: number): boolean {
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return waited;
}

/**
 * The return page of checkout (spec/01 §9): confirms the plan the server now has for the user. Both billing
 * providers return here with a `session_id` (local billing's path, Stripe's success_url), so without one
 * no checkout is under way: the page says so and shows the plan as it is, rather than thanking for an
 * upgrade and waiting on a payment that was never made (a bookmark, a typed address, the history).
 */
export function CheckoutSuccessPage() {
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id');
  // The page whose refusal led here (a deploy, a character more): the way back to it comes first.
  const from = sameSitePath(searchParams.get('from'));
  const fromCheckout = sessionId !== null && sessionId !== '';
  const reference = checkoutReference(sessionId);
  // Only a checkout this server issued to the user is thanked for and its reference shown (review): a
  // made-up, foreign or malformed one gets the plan as it is.
  const issued = useQuery({
    ...checkoutSessionQueryOptions(reference ?? ''),
    enabled: reference !== null,
  });
  const issuedHere = reference !== null && issued.data != null;
  const notIssued = fromCheckout && (reference === null || issued.data === null || issued.isError);
  const waitedLong = useWaitedFor(PAYMENT_WAIT_MS);
  // Always ask again: the user arrives here straight from the payment provider. While a checkout's plan is
  // not applied yet, ask every few seconds for a minute: a card payment lands with the provider's webhook.
  const current = useQuery({
    ...currentSubscriptionQueryOptions(),
    refetchOnMount: 'always',
    refetchInterval: (query) =>
      fromCheckout && !waitedLong && query.state.data?.tier.identifier === 'tier_free'
        ? PAYMENT_POLL_MS
        : false,
  });
  const awaitingPayment = fromCheckout && current.data?.tier.identifier === 'tier_free';
  // The plan as last loaded: a check that failed after it (a poll, Check again) keeps it, with a note.
  const applied = fromCheckout && current.data !== undefined && !awaitingPayment;
  // The page watched the plan go from Free to paid: the payment landed while it was open.
  const [sawPaymentLand, setSawPaymentLand] = useState(false);
  const [sawFree, setSawFree] = useState(false);
  if (awaitingPayment && !sawFree) setSawFree(true);
  if (applied && sawFree && !sawPaymentLand) setSawPaymentLand(true);
  const upgradedAt = useAuthStore((state) => state.user?.tier_upgraded_at);
  // The plan before the checkout, from the address the checkout returns to (useCheckout), so a reload
  // says the same: a plan not above it (a switch down from compare) is a change, not an upgrade. Without it
  // (an address made before checkouts kept it, a bookmark, a shared or made-up link), the thanks need the
  // upgrade itself: the user's plan went up within the hour, or the page saw the payment land. Otherwise
  // the page only says which plan the user is on (a paid user opening a bookmarked success address).
  const previousPlan = tierIdentifiers.find((tier) => tier === searchParams.get('previous_plan'));
  const notUpgrade =
    previousPlan !== undefined &&
    (current.data
      ? tierRank[current.data.tier.identifier] <= tierRank[previousPlan]
      : previousPlan !== 'tier_free');
  // Without a signed-in user (never, behind the app's guard) the page cannot tell, and thanks as before.
  const [openedAt] = useState(() => Date.now());
  const upgradedRecently =
    upgradedAt === undefined ||
    (upgradedAt !== null && openedAt - Date.parse(upgradedAt) < RECENT_UPGRADE_MS);
  const planOnly =
    applied && (notIssued || (previousPlan === undefined && !upgradedRecently && !sawPaymentLand));
  let heading = notUpgrade ? 'Confirming your plan change' : 'Confirming your upgrade';
  if (!fromCheckout) heading = 'No checkout in progress';
  else if (planOnly) heading = 'Your plan';
  else if (applied) heading = notUpgrade ? 'Your plan has changed' : 'Thank you for upgrading';
  else if (awaitingPayment && waitedLong) heading = 'Payment not confirmed yet';
  usePageTitle(applied && !planOnly ? (notUpgrade ? 'Plan change complete' : 'Upgrade complete') : heading);

  const checkAgain = (
    <Button variant="default" size="xs" onClick={() => void current.refetch()} loading={current.isFetching}>
      Check again
    </Button>
  );
  let body: ReactNode;
  if (current.isPending || (reference !== null && issued.isPending)) {
    body = (
      <Card
        withBorder
        padding="lg"
        role="status"
        aria-label="Confirming your plan"
        data-testid="success-loading"
      >
        <TextSkeleton lines={3} />
      </Card>
    );
  } else if (failedWithNothingToShow(current)) {
    body = (
      <ErrorPanel
        message="We could not confirm your plan. Please try again."
        onRetry={() => void current.refetch()}
      />
    );
  } else if (!fromCheckout) {
    const { tier } = current.data;
    body = (
      <Alert
        color="blue"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        // What the page says when it opens, not an error in answer to an action: no urgent announcement.
        role="status"
        data-testid="success-no-checkout"
      >
        <Text size="sm">
          This page confirms an upgrade when you come back from checkout, and no checkout is in progress, so
          there is no payment to confirm. You are on the {tier.name} plan ({formatPricePerMonth(tier)}).
        </Text>
      </Alert>
    );
  } else if (awaitingPayment && waitedLong) {
    // A minute without the plan: most likely the checkout was left before paying (or the address was made
    // up); a payment still on its way is applied whenever its webhook arrives.
    body = (
      <Alert
        color="yellow"
        variant="light"
        icon={<IconClockHour4 aria-hidden="true" />}
        title="No payment received"
        data-testid="success-not-confirmed"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            We have not received a payment for this checkout, and you are still on the Free plan. If you left
            the checkout before paying, nothing was charged. If you did pay, your plan changes as soon as the
            payment reaches us: check again in a few minutes.
          </Text>
          <Group gap="sm">
            {checkAgain}
            <Button component={Link} to="/subscription/compare" variant="subtle" size="xs">
              Choose a plan
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  } else if (awaitingPayment) {
    // A card payment is applied when the provider's webhook arrives, which can take a moment.
    body = (
      <Alert
        color="blue"
        variant="light"
        icon={<IconClockHour4 aria-hidden="true" />}
        title="Confirming payment"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Your payment is being confirmed. This usually takes less than a minute.</Text>
          {checkAgain}
        </Stack>
      </Alert>
    );
  } else {
    const { tier, subscription } = current.data;
    const renewal = formatDate(subscription.current_period_end);
    body = (
      <Card withBorder padding="lg" data-testid="success-plan">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon color="teal" variant="light" size="lg" radius="xl" aria-hidden="true">
            <IconCircleCheck size={20} />
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} size="h4">
              You are on the {tier.name} plan
            </Title>
            <Text size="sm">
              {formatPricePerMonth(tier)}
              {renewal ? `, renews on ${renewal}` : ''}.{planOnly ? '' : ' Your new limits apply now.'}
            </Text>
          </Stack>
        </Group>
      </Card>
    );
  }

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{heading}</Title>
      <RefreshFailedNote query={current} />
      {body}
      {issuedHere && !planOnly ? (
        <Text size="sm" c="dimmed">
          Reference: {reference}
        </Text>
      ) : null}
      <Group gap="md">
        {from ? (
          <Button component={Link} to={from}>
            Back to where you were
          </Button>
        ) : null}
        <Button component={Link} to="/subscription" variant={from ? 'default' : 'filled'}>
          View your subscription
        </Button>
        {fromCheckout ? null : (
          <Anchor component={Link} to="/subscription/compare">
            Compare plans
          </Anchor>
        )}
        <Anchor component={Link} to="/dashboard">
          Go to dashboard
        </Anchor>
      </Group>
    </Stack>
  );
}
