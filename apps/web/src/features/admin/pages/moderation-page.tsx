import type { AdminReport } from '@haversack/contracts';
import {
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import {
  adminReportsQuery,
  moderationKeys,
  type ReportStatusFilter,
  resolveReport,
} from '../api/moderation-api';
import { AdminPageHeader } from '../components/admin-page-header';

const targetLabels = {
  item_template: 'Item template',
  shop_template: 'Shop template',
  loot_template: 'Loot template',
  party: 'Party',
} as const;

/** Issue 15 Moderation (/admin/moderation): the queue of reports on public content. */
export function ModerationPage() {
  usePageTitle('Admin Moderation');
  const [status, setStatus] = useState<ReportStatusFilter>('open');
  const [page, setPage] = useState(1);
  const query = useQuery(adminReportsQuery(status, page));

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Moderation"
        description="Reports on public templates and parties. Unpublishing makes the content private: its owner keeps it."
      />
      <SegmentedControl
        aria-label="Report status"
        value={status}
        onChange={(value) => {
          setStatus(value === 'dismissed' || value === 'unpublished' ? value : 'open');
          setPage(1);
        }}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'dismissed', label: 'Dismissed' },
          { value: 'unpublished', label: 'Unpublished' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {query.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading reports">
          <Skeleton h={110} radius="md" />
          <Skeleton h={110} radius="md" />
        </Stack>
      ) : query.isError && !query.data ? (
        <ErrorPanel
          title="Failed to Load Reports"
          message="Unable to fetch the reports."
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.reports.length === 0 ? (
        <EmptyState
          title={status === 'open' ? 'No Open Reports' : 'No Reports'}
          message={
            status === 'open'
              ? 'Nothing is waiting for a moderator.'
              : 'No report has been handled this way yet.'
          }
        />
      ) : (
        <Stack gap="sm">
          {query.data.reports.map((report) => (
            <ReportCard key={report.id} report={report} />
          ))}
          {query.data.meta.total_pages > 1 ? (
            <Group justify="center">
              <Pagination
                total={query.data.meta.total_pages}
                value={page}
                onChange={setPage}
                aria-label="Report pages"
              />
            </Group>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

function ReportCard({ report }: { report: AdminReport }) {
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: (action: 'dismiss' | 'unpublish') => resolveReport(report.id, action),
    onSuccess: (_data, action) => {
      toast.success(
        action === 'dismiss' ? 'Report dismissed.' : 'Content unpublished; its owner keeps it, private.',
      );
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    },
  });
  return (
    <Card withBorder padding="md" data-testid="report-card">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Group gap="xs">
              <Badge variant="light">{targetLabels[report.target_type]}</Badge>
              {report.target_public ? null : (
                <Badge variant="light" color="gray">
                  Not public
                </Badge>
              )}
              {report.open_reports_on_target > 1 ? (
                <Badge variant="light" color="orange">
                  {report.open_reports_on_target} open reports
                </Badge>
              ) : null}
            </Group>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {report.target_name ?? 'Content no longer exists'}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Owner: {report.target_owner_email ?? 'none'} · Reported by{' '}
              {report.reporter_email ?? 'a deleted user'} on {new Date(report.created_at).toLocaleString()}
            </Text>
          </Stack>
          {report.status === 'open' ? (
            <Group gap="xs">
              <Button
                variant="default"
                size="sm"
                loading={act.isPending && act.variables === 'dismiss'}
                disabled={act.isPending}
                onClick={() => act.mutate('dismiss')}
              >
                Dismiss
              </Button>
              <Button
                color="red.9"
                size="sm"
                loading={act.isPending && act.variables === 'unpublish'}
                disabled={act.isPending || !report.target_public}
                onClick={() => act.mutate('unpublish')}
              >
                Unpublish
              </Button>
            </Group>
          ) : (
            <Badge color={report.status === 'dismissed' ? 'gray' : 'red'}>{report.status}</Badge>
          )}
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {report.reason}
        </Text>
      </Stack>
    </Card>
  );
}
