import { maintenanceModeMessage, siteSettingsSchema } from '@haversack/contracts';
import { Alert } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../lib/http-client';

/** The site switches everyone may read (maintenance mode, open registration); checked every minute. */
export function siteSettingsQueryOptions() {
  return {
    queryKey: ['site-settings'] as const,
    queryFn: async () =>
      (await apiRequest(`${API_V1}/site_settings`, { schema: siteSettingsSchema, toast: false })).data,
    staleTime: 60_000,
    refetchInterval: 60_000,
  };
}

/** spec/01 §8 "System is in maintenance mode.", shown above every page while staff work on the site. */
export function MaintenanceBanner() {
  const settings = useQuery(siteSettingsQueryOptions());
  if (!settings.data?.maintenance_mode) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconTool aria-hidden="true" />}
      mb="md"
      role="status"
      data-testid="maintenance-banner"
    >
      {maintenanceModeMessage} You can look around; changes are paused for now.
    </Alert>
  );
}
