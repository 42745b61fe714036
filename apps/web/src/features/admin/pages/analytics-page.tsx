import '@mantine/charts/styles.css';
import { analyticsQuerySchema, analyticsSeriesKeys } from '@haversack/contracts';
import { LineChart } from '@mantine/charts';
import {
  Card,
  Group,
  Input,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { adminAnalyticsQuery } from '../api/admin-stats-api';
import { AdminPageHeader } from '../components/admin-page-header';

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

type SeriesKey = (typeof analyticsSeriesKeys)[number];

const labels: Record<SeriesKey, string> = {
  signups: 'Sign-ups',
  active_users: 'Active users',
  inventory_actions: 'Inventory actions',
  shop_activity: 'Shop activity',
  loot_activity: 'Loot activity',
  upgrades: 'Upgrades',
  cancellations: 'Cancellations',
};

/**
 * Series of one chart differ in hue and, for the second of a pair that colour blindness confuses (green and
 * red, orange and yellow), in stroke too: a dashed line.
 */
const charts: { title: string; series: { name: SeriesKey; color: string; strokeDasharray?: string }[] }[] = [
  {
    title: 'Users',
    series: [
      { name: 'signups', color: 'blue.6' },
      { name: 'active_users', color: 'teal.6' },
    ],
  },
  {
    title: 'Activity',
    series: [
      { name: 'inventory_actions', color: 'violet.6' },
      { name: 'shop_activity', color: 'orange.6' },
      { name: 'loot_activity', color: 'cyan.7', strokeDasharray: '6 4' },
    ],
  },
  {
    title: 'Subscriptions',
    series: [
      { name: 'upgrades', color: 'green.6' },
      { name: 'cancellations', color: 'red.6', strokeDasharray: '6 4' },
    ],
  },
];

/** Issue 15 Analytics (/admin/analytics): time series over a chosen range, by day or week. */
export function AnalyticsPage() {
  usePageTitle('Admin Analytics');
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(today.getTime() - 29 * DAY_MS)));
  const [to, setTo] = useState(isoDay(today));
  const [granularity, setGranularity] = useState<'day' | 'week'>('day');
  // The server's own schema checks the range first: a range it would refuse (422) is said on its field
  // and never asked for.
  const checked = analyticsQuerySchema.safeParse({ from, to, granularity });
  const valid = checked.success;
  const fieldError = (field: 'from' | 'to') =>
    checked.error?.issues.find((issue) => issue.path[0] === field)?.message;
  const query = useQuery({ ...adminAnalyticsQuery(from, to, granularity), enabled: valid });

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Analytics"
        description="Sign-ups, activity and subscriptions over time (UTC)."
      />
      {/* Tops aligned: an error under one date field lengthens it, and aligned at the end it rose. */}
      <Group gap="md" align="flex-start" wrap="wrap">
        <TextInput
          type="date"
          label="From"
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          error={fieldError('from')}
          w={{ base: '100%', xs: 170 }}
        />
        <TextInput
          type="date"
          label="To"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={fieldError('to')}
          w={{ base: '100%', xs: 170 }}
        />
        {/* A label of its own, as the date fields have, keeps it level with their inputs. */}
        <Input.Wrapper label="Granularity" labelElement="div">
          <SegmentedControl
            aria-label="Granularity"
            value={granularity}
            onChange={(value) => setGranularity(value === 'week' ? 'week' : 'day')}
            data={[
              { value: 'day', label: 'By day' },
              { value: 'week', label: 'By week' },
            ]}
            display="flex"
          />
        </Input.Wrapper>
      </Group>

      {!valid ? null : query.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading analytics">
          <Text size="sm" c="dimmed" role="status">
            Loading analytics...
          </Text>
          <Skeleton h={260} radius="md" />
          <Skeleton h={260} radius="md" />
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Analytics"
          message={`Unable to fetch the time series: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.points.length === 0 ? (
        <EmptyState title="No Data" message="Nothing happened in this range." />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
            {charts.map((chart) => (
              <Card key={chart.title} withBorder padding="md">
                <Title order={2} size="h4" mb="sm">
                  {chart.title}
                </Title>
                <LineChart
                  h={220}
                  data={query.data.points}
                  dataKey="period"
                  withLegend
                  curveType="monotone"
                  series={chart.series.map((s) => ({ ...s, label: labels[s.name] }))}
                  // Three tab stops that only repeat what the table below says, row by row.
                  lineChartProps={{ accessibilityLayer: false }}
                  // Counts: no half a sign-up between 0 and 1.
                  yAxisProps={{ allowDecimals: false }}
                />
              </Card>
            ))}
          </SimpleGrid>
          <Card withBorder padding={0}>
            <Table.ScrollContainer
              minWidth={760}
              // Focusable and named, so a keyboard user can scroll the figures sideways on a phone (WCAG 2.1.1).
              scrollAreaProps={{
                viewportProps: {
                  tabIndex: 0,
                  role: 'region',
                  'aria-label': granularity === 'week' ? 'Figures by week' : 'Figures by day',
                },
              }}
            >
              {/* A phone scrolls the figures sideways under the day they belong to. */}
              <Table striped highlightOnHover className="haversack-sticky-first-column">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{granularity === 'week' ? 'Week of' : 'Day'}</Table.Th>
                    {analyticsSeriesKeys.map((key) => (
                      <Table.Th key={key} ta="right">
                        {labels[key]}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.points.map((point) => (
                    <Table.Tr key={point.period}>
                      <Table.Td>{point.period}</Table.Td>
                      {analyticsSeriesKeys.map((key) => (
                        <Table.Td key={key} ta="right">
                          {formatCount(point[key])}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}
    </Stack>
  );
}
