import { type Announcement, announcementSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest } from '../../../lib/http-client';

export const announcementKeys = { active: ['announcements', 'active'] as const };

/** The banners in their window that I have not closed; looked at again every five minutes. */
export function activeAnnouncementsQuery() {
  return queryOptions({
    queryKey: announcementKeys.active,
    queryFn: async ({ signal }): Promise<Announcement[]> =>
      (
        await apiRequest(`${API_V1}/announcements`, {
          schema: z.array(announcementSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: 5 * 60_000,
    refetchInterval: 5 * 60_000,
  });
}

export async function dismissAnnouncement(id: string): Promise<void> {
  await apiRequest(`${API_V1}/announcements/${id}/dismiss`, { method: 'POST', toast: false });
}
