import { type SignedInSession, signedInSessionSchema, signedOutOthersSchema } from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** The only source of signed-in device cache keys (DESIGN §2). */
export const signedInSessionKeys = {
  all: ['signed-in-sessions'] as const,
  mine: () => [...signedInSessionKeys.all, 'mine'] as const,
};

export function mySignedInSessionsQuery() {
  return queryOptions({
    queryKey: signedInSessionKeys.mine(),
    queryFn: async (): Promise<SignedInSession[]> => {
      const { data } = await apiRequest(`${API_V1}/users/me/sessions`, {
        schema: z.array(signedInSessionSchema),
        toast: false,
      });
      return data;
    },
    // A device signed in elsewhere a minute ago should show when the section is opened again.
    staleTime: 0,
  });
}

export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(`${API_V1}/users/me/sessions/${id}`, { method: 'DELETE' });
    },
    // Signed out meanwhile (404) or not: the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: signedInSessionKeys.mine() }),
  });
}

export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiRequest(`${API_V1}/users/me/sessions/sign_out_others`, {
        method: 'POST',
        schema: signedOutOthersSchema,
      });
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: signedInSessionKeys.mine() }),
  });
}
