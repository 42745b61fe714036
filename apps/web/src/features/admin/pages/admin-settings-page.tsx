import type { SiteSettings } from '@haversack/contracts';
import { Card, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { adminSettingsQueryOptions, updateSiteSettings } from '../api/site-settings-api';

/** Issue 15, Settings: maintenance mode and open registration; each change is audited. */
export function AdminSettingsPage() {
  usePageTitle('Admin Settings');
  const queryClient = useQueryClient();
  const query = useQuery(adminSettingsQueryOptions());
  // Turning maintenance on stops every player's writes at once: asked first. Turning it off is not.
  const [confirmingMaintenance, setConfirmingMaintenance] = useState(false);
  const save = useMutation({
    mutationFn: (changes: Partial<SiteSettings>) => updateSiteSettings(changes),
    onSuccess: (settings) => {
      setConfirmingMaintenance(false);
      queryClient.setQueryData(adminSettingsQueryOptions().queryKey, settings);
      void queryClient.invalidateQueries({ queryKey: ['site-settings'] });
      toast.success('Settings saved.');
    },
    onError: () => setConfirmingMaintenance(false),
  });

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>Settings</Title>
        <Text c="dimmed" size="sm">
          Site-wide switches. They apply within a few seconds on every server; each change lands in the audit
          log.
        </Text>
      </Stack>
      {query.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <Text role="status" c="dimmed">
            Loading settings...
          </Text>
          <Skeleton height={80} />
          <Skeleton height={80} />
        </Stack>
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to Load Settings"
          message={query.error.message}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <Card withBorder padding="md">
            <Switch
              size="md"
              label="Maintenance mode"
              description="Everyone sees “System is in maintenance mode.”; only admins can change anything. Reading and signing in still work."
              checked={query.data.maintenance_mode}
              disabled={save.isPending}
              onChange={(event) => {
                if (event.currentTarget.checked) setConfirmingMaintenance(true);
                else save.mutate({ maintenance_mode: false });
              }}
            />
          </Card>
          <Card withBorder padding="md">
            <Switch
              size="md"
              label="Open registration"
              description="When off, nobody can create a new account: signing up is refused with a message saying registration is closed."
              checked={query.data.registration_open}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ registration_open: event.currentTarget.checked })}
            />
          </Card>
        </>
      )}
      <ConfirmDialog
        opened={confirmingMaintenance}
        onClose={() => setConfirmingMaintenance(false)}
        onConfirm={() => save.mutate({ maintenance_mode: true })}
        title="Turn On Maintenance Mode"
        message="Every player's changes will be refused with “System is in maintenance mode.” until you turn it off; only admins can change anything. Turn it on?"
        confirmLabel="Turn On"
        loading={save.isPending}
      />
    </Stack>
  );
}
