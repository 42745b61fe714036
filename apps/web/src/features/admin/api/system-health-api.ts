import { adminJobSchema, type JobStatus, pageMetaSchema, systemHealthSchema } from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminPagesRequest } from './admin-pages-request';

/** The System Health page asks again this often while it is open. */
export const SYSTEM_HEALTH_REFRESH_MS = 30_000;
export const JOBS_PER_PAGE = 25;

export const systemHealthKeys = {
  health: ['admin', 'system-health'] as const,
  jobs: ['admin', 'jobs'] as const,
  jobList: (status: JobStatus, page: number) => [...systemHealthKeys.jobs, status, page] as const,
};

export function systemHealthQuery() {
  return queryOptions({
    queryKey: systemHealthKeys.health,
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/system_health`, {
          schema: systemHealthSchema,
          signal,
          toast: false,
        })
      ).data,
    refetchInterval: SYSTEM_HEALTH_REFRESH_MS,
  });
}

export function adminJobsQuery(status: JobStatus, page: number) {
  return queryOptions({
    queryKey: systemHealthKeys.jobList(status, page),
    queryFn: async ({ signal }) => {
      const { data, meta } = await adminPagesRequest(
        `${API_V1}/admin/jobs?status=${status}&page=${page}&per_page=${JOBS_PER_PAGE}`,
        { schema: z.array(adminJobSchema), signal, toast: false },
      );
      return { jobs: data, meta: pageMetaSchema.parse(meta) };
    },
    placeholderData: keepPreviousData,
  });
}

export async function retryJob(id: string) {
  return (
    await adminPagesRequest(`${API_V1}/admin/jobs/${id}/retry`, { method: 'POST', schema: adminJobSchema })
  ).data;
}
