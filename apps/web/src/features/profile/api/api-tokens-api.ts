import {
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  apiTokenCreatedSchema,
  apiTokenSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** The only source of API token cache keys (DESIGN §2). */
export const apiTokenKeys = {
  all: ['api-tokens'] as const,
  mine: () => [...apiTokenKeys.all, 'mine'] as const,
};

export function myApiTokensQuery() {
  return queryOptions({
    queryKey: apiTokenKeys.mine(),
    queryFn: async (): Promise<ApiToken[]> => {
      const { data } = await apiRequest(`${API_V1}/users/me/api_tokens`, {
        schema: z.array(apiTokenSchema),
        toast: false,
      });
      return data;
    },
  });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: ApiTokenCreate): Promise<ApiTokenCreated> => {
      const { data } = await apiRequest(`${API_V1}/users/me/api_tokens`, {
        method: 'POST',
        body: { api_token: form },
        schema: apiTokenCreatedSchema,
        // The dialog shows the refusal (plan, limit, fields) itself.
        toast: false,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.mine() }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(`${API_V1}/users/me/api_tokens/${id}`, { method: 'DELETE' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.mine() }),
  });
}
