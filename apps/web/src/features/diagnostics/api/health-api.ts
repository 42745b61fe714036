import { healthSchema } from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';

export function healthQueryOptions() {
  return queryOptions({
    queryKey: ['health'] as const,
    queryFn: async () => {
      const { data } = await apiRequest(`${API_V1}/health`, {
        schema: healthSchema,
        auth: false,
        toast: false,
      });
      return data;
    },
    staleTime: 0,
    retry: false,
  });
}
