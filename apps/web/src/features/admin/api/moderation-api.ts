import { adminReportSchema, pageMetaSchema, reportSchema } from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminPagesRequest } from './admin-pages-request';

export type ReportStatusFilter = 'open' | 'dismissed' | 'unpublished';

export const moderationKeys = {
  all: ['admin', 'reports'] as const,
  list: (status: ReportStatusFilter, page: number) => [...moderationKeys.all, status, page] as const,
};

export function adminReportsQuery(status: ReportStatusFilter, page: number) {
  return queryOptions({
    queryKey: moderationKeys.list(status, page),
    queryFn: async ({ signal }) => {
      const { data, meta } = await adminPagesRequest(
        `${API_V1}/admin/reports?status=${status}&page=${page}&per_page=20`,
        { schema: z.array(adminReportSchema), signal, toast: false },
      );
      return { reports: data, meta: pageMetaSchema.parse(meta) };
    },
    placeholderData: keepPreviousData,
  });
}

export async function resolveReport(id: string, action: 'dismiss' | 'unpublish') {
  return (
    await adminPagesRequest(`${API_V1}/admin/reports/${id}/${action}`, {
      method: 'POST',
      schema: reportSchema,
    })
  ).data;
}
