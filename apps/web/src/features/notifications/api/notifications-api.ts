import {
  type NotificationList,
  notificationListEnvelopeSchema,
  notificationReadAllSchema,
  notificationSchema,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** How many notices /notifications shows, newest first (the server keeps a bounded number per user). */
export const NOTICES_PER_PAGE = 20;

/** The only source of notification cache keys (DESIGN §2). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (page: number) => [...notificationKeys.all, 'list', page] as const,
};

export function notificationsQuery(page = 1) {
  return queryOptions({
    queryKey: notificationKeys.list(page),
    queryFn: async ({ signal }): Promise<NotificationList> => {
      const { data, meta } = await apiRequest(
        `${API_V1}/notifications?page=${page}&per_page=${NOTICES_PER_PAGE}`,
        { schema: notificationListEnvelopeSchema.shape.data, signal, toast: false },
      );
      const parsed = notificationListEnvelopeSchema.shape.meta.parse(meta);
      return { status: 'success', data, meta: parsed };
    },
    staleTime: 30_000,
  });
}

export async function markNotificationRead(id: string) {
  return (
    await apiRequest(`${API_V1}/notifications/${id}/read`, { method: 'POST', schema: notificationSchema })
  ).data;
}

export async function markAllNotificationsRead() {
  return (
    await apiRequest(`${API_V1}/notifications/read_all`, {
      method: 'POST',
      schema: notificationReadAllSchema,
    })
  ).data;
}

/** A notice standing for the same act done again and again (folded on the server): how many more. */
export function moreLikeIt(repeatCount: number): string {
  return `and ${repeatCount - 1} more like it`;
}
