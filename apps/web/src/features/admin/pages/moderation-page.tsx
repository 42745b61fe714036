import type { AdminReport } from '@haversack/contracts';
import {
  Anchor,
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
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { LinkedText } from '../../../components/linked-text';
import { PastLastPage } from '../../../components/past-last-page';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import {
  adminReportsQuery,
  moderationKeys,
  type ReportStatusFilter,
  resolveReport,
} from '../api/moderation-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { adminDateTime } from '../lib/format';
import { useStatusTabAddress } from '../lib/use-status-tab-address';

const targetLabels = {
  item_template: 'Item template',
  shop_template: 'Shop template',
  loot_template: 'Loot template',
  party: 'Party',
} as const;

function isReportStatus(value: string): value is ReportStatusFilter {
  return value === 'open' || value === 'dismissed' || value === 'unpublished';
}

/** Issue 15 Moderation (/admin/moderation): the queue of reports on public content. */
export function ModerationPage() {
  usePageTitle('Admin Moderation');
  const { status, page, show } = useStatusTabAddress(isReportStatus, 'open');
  const setPage = (nextPage: number) => show(status, nextPage);
  const query = useQuery(adminReportsQuery(status, page));
  const pager = (totalPages: number) =>
    totalPages > 1 ? (
      <Group justify="center">
        <Pagination total={totalPages} value={page} onChange={setPage} aria-label="Report pages" />
      </Group>
    ) : null;

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Moderation"
        description="Reports on public templates and parties. Unpublishing makes the content private: its owner keeps it."
      />
      <SegmentedControl
        aria-label="Report status"
        value={status}
        onChange={(value) => show(isReportStatus(value) ? value : 'open')}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'dismissed', label: 'Dismissed' },
          { value: 'unpublished', label: 'Unpublished' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading reports">
          <Text size="sm" c="dimmed" role="status">
            Loading reports...
          </Text>
          <Skeleton h={110} radius="md" />
          <Skeleton h={110} radius="md" />
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Reports"
          message={`Unable to fetch the reports: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.reports.length === 0 && page > 1 ? (
        <PastLastPage
          totalPages={query.data.meta.total_pages}
          firstPage={{ onClick: () => setPage(1) }}
          pager={pager(query.data.meta.total_pages)}
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
          {pager(query.data.meta.total_pages)}
        </Stack>
      )}
    </Stack>
  );
}

/** Where the content is seen, for a report whose content is still public. */
function targetPath(report: AdminReport): string {
  switch (report.target_type) {
    case 'item_template':
      return `/items/templates/${report.target_id}`;
    case 'shop_template':
      return `/shops/templates/${report.target_id}`;
    case 'loot_template':
      return `/loot/templates/${report.target_id}`;
    case 'party':
      return `/parties/${report.target_id}`;
  }
}

function ReportCard({ report }: { report: AdminReport }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const act = useMutation({
    mutationFn: (action: 'dismiss' | 'unpublish') => resolveReport(report.id, action),
    onSuccess: (_data, action) => {
      setConfirming(false);
      toast.success(
        action === 'dismiss' ? 'Report dismissed.' : 'Content unpublished; its owner keeps it, private.',
      );
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    },
  });
  const name = report.target_name ?? 'Content no longer exists';
  return (
    <Card withBorder padding="md" data-testid="report-card">
      <Stack gap="xs">
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
        {/* What was reported: the moderator opens it, as the public sees it, before judging it. */}
        {report.target_public && report.target_name ? (
          <Anchor component={Link} to={targetPath(report)} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Anchor>
        ) : (
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
        )}
        {report.target_excerpt ? (
          <Text size="sm" c="dimmed" fs="italic" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <LinkedText>{report.target_excerpt}</LinkedText>
          </Text>
        ) : null}
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Owner: {report.target_owner_email ?? 'none'} · Reported by{' '}
          {report.reporter_email ?? 'a deleted user'} on {adminDateTime(report.created_at)}
        </Text>
        <Text size="sm" fw={600} mt={4}>
          Reason
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <LinkedText>{report.reason}</LinkedText>
        </Text>
        {report.status === 'open' ? (
          <Group gap="xs" justify="flex-end">
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
              disabled={act.isPending || !report.target_public}
              onClick={() => {
                act.reset();
                setConfirming(true);
              }}
            >
              Unpublish
            </Button>
          </Group>
        ) : (
          <Badge color={report.status === 'dismissed' ? 'gray' : 'red'} style={{ alignSelf: 'flex-start' }}>
            {report.status}
          </Badge>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Unpublish this content?"
        message={`“${name}” stops being public: everyone but its owner loses sight of it, and every open report on it closes. Its owner keeps it, private.`}
        confirmLabel="Unpublish"
        onConfirm={() => act.mutate('unpublish')}
        onClose={() => setConfirming(false)}
        loading={act.isPending && act.variables === 'unpublish'}
      />
    </Card>
  );
}
