import { defaultPreferences, type Preferences } from '@haversack/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { preferencesKeys } from '../api/preferences-api';

/**
 * The signed-in user's preferences as the app last loaded them (PreferencesEffects keeps them loaded), for
 * code outside React such as the real-time channels; the defaults until they have arrived.
 */
export function currentPreferences(queryClient: QueryClient): Preferences {
  return queryClient.getQueryData<Preferences>(preferencesKeys.all) ?? defaultPreferences;
}
