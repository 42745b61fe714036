import {
  type AuditLogFilter,
  auditLogActionsSchema,
  auditLogEntrySchema,
  pageMetaSchema,
} from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1 } from '../../../lib/http-client';
import { saveBlob } from '../../../lib/save-blob';
import { adminDownload, adminRequest } from './admin-request';

export const AUDIT_LOGS_PER_PAGE = 25;

export interface AuditLogSearch extends AuditLogFilter {
  page: number;
}

function searchString(filter: AuditLogFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value.trim() !== '') params.set(key, value.trim());
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

export function auditLogsQueryOptions(search: AuditLogSearch) {
  const { page, ...filter } = search;
  return queryOptions({
    queryKey: ['admin', 'audit-logs', filter, page] as const,
    queryFn: async ({ signal }) => {
      const response = await adminRequest(
        `${API_V1}/admin/audit_logs?${searchString(filter, { page: String(page), per_page: String(AUDIT_LOGS_PER_PAGE) })}`,
        { schema: z.array(auditLogEntrySchema), signal, toast: false },
      );
      return { entries: response.data, meta: pageMetaSchema.parse(response.meta) };
    },
    placeholderData: keepPreviousData,
  });
}

export function auditLogActionsQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'audit-logs', 'actions'] as const,
    queryFn: async () =>
      (
        await adminRequest(`${API_V1}/admin/audit_logs/actions`, {
          schema: auditLogActionsSchema,
          toast: false,
        })
      ).data.actions,
  });
}

/** Downloads the filtered log as CSV; answers the file name and whether the server cut it short. */
export async function exportAuditLogCsv(
  filter: AuditLogFilter,
): Promise<{ filename: string; truncated: boolean }> {
  const { blob, filename, headers } = await adminDownload(
    `${API_V1}/admin/audit_logs/export?${searchString(filter)}`,
  );
  const name = filename ?? 'haversack-audit-log.csv';
  saveBlob(blob, name);
  return { filename: name, truncated: headers.get('x-export-truncated') === 'true' };
}
