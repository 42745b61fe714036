import {
  adminAnalyticsSchema,
  adminDashboardSchema,
  adminFinancialSchema,
  billingEventSchema,
  pageMetaSchema,
} from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { adminPagesRequest } from './admin-pages-request';

export const adminStatsKeys = {
  all: ['admin', 'stats'] as const,
  dashboard: () => [...adminStatsKeys.all, 'dashboard'] as const,
  analytics: (from: string, to: string, granularity: string) =>
    [...adminStatsKeys.all, 'analytics', from, to, granularity] as const,
  financial: () => [...adminStatsKeys.all, 'financial'] as const,
  billingEvents: (page: number) => [...adminStatsKeys.all, 'billing-events', page] as const,
};

export function adminDashboardQuery() {
  return queryOptions({
    queryKey: adminStatsKeys.dashboard(),
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/stats/dashboard`, {
          schema: adminDashboardSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: 60_000,
  });
}

export function adminAnalyticsQuery(from: string, to: string, granularity: 'day' | 'week') {
  const search = new URLSearchParams({ from, to, granularity });
  return queryOptions({
    queryKey: adminStatsKeys.analytics(from, to, granularity),
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/stats/analytics?${search}`, {
          schema: adminAnalyticsSchema,
          signal,
          toast: false,
        })
      ).data,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function adminFinancialQuery() {
  return queryOptions({
    queryKey: adminStatsKeys.financial(),
    queryFn: async ({ signal }) =>
      (
        await adminPagesRequest(`${API_V1}/admin/financial`, {
          schema: adminFinancialSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: 60_000,
  });
}

export function billingEventsQuery(page: number) {
  return queryOptions({
    queryKey: adminStatsKeys.billingEvents(page),
    queryFn: async ({ signal }) => {
      const { data, meta } = await adminPagesRequest(
        `${API_V1}/admin/financial/billing_events?page=${page}&per_page=20`,
        { schema: z.array(billingEventSchema), signal, toast: false },
      );
      return { events: data, meta: pageMetaSchema.parse(meta) };
    },
    placeholderData: keepPreviousData,
  });
}
