import { z } from 'zod';

/**
 * spec/01 §3 Preferences, with their defaults. Issue 12: diceRollAnimation is gone (nothing in Haversack rolls
 * dice; a stored value is ignored) and sound effects start off (docs/decisions.md).
 */
export const preferencesSchema = z.object({
  theme: z.enum(['light', 'dark']),
  compactView: z.boolean(),
  notificationsEnabled: z.boolean(),
  soundEffects: z.boolean(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  theme: 'light',
  compactView: false,
  notificationsEnabled: true,
  soundEffects: false,
};

/** PUT /users/preferences takes any subset; unknown keys are dropped, wrong types refused. */
export const preferencesUpdateBodySchema = z.object({ preferences: preferencesSchema.partial() });
export type PreferencesUpdateBody = z.infer<typeof preferencesUpdateBodySchema>;

export const preferencesResponseSchema = z.object({ preferences: preferencesSchema });
