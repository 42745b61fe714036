import { Alert, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import { mainNavigation } from '../../../app/layouts/navigation';
import { ResendVerificationButton } from '../../../components/resend-verification-button';
import { usePageTitle } from '../../../lib/page-title';
import { displayNameOf, useCurrentUser } from '../../../stores/auth-store';
import { MyCharactersCard } from '../../characters/components/my-characters-card';
import { MyPartiesCard } from '../../parties/components/my-parties-card';
import { PendingInvitationsCard } from '../../parties/components/pending-invitations-card';
import { QuickActionsCard } from '../../parties/components/quick-actions-card';
import { PlanSummaryCard } from '../../subscription/components/plan-summary-card';

const sections = mainNavigation.filter((item) => item.href !== '/dashboard');

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
        <Text c="dimmed">Your characters, parties, invitations and plan at a glance.</Text>
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

      <PlanSummaryCard />

      <nav aria-label="Sections">
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
          {sections.map((section) => {
            const Icon = section.icon;
            return (
              <UnstyledButton key={section.href} component={Link} to={section.href}>
                <Card withBorder padding="md" h="100%">
                  <Group gap="sm" wrap="nowrap">
                    <ThemeIcon variant="light" size="lg" aria-hidden="true">
                      <Icon size={20} />
                    </ThemeIcon>
                    <Text fw={600}>{section.label}</Text>
                  </Group>
                </Card>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
      </nav>
    </Stack>
  );
}
