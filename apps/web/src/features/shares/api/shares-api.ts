import {
  type ShareCreate,
  type SharedSnapshot,
  type ShareLink,
  sharedSnapshotSchema,
  shareLinkSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';

/** The only source of share cache keys (DESIGN §2). */
export const shareKeys = {
  all: ['shares'] as const,
  mine: () => [...shareKeys.all, 'mine'] as const,
  snapshot: (code: string) => [...shareKeys.all, 'snapshot', code] as const,
};

/** A 404 (unknown or revoked code) will not change on a retry. */
const noRetryOnClientError = (failureCount: number, error: Error) =>
  failureCount < 1 && !(isApiError(error) && error.status < 500);

export function isShareNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** GET shares/{code}: public, read by anyone with the link, signed in or not. */
export function sharedSnapshotQuery(code: string) {
  return queryOptions({
    queryKey: shareKeys.snapshot(code),
    queryFn: async (): Promise<SharedSnapshot> => {
      const { data } = await apiRequest(`${API_V1}/shares/${encodeURIComponent(code)}`, {
        schema: sharedSnapshotSchema,
        toast: false,
      });
      return data;
    },
    retry: noRetryOnClientError,
  });
}

/** GET users/me/shares: the links I made and have not revoked. */
export function mySharesQuery() {
  return queryOptions({
    queryKey: shareKeys.mine(),
    queryFn: async (): Promise<ShareLink[]> => {
      const { data } = await apiRequest(`${API_V1}/users/me/shares`, {
        schema: z.array(shareLinkSchema),
        toast: false,
      });
      return data;
    },
  });
}

/** POST shares: a new link, or the one I already made for the same thing. */
export function useCreateShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (share: ShareCreate): Promise<ShareLink> => {
      const { data } = await apiRequest(`${API_V1}/shares`, {
        method: 'POST',
        body: { share },
        schema: shareLinkSchema,
        toast: false,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.mine() }),
  });
}

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(`${API_V1}/shares/${id}`, { method: 'DELETE' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
}
