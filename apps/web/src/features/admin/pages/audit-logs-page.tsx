import type { AuditLogEntry, AuditLogFilter } from '@haversack/contracts';
import {
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { PastLastPage } from '../../../components/past-last-page';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { AUDIT_LOGS_PER_PAGE, auditLogsQueryOptions, exportAuditLogCsv } from '../api/audit-logs-api';
import { AuditLogEntryDetails } from '../components/audit-log-entry-details';
import { AuditLogFilters } from '../components/audit-log-filters';
import { AuditTargetLabel } from '../components/audit-target-label';
import { auditActionColor, auditActionLabel, auditActorLabel } from '../lib/audit-labels';
import { adminDateTime } from '../lib/format';

const filterKeys = ['actor', 'action', 'target_type', 'target_id', 'from', 'to'] as const;

function filterFrom(params: URLSearchParams): AuditLogFilter {
  const filter: AuditLogFilter = {};
  for (const key of filterKeys) {
    const value = params.get(key);
    if (value) filter[key] = value;
  }
  return filter;
}

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The Audit Logs page (issue 15): every admin act and refused attempt, filtered, paged, exportable. */
export function AuditLogsPage() {
  usePageTitle('Admin Audit Logs');
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFrom(params), [params]);
  const page = pageFrom(params);
  const query = useQuery(auditLogsQueryOptions({ ...filter, page }));
  const [opened, setOpened] = useState<AuditLogEntry | null>(null);
  const isPhone = useMediaQuery('(max-width: 47.99em)') ?? false;

  const searchOf = (next: AuditLogFilter, nextPage: number) => {
    const search = new URLSearchParams();
    for (const key of filterKeys) {
      const value = next[key];
      if (value) search.set(key, value);
    }
    if (nextPage > 1) search.set('page', String(nextPage));
    return search;
  };
  const go = (next: AuditLogFilter, nextPage = 1) => setParams(searchOf(next, nextPage));
  const firstPageQuery = searchOf(filter, 1).toString();
  const pager = (totalPages: number) =>
    totalPages > 1 ? (
      <Group justify="center">
        <Pagination
          total={totalPages}
          value={page}
          onChange={(next) => go(filter, next)}
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
          })}
          aria-label="Audit log pages"
        />
      </Group>
    ) : null;

  const exportCsv = useMutation({
    mutationFn: () => exportAuditLogCsv(filter),
    onSuccess: ({ truncated }) => {
      if (truncated)
        toast.info('The export holds the newest 10,000 entries; narrow the filters for the rest.');
    },
    onError: () => toast.error('Failed to export the audit log.'),
  });

  const total = query.data?.meta.total_count ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>Audit Logs</Title>
          <Text c="dimmed" size="sm">
            Every admin action and every refused attempt, newest first. Entries can never be changed.
          </Text>
        </Stack>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>

      <AuditLogFilters value={filter} onApply={(next) => go(next)} />

      {query.isPending ? (
        <Stack gap="xs" data-testid="audit-logs-loading" aria-busy="true">
          <Text size="sm" c="dimmed" role="status">
            Loading audit entries...
          </Text>
          {[0, 1, 2, 3, 4].map((row) => (
            <Skeleton key={row} height={36} />
          ))}
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Audit Logs"
          message={query.error.message}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.entries.length === 0 && page > 1 ? (
        <PastLastPage
          totalPages={query.data.meta.total_pages}
          firstPage={{ href: `/admin/audit${firstPageQuery ? `?${firstPageQuery}` : ''}` }}
          pager={pager(query.data.meta.total_pages)}
        />
      ) : query.data.entries.length === 0 ? (
        <EmptyState
          title="No Audit Entries"
          message={
            Object.keys(filter).length > 0
              ? 'No entry matches these filters. Clear them to see the whole log.'
              : 'Nothing has been recorded yet.'
          }
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {formatCount(total)} {total === 1 ? 'entry' : 'entries'}
          </Text>
          {isPhone ? (
            <Stack gap="xs" data-testid="audit-log-list">
              {query.data.entries.map((entry) => (
                <Card key={entry.id} withBorder padding="sm" data-testid="audit-log-entry">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Badge color={auditActionColor(entry.action)} variant="light">
                      {auditActionLabel(entry.action)}
                    </Badge>
                    <Button variant="subtle" size="compact-sm" onClick={() => setOpened(entry)}>
                      Details
                    </Button>
                  </Group>
                  <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
                    {auditActorLabel(entry)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {adminDateTime(entry.created_at)}
                  </Text>
                  <AuditTargetLabel entry={entry} />
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover data-testid="audit-log-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Time</Table.Th>
                    <Table.Th>Actor</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Target</Table.Th>
                    <Table.Th>Address</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Details</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.entries.map((entry) => (
                    <Table.Tr key={entry.id} data-testid="audit-log-entry">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{adminDateTime(entry.created_at)}</Table.Td>
                      {/*
                       * Room for an address on one line ("staff@e / xample. / com" while Target had room to
                       * spare); a longer one still breaks rather than widen the table.
                       */}
                      <Table.Td style={{ overflowWrap: 'anywhere', minWidth: '12rem' }}>
                        {auditActorLabel(entry)}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {/* Its whole width: a long path beside it took the room, and it showed "REFUSED …". */}
                        <Badge
                          color={auditActionColor(entry.action)}
                          variant="light"
                          maw="none"
                          miw="max-content"
                        >
                          {auditActionLabel(entry.action)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <AuditTargetLabel entry={entry} />
                      </Table.Td>
                      <Table.Td>{entry.ip_address ?? '—'}</Table.Td>
                      <Table.Td>
                        <Button variant="subtle" size="compact-sm" onClick={() => setOpened(entry)}>
                          Details
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pager(query.data.meta.total_pages)}
          <Text size="xs" c="dimmed">
            {AUDIT_LOGS_PER_PAGE} entries per page.
          </Text>
        </Stack>
      )}
      <AuditLogEntryDetails entry={opened} onClose={() => setOpened(null)} />
    </Stack>
  );
}
