import '@mantine/charts/styles.css';
import { type AdminDashboard, formatEnUs } from '@haversack/contracts';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, ColorSwatch, Grid, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { adminDashboardQuery } from '../api/admin-stats-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { ChartFigures } from '../components/chart-figures';
import { StatCard } from '../components/stat-card';

const tierColors = ['gray.5', 'blue.5', 'violet.5', 'orange.5'];
const tierColor = (i: number) => tierColors[i % tierColors.length] ?? 'gray.5';
/** The donut's colour of a tier as a CSS variable, for the legend's swatch. */
const swatchColor = (i: number) => `var(--mantine-color-${tierColor(i).replace('.', '-')})`;

/** Issue 15 Dashboard (/admin, /admin/dashboard): how the site is doing at a glance. */
export function DashboardPage() {
  usePageTitle('Admin Dashboard');
  const query = useQuery(adminDashboardQuery());

  return (
    <Stack gap="lg">
      <AdminPageHeader title="Dashboard" description="Users, content and activity across the site." />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" role="status">
            Loading the dashboard...
          </Text>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" aria-busy="true" aria-label="Loading dashboard">
            {Array.from({ length: 8 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <Skeleton key={i} h={88} radius="md" />
            ))}
          </SimpleGrid>
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Dashboard"
          message={`Unable to fetch the site statistics: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
            <StatCard label="Users" value={query.data.users.total} />
            <StatCard
              label="New users (7 days)"
              value={query.data.users.new_7d}
              hint={`${query.data.users.new_30d} in 30 days`}
            />
            <StatCard
              label="Active users (7 days)"
              value={query.data.users.active_7d}
              hint={`${query.data.users.active_30d} in 30 days`}
            />
            <StatCard label="Parties" value={query.data.parties} />
            <StatCard label="Characters" value={query.data.characters} />
            <StatCard label="Item templates" value={query.data.item_templates} hint="Made by users" />
            <StatCard
              label="Item stacks"
              value={query.data.item_stacks}
              hint="In every container, shop and loot stock included"
            />
            <PaidSubscriptionsCard tiers={query.data.subscriptions_by_tier} />
          </SimpleGrid>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Card withBorder padding="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Inventory actions per day (30 days)
                </Title>
                {query.data.inventory_actions_per_day.every((d) => d.count === 0) ? (
                  <EmptyState
                    title="No Inventory Actions"
                    message="Nobody moved, added or removed items in the last 30 days."
                  />
                ) : (
                  <ChartFigures
                    caption="Inventory actions per day (30 days)"
                    periodHeader="Day"
                    valueHeader="Inventory actions"
                    rows={query.data.inventory_actions_per_day.map((d) => ({
                      period: d.date,
                      value: formatCount(d.count),
                    }))}
                  >
                    <BarChart
                      h={260}
                      data={query.data.inventory_actions_per_day.map((d) => ({
                        date: d.date.slice(5),
                        count: d.count,
                      }))}
                      dataKey="date"
                      series={[{ name: 'count', label: 'Inventory actions', color: 'violet.6' }]}
                      tickLine="y"
                      // Counts: no half an action between 0 and 1.
                      yAxisProps={{ allowDecimals: false }}
                      // A tab stop whose arrow keys move a tooltip no screen reader hears: the table below
                      // holds the day-by-day figures.
                      barChartProps={{ accessibilityLayer: false }}
                    />
                  </ChartFigures>
                )}
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Card withBorder padding="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Subscriptions by tier
                </Title>
                {query.data.subscriptions_by_tier.every((t) => t.count === 0) ? (
                  <EmptyState title="No Subscriptions" message="No user has a subscription yet." />
                ) : (
                  <Stack align="center" gap="sm">
                    <DonutChart
                      size={180}
                      thickness={28}
                      withTooltip
                      data={query.data.subscriptions_by_tier.map((t, i) => ({
                        name: t.name,
                        value: t.count,
                        color: tierColor(i),
                      }))}
                      chartLabel={query.data.users.total}
                      // The stroke parts one slice from the next: a ring of one tier has none to part, and
                      // there it drew a lone radius across the ring.
                      strokeWidth={
                        query.data.subscriptions_by_tier.filter((t) => t.count > 0).length > 1 ? 1 : 0
                      }
                      // Tab stops that only repeat the list below, tier by tier.
                      pieChartProps={{ accessibilityLayer: false }}
                      pieProps={{ rootTabIndex: -1 }}
                    />
                    <Stack gap={4} w="100%">
                      {query.data.subscriptions_by_tier.map((t, i) => (
                        <Group key={t.tier} justify="space-between">
                          <Group gap="xs">
                            <ColorSwatch size={12} color={swatchColor(i)} aria-hidden="true" />
                            <Text size="sm">{t.name}</Text>
                          </Group>
                          <Text size="sm" fw={600}>
                            {formatCount(t.count)}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  </Stack>
                )}
              </Card>
            </Grid.Col>
          </Grid>
        </>
      )}
    </Stack>
  );
}

/** Paid plans that someone pays for; plans staff granted or taken through demo billing are counted apart. */
function PaidSubscriptionsCard({ tiers }: { tiers: AdminDashboard['subscriptions_by_tier'] }) {
  const onPaidPlans = tiers.filter((t) => t.tier !== 'tier_free');
  const granted = onPaidPlans.reduce((sum, t) => sum + t.granted, 0);
  const demo = onPaidPlans.reduce((sum, t) => sum + t.demo, 0);
  const paying = onPaidPlans.reduce((sum, t) => sum + t.count, 0) - granted - demo;
  const unpaid = [
    granted > 0 ? `${formatEnUs(granted)} granted by staff` : null,
    demo > 0 ? `${formatEnUs(demo)} on demo billing` : null,
  ].filter((part) => part !== null);
  return (
    <StatCard
      label="Paid subscriptions"
      value={paying}
      hint={unpaid.length > 0 ? `${unpaid.join(', ')}: no payment` : undefined}
    />
  );
}
