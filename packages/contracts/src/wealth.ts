import { z } from 'zod';
import type { EncumbranceStyle } from './parties.js';
import { purseSchema } from './shops.js';

/**
 * Issue 12 §4 and §7: a character's purse (its coins across all its containers), its wealth (coins and
 * items, in copper) and its load against its `max_weight`; the party's table of all of them.
 */

/** The SRD's encumbrance levels (variant rule), plus past the most the character can carry. */
export const encumbranceLevels = [
  'unencumbered',
  'encumbered',
  'heavily_encumbered',
  'over_capacity',
] as const;
export type EncumbranceLevel = (typeof encumbranceLevels)[number];

export const encumbranceLabels: Record<EncumbranceLevel, string> = {
  unencumbered: 'Unencumbered',
  encumbered: 'Encumbered',
  heavily_encumbered: 'Heavily encumbered',
  over_capacity: 'Over capacity',
};

/** What each level means at the table (SRD variant encumbrance), for a tooltip or a line under the bar. */
export const encumbranceEffects: Record<EncumbranceLevel, string> = {
  unencumbered: 'No penalty.',
  encumbered: 'Speed drops by 10 feet.',
  heavily_encumbered:
    'Speed drops by 20 feet; disadvantage on Strength, Dexterity and Constitution checks, attacks and saves.',
  over_capacity: 'Carrying more than the character can: drop something to move.',
};

/**
 * The SRD variant rule puts encumbered past 5 × Strength and heavily encumbered past 10 × Strength, with a
 * carrying capacity of 15 × Strength. Characters here have no Strength score, so `max_weight` is read as the
 * carrying capacity and the thresholds are the same fractions of it: a third and two thirds.
 */
export const ENCUMBERED_FRACTION = 1 / 3;
export const HEAVILY_ENCUMBERED_FRACTION = 2 / 3;

/**
 * The encumbrance of a load, or null when weight is not tracked: no limit (`max_weight` null or 0), or the
 * party's encumbrance style counts slots only or nothing (DESIGN §4).
 */
export function encumbranceOf(
  carriedWeight: number,
  maxWeight: number | null,
  style: EncumbranceStyle | null,
): EncumbranceLevel | null {
  if (maxWeight === null || maxWeight <= 0) return null;
  if (style === 'slots' || style === 'none') return null;
  // A thousandth of a pound of slack, as the capacity check has, absorbs decimal rounding.
  const load = carriedWeight - 0.0005;
  if (load > maxWeight) return 'over_capacity';
  if (load > maxWeight * HEAVILY_ENCUMBERED_FRACTION) return 'heavily_encumbered';
  if (load > maxWeight * ENCUMBERED_FRACTION) return 'encumbered';
  return 'unencumbered';
}

/** What a holding is worth and weighs: a character's containers, or the party's own (the stash). */
export const holdingSchema = z.object({
  coins: purseSchema,
  coins_value_cp: z.number().int(),
  /** Every stack that is not a seeded coin, at its effective value (overrides included). */
  items_value_cp: z.number().int(),
  total_value_cp: z.number().int(),
  /** lbs, as its items weigh (roundLoadWeight); coins included (0.02 lb each). */
  carried_weight: z.number(),
});
export type Holding = z.infer<typeof holdingSchema>;

/** GET characters/{id}/wealth: every container of the character counts (containers are all carried). */
export const characterWealthSchema = holdingSchema.extend({
  character_id: z.string(),
  name: z.string(),
  user_id: z.string(),
  player_name: z.string().nullable(),
  is_owner: z.boolean(),
  /** null: no weight limit. */
  max_weight: z.number().nullable(),
  /** Whether the party's encumbrance style counts weight (no party: it does). */
  weight_tracked: z.boolean(),
  /** null when weight is not tracked or there is no limit. */
  encumbrance: z.enum(encumbranceLevels).nullable(),
});
export type CharacterWealth = z.infer<typeof characterWealthSchema>;

/** GET parties/{id}/wealth: every character of the party, the party's own containers, and the total. */
export const partyWealthSchema = z.object({
  characters: z.array(characterWealthSchema),
  /** The party's own containers (the stash); null when the party has none. */
  stash: holdingSchema.nullable(),
  /** Characters and stash together. */
  totals: holdingSchema,
});
export type PartyWealth = z.infer<typeof partyWealthSchema>;
