import { Alert, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { ResendVerificationButton } from '../../../components/resend-verification-button';
import { usePageTitle } from '../../../lib/page-title';
import { displayNameOf, useCurrentUser } from '../../../stores/auth-store';
import { MyCharactersCard } from '../../characters/components/my-characters-card';
import { RecentNoticesCard } from '../../notifications/components/recent-notices-card';
import { MyPartiesCard } from '../../parties/components/my-parties-card';
import { PendingInvitationsCard } from '../../parties/components/pending-invitations-card';
import { QuickActionsCard } from '../../parties/components/quick-actions-card';
import { PlanSummaryCard } from '../../subscription/components/plan-summary-card';

export function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useCurrentUser();
  const name = displayNameOf(user);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} data-testid="dashboard-heading">
          Welcome, {name}
        </Title>
        <Text c="dimmed">Your characters, parties, invitations, notifications and plan at a glance.</Text>
      </Stack>

      {user && !user.email_verified ? (
        <Alert
          color="yellow"
          variant="light"
          title="Please verify your email address"
          // A standing notice, there when the page opens: not an alert to be announced urgently on every visit.
          role="status"
          icon={<IconMailExclamation aria-hidden="true" />}
          data-testid="unverified-email-notice"
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              We sent a verification link to {user.email}. Follow it to confirm your address.
            </Text>
            <ResendVerificationButton />
          </Stack>
        </Alert>
      ) : null}

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <MyCharactersCard />
        <MyPartiesCard />
        <PendingInvitationsCard />
        <QuickActionsCard />
      </SimpleGrid>

      <RecentNoticesCard />

      <PlanSummaryCard />
    </Stack>
  );
}
