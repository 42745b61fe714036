import '@mantine/charts/styles.css';
import { tierNameOf } from '@haversack/contracts';
import { BarChart } from '@mantine/charts';
import {
  Badge,
  Card,
  Group,
  Pagination,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount, formatMoney } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { adminFinancialQuery, billingEventsQuery } from '../api/admin-stats-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { ChartFigures } from '../components/chart-figures';
import { StatCard } from '../components/stat-card';
import { adminDateTime } from '../lib/format';

function money(cents: number, currency: string): string {
  return formatMoney(cents / 100, currency.toUpperCase());
}

/** Issue 15 Financial (/admin/financial): subscriptions, revenue, cancellations and the webhook log. */
export function FinancialPage() {
  usePageTitle('Admin Financial');
  const query = useQuery(adminFinancialQuery());

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Financial"
        description="Subscriptions, estimated monthly revenue (tier price × paid subscriptions running that month), cancellations and billing events."
      />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading financial data">
          <Text size="sm" c="dimmed" role="status">
            Loading financial data...
          </Text>
          <Skeleton h={88} radius="md" />
          <Skeleton h={260} radius="md" />
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Financial Data"
          message={`Unable to fetch subscriptions and revenue: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
            <StatCard
              label="Revenue this month"
              value={money(
                query.data.monthly_revenue.at(-1)?.revenue_cents ?? 0,
                query.data.monthly_revenue.at(-1)?.currency ?? 'usd',
              )}
              hint="Estimated"
            />
            <StatCard
              label="Paid subscriptions"
              value={query.data.monthly_revenue.at(-1)?.paid_subscriptions ?? 0}
            />
            <StatCard
              label="Active subscriptions"
              value={query.data.by_tier_status
                .filter((r) => r.status === 'active')
                .reduce((s, r) => s + r.count, 0)}
            />
            <StatCard label="Cancellations" value={query.data.cancellations.length} hint="Latest 100" />
          </SimpleGrid>

          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              Monthly revenue (12 months)
            </Title>
            {query.data.monthly_revenue.every((m) => m.revenue_cents === 0) ? (
              <EmptyState
                title="No Revenue Yet"
                message="No paid subscription has run in the last 12 months."
              />
            ) : (
              <ChartFigures
                caption="Monthly revenue (12 months)"
                periodHeader="Month"
                valueHeader="Revenue"
                rows={query.data.monthly_revenue.map((m) => ({
                  period: m.month,
                  value: money(m.revenue_cents, m.currency),
                }))}
              >
                <BarChart
                  h={240}
                  data={query.data.monthly_revenue.map((m) => ({
                    month: m.month,
                    revenue: m.revenue_cents / 100,
                  }))}
                  dataKey="month"
                  series={[{ name: 'revenue', label: 'Revenue', color: 'green.6' }]}
                  // A tab stop whose arrow keys move a tooltip no screen reader hears: the table below
                  // holds the month-by-month figures.
                  barChartProps={{ accessibilityLayer: false }}
                  valueFormatter={(value) =>
                    money(value * 100, query.data.monthly_revenue[0]?.currency ?? 'usd')
                  }
                />
              </ChartFigures>
            )}
          </Card>

          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              Subscriptions by tier and status
            </Title>
            {query.data.by_tier_status.length === 0 ? (
              <EmptyState title="No Subscriptions" message="No user has a subscription yet." />
            ) : (
              // Three short columns fit a phone's card (~310 px) without scrolling sideways.
              <Table.ScrollContainer minWidth={280}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Tier</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th ta="right">Count</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {query.data.by_tier_status.map((row) => (
                      <Table.Tr key={`${row.tier}-${row.status}`}>
                        <Table.Td>{row.name}</Table.Td>
                        <Table.Td>
                          <Badge
                            variant="light"
                            color={
                              row.status === 'active'
                                ? 'green'
                                : row.status === 'past_due'
                                  ? 'orange'
                                  : 'gray'
                            }
                          >
                            {row.status.replace('_', ' ')}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right">{formatCount(row.count)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>

          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              Cancellations
            </Title>
            {query.data.cancellations.length === 0 ? (
              <EmptyState title="No Cancellations" message="Nobody has cancelled a subscription." />
            ) : (
              <Table.ScrollContainer minWidth={640}>
                <Table aria-label="Cancellations">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>When</Table.Th>
                      <Table.Th>User</Table.Th>
                      <Table.Th>Tier</Table.Th>
                      <Table.Th>Reason</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {query.data.cancellations.map((c) => (
                      <Table.Tr key={`${c.user_id}-${c.cancelled_at}`}>
                        <Table.Td>{adminDateTime(c.cancelled_at)}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.email}</Table.Td>
                        <Table.Td>
                          {c.tier === null ? (
                            <Text c="dimmed" span inherit>
                              Not recorded
                            </Text>
                          ) : (
                            `${tierNameOf(c.tier)}${c.cancel_at_period_end ? ' (at period end)' : ''}`
                          )}
                        </Table.Td>
                        <Table.Td>
                          {c.reason ?? (
                            // `inherit`: the cell's size; Text's own (md) is larger than a table's.
                            <Text c="dimmed" span inherit>
                              No reason given
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Card>
        </>
      )}
      <BillingEventsCard />
    </Stack>
  );
}

function BillingEventsCard() {
  const [page, setPage] = useState(1);
  const query = useQuery(billingEventsQuery(page));
  return (
    <Card withBorder padding="md">
      <Title order={2} size="h4" mb="sm">
        Billing events (webhook log)
      </Title>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Skeleton h={160} aria-label="Loading billing events" />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Billing Events"
          message={`Unable to fetch the webhook log: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.events.length === 0 ? (
        <EmptyState title="No Billing Events" message="The billing provider has not sent any webhook yet." />
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Received</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th>Event id</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.events.map((event) => (
                  <Table.Tr key={event.id}>
                    <Table.Td>{adminDateTime(event.received_at)}</Table.Td>
                    <Table.Td>{event.type}</Table.Td>
                    <Table.Td>{event.provider}</Table.Td>
                    <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {event.id}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {query.data.meta.total_pages > 1 ? (
            <Group justify="center">
              <Pagination
                total={query.data.meta.total_pages}
                value={page}
                onChange={setPage}
                aria-label="Billing events pages"
              />
            </Group>
          ) : null}
        </Stack>
      )}
    </Card>
  );
}
