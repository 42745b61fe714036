import { type SiteSettings, siteSettingsSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1 } from '../../../lib/http-client';
import { adminRequest } from './admin-request';

export function adminSettingsQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'settings'] as const,
    queryFn: async ({ signal }) =>
      (await adminRequest(`${API_V1}/admin/settings`, { schema: siteSettingsSchema, signal, toast: false }))
        .data,
  });
}

export async function updateSiteSettings(settings: Partial<SiteSettings>): Promise<SiteSettings> {
  return (
    await adminRequest(`${API_V1}/admin/settings`, {
      method: 'PUT',
      body: { settings },
      schema: siteSettingsSchema,
    })
  ).data;
}
