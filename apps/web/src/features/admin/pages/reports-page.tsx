import { tierNameOf } from '@haversack/contracts';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatCount } from '../../../lib/format';
import { usePageTitle } from '../../../lib/page-title';
import { saveBlob } from '../../../lib/save-blob';
import { toast } from '../../../lib/toast';
import { adminFinancialQuery } from '../api/admin-stats-api';
import { fetchUsersForReport, USERS_REPORT_MAX } from '../api/admin-users-api';
import { exportAuditLogCsv } from '../api/audit-logs-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { csvText, localDay } from '../lib/csv';

type QueryClient = ReturnType<typeof useQueryClient>;

interface Report {
  name: string;
  description: string;
  /** Downloads the file; answers a note for the admin when the file does not hold everything. */
  download: (queryClient: QueryClient) => Promise<string | null>;
}

function save(slug: string, text: string): void {
  saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), `haversack-${slug}-${localDay()}.csv`);
}

const financial = (queryClient: QueryClient) => queryClient.fetchQuery(adminFinancialQuery());

/**
 * spec/01 §2 lists Reports in the admin menu but does not show its screen. Here it gathers the back office's
 * figures as CSV files for a spreadsheet, read from the same endpoints the other admin pages use (the audit
 * log through its own server export, which records who took a copy).
 */
const reports: Report[] = [
  {
    name: 'Users',
    description: `Every account, newest first: email, username, plan, status, verification, admin flag, joined and last seen (at most ${formatCount(USERS_REPORT_MAX)}).`,
    download: async () => {
      const { users, truncated } = await fetchUsersForReport();
      save(
        'users',
        csvText(
          [
            'id',
            'email',
            'username',
            'plan',
            'subscription_status',
            'email_verified',
            'admin',
            'suspended_at',
            'suspended_reason',
            'created_at',
            'last_seen_at',
          ],
          users.map((u) => [
            u.id,
            u.email,
            u.username,
            tierNameOf(u.tier),
            u.subscription_status,
            u.email_verified,
            u.admin,
            u.suspended_at,
            u.suspended_reason,
            u.created_at,
            u.last_seen_at,
          ]),
        ),
      );
      return truncated
        ? `The report holds the newest ${formatCount(USERS_REPORT_MAX)} users; the Users page searches the rest.`
        : null;
    },
  },
  {
    name: 'Subscriptions',
    description: 'Subscriptions counted by plan and status, as on the Financial page.',
    download: async (queryClient) => {
      const data = await financial(queryClient);
      save(
        'subscriptions',
        csvText(
          ['plan', 'status', 'count'],
          data.by_tier_status.map((row) => [row.name, row.status, row.count]),
        ),
      );
      return null;
    },
  },
  {
    name: 'Monthly revenue',
    description:
      'The last 12 months: paid subscriptions running and estimated revenue (tier price × paid subscriptions).',
    download: async (queryClient) => {
      const data = await financial(queryClient);
      save(
        'monthly-revenue',
        csvText(
          ['month', 'paid_subscriptions', 'revenue', 'currency'],
          data.monthly_revenue.map((m) => [
            m.month,
            m.paid_subscriptions,
            (m.revenue_cents / 100).toFixed(2),
            m.currency.toUpperCase(),
          ]),
        ),
      );
      return null;
    },
  },
  {
    name: 'Cancellations',
    description: 'The latest 100 cancellations: when, who, the plan cancelled and the reason given.',
    download: async (queryClient) => {
      const data = await financial(queryClient);
      save(
        'cancellations',
        csvText(
          ['cancelled_at', 'user_id', 'email', 'plan', 'at_period_end', 'reason'],
          data.cancellations.map((c) => [
            c.cancelled_at,
            c.user_id,
            c.email,
            c.tier === null ? null : tierNameOf(c.tier),
            c.cancel_at_period_end,
            c.reason,
          ]),
        ),
      );
      return null;
    },
  },
  {
    name: 'Audit log',
    description:
      'Every admin action and refused attempt, newest first (at most 10,000; the Audit Logs page filters). The export is itself audited.',
    download: async () => {
      const { truncated } = await exportAuditLogCsv({});
      return truncated
        ? 'The export holds the newest 10,000 entries; filter on the Audit Logs page for the rest.'
        : null;
    },
  },
];

function ReportCard({ report }: { report: Report }) {
  const queryClient = useQueryClient();
  const download = useMutation({
    mutationFn: () => report.download(queryClient),
    onSuccess: (note) => {
      if (note) toast.info(note);
    },
    onError: () => toast.error(`Failed to download the ${report.name.toLowerCase()} report.`),
  });
  return (
    <Card withBorder padding="md" component="section" aria-label={report.name}>
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap={4}>
          <Title order={2} size="h4">
            {report.name}
          </Title>
          <Text size="sm" c="dimmed">
            {report.description}
          </Text>
        </Stack>
        <Group>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() => download.mutate()}
            loading={download.isPending}
            aria-label={`Download ${report.name} CSV`}
          >
            Download CSV
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** /admin/reports: the back office's figures as CSV files. */
export function ReportsPage() {
  usePageTitle('Admin Reports');
  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Reports"
        description="Download the back office's figures as CSV files for a spreadsheet. Each file is made when you ask for it."
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {reports.map((report) => (
          <ReportCard key={report.name} report={report} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
