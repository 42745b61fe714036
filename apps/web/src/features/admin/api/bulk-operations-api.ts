import { adminOperationSchema, type BulkOperationBody, bulkPreviewSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminPagesRequest } from './admin-pages-request';

export const bulkOperationsKeys = { recent: ['admin', 'bulk-operations'] as const };

export function recentBulkOperationsQuery() {
  return queryOptions({
    queryKey: bulkOperationsKeys.recent,
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/bulk_operations`, {
          schema: z.array(adminOperationSchema),
          signal,
          toast: false,
        })
      ).data,
  });
}

export async function previewBulkOperation(body: BulkOperationBody) {
  return (
    await adminPagesRequest(`${API_V1}/admin/bulk_operations/preview`, {
      method: 'POST',
      body,
      schema: bulkPreviewSchema,
      toast: false,
    })
  ).data.count;
}

export async function startBulkOperation(body: BulkOperationBody) {
  return (
    await adminPagesRequest(`${API_V1}/admin/bulk_operations`, {
      method: 'POST',
      body,
      schema: adminOperationSchema,
      toast: false,
    })
  ).data;
}
