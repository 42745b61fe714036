import {
  type Preferences,
  type PreferencesUpdateBody,
  preferencesResponseSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';

/** spec/01 §7: the preferences endpoints have no /api/v1 prefix. */
const PREFERENCES_PATH = '/users/preferences';

export const preferencesKeys = {
  all: ['preferences'] as const,
};

export function preferencesQueryOptions() {
  return queryOptions({
    queryKey: preferencesKeys.all,
    queryFn: async (): Promise<Preferences> => {
      const { data } = await apiRequest(PREFERENCES_PATH, {
        schema: preferencesResponseSchema,
        toast: false,
      });
      return data.preferences;
    },
    meta: { errorMessage: 'Failed to fetch preferences' },
  });
}

type PreferencesChange = PreferencesUpdateBody['preferences'];

/** Saves a partial change; the screen shows it at once and rolls back if the server refuses. */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  const { queryKey } = preferencesQueryOptions();
  return useMutation({
    mutationKey: [...preferencesKeys.all, 'update'],
    mutationFn: async (change: PreferencesChange): Promise<Preferences> => {
      const { data } = await apiRequest(PREFERENCES_PATH, {
        method: 'PUT',
        body: { preferences: change },
        schema: preferencesResponseSchema,
        toast: false,
      });
      return data.preferences;
    },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      if (previous) queryClient.setQueryData(queryKey, { ...previous, ...change });
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
      toast.error('Failed to update preferences');
    },
    onSuccess: (preferences) => {
      // With several quick changes in flight, only the last answer is the current state: an earlier one
      // would briefly undo the later optimistic change.
      if (queryClient.isMutating({ mutationKey: [...preferencesKeys.all, 'update'] }) <= 1) {
        queryClient.setQueryData(queryKey, preferences);
      }
    },
  });
}
