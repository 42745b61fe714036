import {
  type BulkOperationBody,
  templateKinds,
  tierIdentifiers,
  tierNameOf,
  tierNames,
  type UserBulkFilter,
} from '@haversack/contracts';
import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import {
  bulkOperationsKeys,
  previewBulkOperation,
  recentBulkOperationsQuery,
  startBulkOperation,
} from '../api/bulk-operations-api';
import { AdminPageHeader } from '../components/admin-page-header';
import { OperationProgress } from '../components/operation-progress';
import { adminDateTime } from '../lib/format';

const kindLabels: Record<(typeof templateKinds)[number], string> = {
  item_template: 'Item templates',
  shop_template: 'Shop templates',
  loot_template: 'Loot templates',
};

const pickTier = (value: string | null) => tierIdentifiers.find((t) => t === value);

function describe(operation: { kind: string; params: Record<string, unknown> }): string {
  if (operation.kind === 'bulk_users')
    return operation.params.action === 'suspend'
      ? `Suspend users (${String(operation.params.reason)})`
      : `Change tier to ${tierNameOf(operation.params.tier)}`;
  return 'Unpublish templates';
}

/**
 * Issue 15 Bulk operations (/admin/bulk-operations): a filtered set of users (change tier) or public
 * templates (unpublish); a dry-run count first, then a background job with progress.
 */
export function BulkOperationsPage() {
  usePageTitle('Admin Bulk Operations');
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<'users' | 'templates'>('users');
  const [tier, setTier] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [before, setBefore] = useState('');
  const [after, setAfter] = useState('');
  const [email, setEmail] = useState('');
  const [userAction, setUserAction] = useState<'change_tier' | 'suspend'>('change_tier');
  const [newTier, setNewTier] = useState<string | null>('tier_1');
  const [reason, setReason] = useState('');
  const [kind, setKind] = useState<(typeof templateKinds)[number]>('item_template');
  const [owner, setOwner] = useState('');
  const [count, setCount] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const recent = useQuery(recentBulkOperationsQuery());

  const userFilter = (): UserBulkFilter => ({
    ...(pickTier(tier) ? { tier: pickTier(tier) } : {}),
    ...(status === 'active' || status === 'suspended' ? { status } : {}),
    ...(before ? { signed_up_before: before } : {}),
    ...(after ? { signed_up_after: after } : {}),
    ...(email.trim() ? { email_contains: email.trim() } : {}),
  });
  const body = (): BulkOperationBody => {
    if (target === 'templates')
      return {
        target,
        action: 'unpublish',
        filter: { kind, ...(owner.trim() ? { owner: owner.trim() } : {}) },
      };
    return userAction === 'suspend'
      ? { target, action: 'suspend', reason: reason.trim(), filter: userFilter() }
      : { target, action: 'change_tier', tier: pickTier(newTier) ?? 'tier_free', filter: userFilter() };
  };
  const confirmation =
    target === 'templates'
      ? `unpublish ${count ?? 0} ${kindLabels[kind].toLowerCase()}`
      : userAction === 'suspend'
        ? `suspend ${count ?? 0} users and sign them out at once (admins are never suspended)`
        : `move ${count ?? 0} users to ${tierNames[pickTier(newTier) ?? 'tier_free']}`;

  const reset = () => setCount(null);
  const preview = useMutation({ mutationFn: () => previewBulkOperation(body()), onSuccess: setCount });
  const start = useMutation({
    mutationFn: () => startBulkOperation(body()),
    onSuccess: () => {
      setConfirming(false);
      setCount(null);
      void queryClient.invalidateQueries({ queryKey: bulkOperationsKeys.recent });
    },
  });
  const error = preview.error ?? start.error;

  return (
    <Stack gap="lg">
      <AdminPageHeader
        title="Bulk Operations"
        description="Act on many users or templates at once. Count first; the change then runs in the background, one audit entry per change."
      />
      <Card withBorder padding="md">
        <Stack gap="md">
          <SegmentedControl
            aria-label="Act on"
            value={target}
            onChange={(value) => {
              setTarget(value === 'templates' ? 'templates' : 'users');
              reset();
            }}
            data={[
              { value: 'users', label: 'Users' },
              { value: 'templates', label: 'Templates' },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
          {target === 'users' ? (
            <>
              <Group gap="sm" align="flex-end" wrap="wrap" onChange={reset}>
                <Select
                  label="Tier"
                  placeholder="Any tier"
                  value={tier}
                  onChange={(v) => {
                    setTier(v);
                    reset();
                  }}
                  data={tierIdentifiers.map((t) => ({ value: t, label: tierNames[t] }))}
                  clearable
                  w={{ base: '100%', xs: 160 }}
                />
                <Select
                  label="Status"
                  placeholder="Any status"
                  value={status}
                  onChange={(v) => {
                    setStatus(v);
                    reset();
                  }}
                  data={[
                    { value: 'active', label: 'Active' },
                    { value: 'suspended', label: 'Suspended' },
                  ]}
                  clearable
                  w={{ base: '100%', xs: 160 }}
                />
                <TextInput
                  type="date"
                  label="Signed up on or after"
                  value={after}
                  onChange={(e) => setAfter(e.currentTarget.value)}
                  w={{ base: '100%', xs: 180 }}
                />
                <TextInput
                  type="date"
                  label="Signed up before"
                  value={before}
                  onChange={(e) => setBefore(e.currentTarget.value)}
                  w={{ base: '100%', xs: 180 }}
                />
                <TextInput
                  label="Email contains"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  w={{ base: '100%', xs: 220 }}
                />
              </Group>
              <SegmentedControl
                aria-label="Action"
                value={userAction}
                onChange={(value) => {
                  setUserAction(value === 'suspend' ? 'suspend' : 'change_tier');
                  reset();
                }}
                data={[
                  { value: 'change_tier', label: 'Change tier' },
                  { value: 'suspend', label: 'Suspend' },
                ]}
                style={{ alignSelf: 'flex-start' }}
              />
              {userAction === 'suspend' ? (
                <Textarea
                  label="Reason for the suspension"
                  description="Admins and users already suspended are left out of the count and the run."
                  required
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  rows={2}
                  w={{ base: '100%', sm: 480 }}
                />
              ) : (
                <Select
                  label="Change their tier to (without payment)"
                  value={newTier}
                  onChange={(v) => {
                    setNewTier(v);
                    reset();
                  }}
                  data={tierIdentifiers.map((t) => ({ value: t, label: tierNames[t] }))}
                  allowDeselect={false}
                  // Room for its label on one line: at 260 px "(without payment)" wrapped under it.
                  w={{ base: '100%', xs: 320 }}
                />
              )}
            </>
          ) : (
            <Group gap="sm" align="flex-end" wrap="wrap" onChange={reset}>
              <Select
                label="Public templates of kind"
                value={kind}
                onChange={(v) => {
                  setKind(templateKinds.find((k) => k === v) ?? 'item_template');
                  reset();
                }}
                data={templateKinds.map((k) => ({ value: k, label: kindLabels[k] }))}
                allowDeselect={false}
                w={{ base: '100%', xs: 200 }}
              />
              <TextInput
                label="Owner (email or id)"
                value={owner}
                onChange={(e) => setOwner(e.currentTarget.value)}
                w={{ base: '100%', xs: 260 }}
              />
              <Text size="sm" c="dimmed" data-testid="bulk-templates-note">
                Action: unpublish (make private; owners keep them). Haversack's own catalogue (the SRD items,
                coins, the system shops and loot) is never included.
              </Text>
            </Group>
          )}
          {error ? (
            <Alert color="red">
              {isApiError(error)
                ? error.details.map((d) => d.message).join(' ') || error.message
                : 'Something went wrong.'}
            </Alert>
          ) : null}
          <Group gap="sm">
            <Button variant="default" onClick={() => preview.mutate()} loading={preview.isPending}>
              Count Matches (Dry Run)
            </Button>
            <Button onClick={() => setConfirming(true)} disabled={count === null || count === 0}>
              Run Operation
            </Button>
            {count !== null ? (
              <Text size="sm" data-testid="bulk-preview-count">
                {formatCount(count)} {target === 'users' ? 'users' : 'templates'} match.
              </Text>
            ) : null}
          </Group>
        </Stack>
      </Card>

      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => start.mutate()}
        title="Run Bulk Operation"
        message={`This will ${confirmation}. Continue?`}
        confirmLabel="Run"
        loading={start.isPending}
      />

      <Card withBorder padding="md">
        <Title order={2} size="h4" mb="sm">
          Recent operations
        </Title>
        <RefreshFailedNote query={recent} />
        {recent.isPending ? (
          <Skeleton h={60} aria-label="Loading operations" />
        ) : failedWithNothingToShow(recent) ? (
          <ErrorPanel
            title="Failed to Load Operations"
            message={`Unable to fetch recent operations: ${recent.error.message}`}
            error={recent.error}
            onRetry={() => void recent.refetch()}
          />
        ) : recent.data.length === 0 ? (
          <EmptyState title="No Operations" message="No bulk operation has been run yet." />
        ) : (
          <Stack gap="md">
            {recent.data.map((operation) => (
              <Stack key={operation.id} gap={4}>
                <Text size="sm" fw={600}>
                  {describe(operation)} · started by {operation.actor_email ?? 'unknown'} on{' '}
                  {adminDateTime(operation.created_at)}
                </Text>
                <OperationProgress
                  operation={operation}
                  verb={operation.kind === 'bulk_users' ? 'users done' : 'templates done'}
                />
              </Stack>
            ))}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
