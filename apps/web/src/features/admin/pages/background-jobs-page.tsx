import type { AdminJob, JobStatus } from '@haversack/contracts';
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  Pagination,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { PastLastPage } from '../../../components/past-last-page';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { adminJobsQuery, retryJob, systemHealthKeys } from '../api/system-health-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { adminDateTime } from '../lib/format';
import { useStatusTabAddress } from '../lib/use-status-tab-address';

const emptyMessages: Record<JobStatus, string> = {
  queued: 'No job is waiting to run right now.',
  scheduled: 'No job is scheduled for later.',
  failed: 'No job has failed. Failed jobs are retried on their own, up to an hour apart.',
};

function isJobStatus(value: string): value is JobStatus {
  return value === 'queued' || value === 'scheduled' || value === 'failed';
}

function RetryButton({ job }: { job: AdminJob }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryJob(job.id),
    onSuccess: () => {
      toast.success('The job will run at the next poll.');
      void queryClient.invalidateQueries({ queryKey: systemHealthKeys.jobs });
      void queryClient.invalidateQueries({ queryKey: systemHealthKeys.health });
    },
  });
  return (
    <Button
      size="compact-sm"
      variant="light"
      onClick={() => retry.mutate()}
      loading={retry.isPending}
      aria-label={`Retry ${job.kind} ${job.key}`}
    >
      Retry
    </Button>
  );
}

function LastError({ job }: { job: AdminJob }) {
  return job.last_error ? (
    <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: 360 }}>
      {job.last_error}
    </Code>
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

function JobsTable({ jobs }: { jobs: AdminJob[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs" data-testid="jobs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Run at</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Last error</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr key={job.id} data-testid="job-row">
              <Table.Td>
                <Badge variant="light">{job.kind}</Badge>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{job.key}</Table.Td>
              <Table.Td>{adminDateTime(job.run_at)}</Table.Td>
              <Table.Td>{job.attempts}</Table.Td>
              <Table.Td>
                <LastError job={job} />
              </Table.Td>
              <Table.Td>
                <RetryButton job={job} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function JobCards({ jobs }: { jobs: AdminJob[] }) {
  return (
    <Stack gap="xs" data-testid="job-cards">
      {jobs.map((job) => (
        <Card key={job.id} withBorder padding="sm" data-testid="job-card">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Badge variant="light">{job.kind}</Badge>
            <RetryButton job={job} />
          </Group>
          <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
            {job.key}
          </Text>
          <Text size="xs" c="dimmed">
            Runs {adminDateTime(job.run_at)} · {job.attempts} {job.attempts === 1 ? 'attempt' : 'attempts'}
          </Text>
          {job.last_error ? (
            <Stack mt={6} gap={2}>
              <LastError job={job} />
            </Stack>
          ) : null}
        </Card>
      ))}
    </Stack>
  );
}

/** Issue 15 Background Jobs (/admin/jobs; the spec's /admin/sidekiq): the durable queue by status. */
export function BackgroundJobsPage() {
  usePageTitle('Admin Background Jobs');
  const { status, page, show } = useStatusTabAddress(isJobStatus, 'failed');
  const setPage = (nextPage: number) => show(status, nextPage);
  const query = useQuery(adminJobsQuery(status, page));
  const pager = (totalPages: number) =>
    totalPages > 1 ? (
      <Pagination
        total={totalPages}
        value={page}
        onChange={setPage}
        getControlProps={(control) => ({
          'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
        })}
      />
    ) : null;
  const isPhone = useMediaQuery('(max-width: 47.99em)') ?? false;

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Background Jobs"
        description="Restocks, mass mail and bulk operations waiting in the queue. Retry runs a job at the next poll."
      />
      <SegmentedControl
        aria-label="Job status"
        value={status}
        onChange={(value) => {
          if (isJobStatus(value)) show(value);
        }}
        data={[
          { value: 'failed', label: 'Failed' },
          { value: 'queued', label: 'Queued' },
          { value: 'scheduled', label: 'Scheduled' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading jobs">
          <Text size="sm" c="dimmed" role="status">
            Loading jobs...
          </Text>
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} h={40} radius="sm" />
          ))}
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Jobs"
          message={`Unable to fetch the background jobs: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.jobs.length === 0 && page > 1 ? (
        <PastLastPage
          totalPages={query.data.meta.total_pages}
          firstPage={{ onClick: () => setPage(1) }}
          pager={pager(query.data.meta.total_pages)}
        />
      ) : query.data.jobs.length === 0 ? (
        <EmptyState title="No Jobs" message={emptyMessages[status]} />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {formatCount(query.data.meta.total_count)} {query.data.meta.total_count === 1 ? 'job' : 'jobs'}
          </Text>
          {isPhone ? <JobCards jobs={query.data.jobs} /> : <JobsTable jobs={query.data.jobs} />}
          {pager(query.data.meta.total_pages)}
        </Stack>
      )}
    </Stack>
  );
}
