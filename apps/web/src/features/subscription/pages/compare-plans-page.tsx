import {
  type FeatureKey,
  featureLabels,
  liveFeatureKeys,
  liveLimitKeys,
  type Tier,
} from '@haversack/contracts';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow, refreshFailed } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { loginUrlFor } from '../../../lib/redirect';
import { useAuthStore } from '../../../stores/auth-store';
import {
  type BillingProviderName,
  currentSubscriptionQueryOptions,
  tiersQueryOptions,
} from '../api/subscription-api';
import { BillingDisabledNotice } from '../components/billing-disabled-notice';
import { LocalBillingNotice } from '../components/local-billing-notice';
import {
  formatLimit,
  formatPricePerMonth,
  improvements,
  limitLabels,
  partyCollaborationNote,
} from '../plan-text';

const collaborationNoteId = 'party-collaboration-note';

const thisPage = '/subscription/compare';

/**
 * Every plan side by side. The plans are public (GET /subscription/tiers): a visitor reads them too, with
 * the way to an account where a signed-in user has the way to buy.
 */
export function ComparePlansPage() {
  usePageTitle('Compare plans');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const tiers = useQuery(tiersQueryOptions());
  const current = useQuery({ ...currentSubscriptionQueryOptions(), enabled: signedIn });
  const isPending = tiers.isPending || (signedIn && current.isPending);
  // Only a first load that failed has nothing to show; a refresh that failed keeps the plans, with a note.
  const isError = failedWithNothingToShow(tiers) || failedWithNothingToShow(current);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Compare plans</Title>
        <Text c="dimmed">Every plan side by side: what it costs, its limits and what it includes.</Text>
      </Stack>
      <RefreshFailedNote query={refreshFailed(tiers) ? tiers : current} />
      {isPending && !isError ? (
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 4 }}
          role="status"
          aria-label="Loading the plans"
          data-testid="compare-loading"
        >
          {[0, 1, 2, 3].map((placeholder) => (
            <Card key={placeholder} withBorder padding="lg">
              <TextSkeleton lines={4} />
            </Card>
          ))}
        </SimpleGrid>
      ) : isError || !tiers.data || (signedIn && !current.data) ? (
        <ErrorPanel
          message="The plans could not be loaded. Please try again."
          onRetry={() => {
            void tiers.refetch();
            if (signedIn) void current.refetch();
          }}
        />
      ) : tiers.data.tiers.length === 0 ? (
        <Text>No plans are on offer at the moment.</Text>
      ) : (
        <PlanComparison
          tiers={tiers.data.tiers}
          currentTier={current.data?.tier ?? null}
          billingProvider={tiers.data.billingProvider}
        />
      )}
    </Stack>
  );
}

/** Where a visitor's choice of plan starts: an account, on Free, from which any plan is bought. */
function VisitorCallToAction() {
  return (
    <Card withBorder padding="lg" data-testid="compare-visitor">
      <Stack gap="sm" align="flex-start">
        <Text>
          Every account starts on the Free plan. Create one to choose a plan; you can upgrade whenever you
          need more.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={`/register?redirect=${encodeURIComponent(thisPage)}`}>
            Create an account
          </Button>
          <Button component={Link} to={loginUrlFor(thisPage)} variant="default">
            Sign in
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** `currentTier` null: a visitor, who has no plan yet. */
function PlanComparison({
  tiers,
  currentTier,
  billingProvider,
}: {
  tiers: Tier[];
  currentTier: Tier | null;
  billingProvider: BillingProviderName;
}) {
  return (
    <>
      {currentTier === null ? <VisitorCallToAction /> : null}
      {billingProvider === 'local' ? <LocalBillingNotice /> : null}
      {billingProvider === 'none' ? <BillingDisabledNotice /> : null}
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 4 }}
        spacing="md"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {tiers.map((tier) => (
          <PlanCard
            key={tier.identifier}
            tier={tier}
            below={planBelow(tiers, tier)}
            currentTier={currentTier}
          />
        ))}
      </SimpleGrid>
      <PlanTable tiers={tiers} currentTier={currentTier} />
    </>
  );
}

/** The plan just under `tier` in rank, or null for the lowest. */
function planBelow(tiers: Tier[], tier: Tier): Tier | null {
  return tiers.reduce<Tier | null>(
    (best, other) => (other.rank < tier.rank && (best === null || other.rank > best.rank) ? other : best),
    null,
  );
}

/**
 * `below`: the plan just under this one. Each card says what it adds over it (limits that grow, features
 * added), from the same catalogue the table reads: the descriptions alone left Hero and Legend reading alike.
 */
function PlanCard({
  tier,
  below,
  currentTier,
}: {
  tier: Tier;
  below: Tier | null;
  currentTier: Tier | null;
}) {
  const isCurrent = tier.identifier === currentTier?.identifier;
  const isHigher = currentTier !== null && tier.rank > currentTier.rank;
  const additions = below ? improvements(below, tier) : [];
  const additionsId = `plan-${tier.identifier}-additions`;
  return (
    <Card
      component="li"
      withBorder
      padding="lg"
      data-testid={`plan-${tier.identifier}`}
      aria-current={isCurrent ? 'true' : undefined}
      style={isCurrent ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      <Stack gap="sm" h="100%">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {tier.name}
          </Title>
          {isCurrent ? (
            <Badge variant="light" data-testid="current-plan-badge">
              Current plan
            </Badge>
          ) : null}
        </Stack>
        <Text fw={700} size="xl">
          {formatPricePerMonth(tier)}
        </Text>
        <Stack gap="xs" style={{ flexGrow: 1 }}>
          <Text size="sm" c="dimmed">
            {tier.description}
          </Text>
          {below && additions.length > 0 ? (
            <Stack gap={4} data-testid="plan-additions">
              <Text size="sm" fw={500} id={additionsId}>
                {`More than ${below.name}:`}
              </Text>
              <List size="sm" spacing={2} aria-labelledby={additionsId}>
                {additions.map((addition) => (
                  <List.Item key={addition}>{addition}</List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
        </Stack>
        {currentTier === null ? null : isHigher ? (
          <Button component={Link} to={`/subscription/upgrade?tier=${tier.identifier}`} fullWidth>
            Upgrade to {tier.name}
          </Button>
        ) : isCurrent ? (
          <Anchor component={Link} to="/subscription" size="sm" className="haversack-touch-target">
            Manage your plan
          </Anchor>
        ) : tier.identifier !== 'tier_free' ? (
          // A lower paid plan is a switch (checkout changes the plan at once); the upgrade page confirms
          // it after saying what it ends and limits.
          <Button
            component={Link}
            to={`/subscription/upgrade?tier=${tier.identifier}`}
            variant="default"
            fullWidth
          >
            Switch to {tier.name}
          </Button>
        ) : (
          <Text size="sm">
            To move to Free, cancel your {currentTier.name} plan on your{' '}
            <Anchor component={Link} to="/subscription" size="sm">
              subscription page
            </Anchor>
            : you keep it until the period ends, then move to Free.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function FeatureMark({ included }: { included: boolean }) {
  return (
    <>
      <ThemeIcon size="sm" radius="xl" variant="light" color={included ? 'teal' : 'gray'} aria-hidden="true">
        {included ? <IconCheck size={14} /> : <IconX size={14} />}
      </ThemeIcon>
      <VisuallyHidden>{included ? 'Included' : 'Not included'}</VisuallyHidden>
    </>
  );
}

/**
 * Every limit and feature this server offers (the live ones: nothing unbuilt is sold); on a phone the table scrolls sideways rather than squeezing four columns, its row headers staying in view. */
function PlanTable({ tiers, currentTier }: { tiers: Tier[]; currentTier: Tier | null }) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="plan-details-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="plan-details-heading">
          Limits and features
        </Title>
        {/* Four plans do not fit a phone's width: nothing else would say the table goes on to the right. */}
        <Text size="sm" c="dimmed" hiddenFrom="sm" data-testid="plan-table-scroll-hint">
          Swipe the table sideways to see every plan.
        </Text>
        {/* Focusable so that keyboard users can scroll it on a phone; a name of its own, since two regions
            called "Limits and features" could not be told apart (axe landmark-unique). */}
        <Table.ScrollContainer
          minWidth={640}
          type="native"
          tabIndex={0}
          role="region"
          aria-label="Plan comparison table, scrolls sideways"
        >
          <Table
            striped
            highlightOnHover
            verticalSpacing="xs"
            className="haversack-sticky-first-column"
            data-testid="plan-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <VisuallyHidden>Limit or feature</VisuallyHidden>
                </Table.Th>
                {tiers.map((tier) => (
                  <Table.Th key={tier.identifier} scope="col">
                    {tier.name}
                    {tier.identifier === currentTier?.identifier ? (
                      <Text span size="xs" c="dimmed" display="block" fw={400}>
                        Current plan
                      </Text>
                    ) : null}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">Price</Table.Th>
                {tiers.map((tier) => (
                  <Table.Td key={tier.identifier}>{formatPricePerMonth(tier)}</Table.Td>
                ))}
              </Table.Tr>
              {liveLimitKeys.map((key) => (
                <Table.Tr key={key}>
                  <Table.Th scope="row" fw={500}>
                    {limitLabels[key]}
                  </Table.Th>
                  {tiers.map((tier) => (
                    <Table.Td key={tier.identifier}>{formatLimit(tier.limits[key])}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
              {liveFeatureKeys.map((key: FeatureKey) => (
                <Table.Tr key={key}>
                  <Table.Th
                    scope="row"
                    fw={500}
                    aria-describedby={key === 'party_collaboration' ? collaborationNoteId : undefined}
                  >
                    {featureLabels[key]}
                    {key === 'party_collaboration' ? (
                      <IconInfoCircle
                        size={14}
                        aria-hidden="true"
                        style={{ marginInlineStart: 4, verticalAlign: 'middle' }}
                      />
                    ) : null}
                  </Table.Th>
                  {tiers.map((tier) => (
                    <Table.Td key={tier.identifier}>
                      <FeatureMark included={tier.features[key] === true} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {/* Under the table rather than in its first column, which stays narrow and in view on a phone. */}
        {liveFeatureKeys.includes('party_collaboration') ? (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconInfoCircle size={16} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm" id={collaborationNoteId} data-testid="party-collaboration-note">
              {partyCollaborationNote(tiers)}
            </Text>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
