import type { HealthStatus, SystemHealth } from '@haversack/contracts';
import { Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { systemHealthQuery } from '../api/system-health-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { HealthBadge } from '../components/health-badge';
import { adminDateTime } from '../lib/format';

function ms(value: number | null): string {
  return value === null ? 'no answer' : `${formatCount(value)} ms`;
}

function megabytes(bytes: number): string {
  return `${formatCount(bytes / 1024 / 1024, 0, 0)} MB`;
}

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

function HealthCard({
  title,
  status,
  children,
}: {
  title: string;
  status: HealthStatus;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="md" data-testid="health-card">
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        <HealthBadge status={status} />
      </Group>
      <Stack gap={2}>{children}</Stack>
    </Card>
  );
}

function Line({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

function HealthCards({ health }: { health: SystemHealth }) {
  const { database, redis, mail, billing, realtime, jobs, disk, app } = health;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      <HealthCard title="Database" status={database.status}>
        <Line>{database.engine === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}</Line>
        <Line>Query time: {ms(database.latency_ms)}</Line>
      </HealthCard>
      <HealthCard title="Redis" status={redis.status}>
        {redis.configured ? (
          <Line>Ping: {ms(redis.latency_ms)}</Line>
        ) : (
          <Line>Not configured: one process, real-time fan-out in memory</Line>
        )}
      </HealthCard>
      <HealthCard title="Mail" status={mail.status}>
        <Line>
          {mail.transport === 'smtp'
            ? 'Sent through SMTP'
            : 'Written to files (no SMTP_URL): nobody receives it'}
        </Line>
      </HealthCard>
      <HealthCard title="Billing" status={billing.status}>
        <Line>
          {billing.provider === 'stripe'
            ? 'Stripe'
            : billing.provider === 'local'
              ? 'Local demo billing: upgrades are free'
              : 'Off: upgrades are refused'}
        </Line>
      </HealthCard>
      <HealthCard title="Real-time" status={realtime.status}>
        <Line>Open connections: {formatCount(realtime.connections)}</Line>
        <Line>Streams followed: {formatCount(realtime.streams)}</Line>
      </HealthCard>
      <HealthCard title="Job queue" status={jobs.status}>
        <Line>Queued (due now): {formatCount(jobs.queued)}</Line>
        <Line>Scheduled later: {formatCount(jobs.scheduled)}</Line>
        <Line>Failed: {formatCount(jobs.failed)}</Line>
        <Anchor component={Link} to="/admin/jobs" size="sm" className="haversack-touch-target">
          Background Jobs
        </Anchor>
      </HealthCard>
      <HealthCard title="Disk" status={disk.status}>
        <Line>
          {disk.free_bytes === null
            ? 'The data directory’s disk could not be read'
            : `Free on the data directory’s disk: ${megabytes(disk.free_bytes)}`}
        </Line>
        {disk.free_bytes !== null && disk.status !== 'ok' ? (
          <Line>Under 1 GB: make room before writes start to fail</Line>
        ) : null}
      </HealthCard>
      <HealthCard title="Application" status="ok">
        <Line>Version {app.version}</Line>
        <Line>Node.js {app.node_version}</Line>
        <Line>Up for {duration(app.uptime_s)}</Line>
        <Line>Memory (RSS): {megabytes(app.memory_rss_bytes)}</Line>
      </HealthCard>
    </SimpleGrid>
  );
}

/** Issue 15 System Health (/admin/system-health, also /admin/monitoring): asks again every 30 s. */
export function SystemHealthPage() {
  usePageTitle('Admin System Health');
  const query = useQuery(systemHealthQuery());

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="System Health"
        description="The services this server depends on and how they answer. Refreshes every 30 seconds."
      />
      {query.isPending ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" role="status">
            Loading system health...
          </Text>
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            spacing="md"
            aria-busy="true"
            aria-label="Loading system health"
          >
            {[0, 1, 2, 3, 4, 5].map((n) => (
              <Skeleton key={n} h={120} radius="md" />
            ))}
          </SimpleGrid>
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load System Health"
          message={`Unable to fetch the system health: ${query.error.message}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            Checked {adminDateTime(query.data.checked_at)}
          </Text>
          <HealthCards health={query.data} />
        </Stack>
      )}
    </Stack>
  );
}
