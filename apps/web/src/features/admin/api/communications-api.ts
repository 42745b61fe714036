import {
  type AnnouncementBody,
  adminOperationSchema,
  announcementSchema,
  bulkPreviewSchema,
  type MassMailBody,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminPagesRequest } from './admin-pages-request';

export const communicationsKeys = {
  announcements: ['admin', 'announcements'] as const,
  massMails: ['admin', 'mass-mails'] as const,
  operation: (id: string) => ['admin', 'operations', id] as const,
};

export function adminAnnouncementsQuery() {
  return queryOptions({
    queryKey: communicationsKeys.announcements,
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/announcements`, {
          schema: z.array(announcementSchema),
          signal,
          toast: false,
        })
      ).data,
  });
}

export async function createAnnouncement(body: AnnouncementBody) {
  return (
    await adminPagesRequest(`${API_V1}/admin/announcements`, {
      method: 'POST',
      body,
      schema: announcementSchema,
      toast: false,
    })
  ).data;
}

export async function deleteAnnouncement(id: string) {
  await adminPagesRequest(`${API_V1}/admin/announcements/${id}`, { method: 'DELETE' });
}

export function massMailsQuery() {
  return queryOptions({
    queryKey: communicationsKeys.massMails,
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/mass_mails`, {
          schema: z.array(adminOperationSchema),
          signal,
          toast: false,
        })
      ).data,
  });
}

/** How many users the mail would go to, for the confirmation before it is sent; sends nothing. */
export async function previewMassMail(body: MassMailBody) {
  return (
    await adminPagesRequest(`${API_V1}/admin/mass_mails/preview`, {
      method: 'POST',
      body,
      schema: bulkPreviewSchema,
      toast: false,
    })
  ).data.count;
}

export async function sendMassMail(body: MassMailBody) {
  return (
    await adminPagesRequest(`${API_V1}/admin/mass_mails`, {
      method: 'POST',
      body,
      schema: adminOperationSchema,
      toast: false,
    })
  ).data;
}

/** A running operation is polled every second until it is done or failed. */
export function adminOperationQuery(id: string) {
  return queryOptions({
    queryKey: communicationsKeys.operation(id),
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/operations/${id}`, {
          schema: adminOperationSchema,
          signal,
          toast: false,
        })
      ).data,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' || status === 'cancelled' ? false : 1000;
    },
  });
}

/** Stops a queued or running operation before its next batch (the server audits it). */
export async function cancelAdminOperation(id: string) {
  return (
    await adminPagesRequest(`${API_V1}/admin/operations/${id}/cancel`, {
      method: 'POST',
      schema: adminOperationSchema,
      toast: false,
    })
  ).data;
}
