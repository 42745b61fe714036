import { ADMIN_SESSION_CHECK_MS } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** spec/01 §4, §7: the admin session is verified every 5 minutes. */
export function adminSessionQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'session'] as const,
    queryFn: async () => {
      await apiRequest(`${API_V1}/admin/sessions/verify`, { toast: false });
      return true;
    },
    refetchInterval: ADMIN_SESSION_CHECK_MS,
    staleTime: ADMIN_SESSION_CHECK_MS,
    retry: false,
  });
}
