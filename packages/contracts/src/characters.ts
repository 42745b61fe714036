import { z } from 'zod';
import { entityId, hasVisibleText, inHundredths, nameText, numberInput, patchOf, text } from './fields.js';
import { containerSchema } from './inventory.js';
import { directionParam, includeParam, sortParam } from './list-params.js';
import { unwrapFilters } from './parties.js';

export const characterMessages = {
  alreadyInParty:
    'This character is already in a party: save it with no party first, then choose the new one.',
  nameRequired: 'Character name is required',
  assignmentsUpdated: 'Character assignments updated successfully',
  assignmentsFailed: 'Failed to update character assignments',
  notYourCharacter: 'You can only assign your own characters.',
  notPartyMember: 'You must be a member of that party to bring a character into it.',
  archivedParty: 'That party is archived.',
  carriesItemsIntoGmOnlyParty:
    'Only the GM adds items in that party, and this character carries some: empty its containers first, or ask the GM to let members add items while it joins.',
} as const;

/** spec/02 §5 Character create: the defaults. */
export const characterDefaults = {
  level: 1,
  max_weight: 50,
  max_slots: 20,
  race: '',
  character_class: '',
  notes: '',
  image_url: '',
};

const imageUrl = text()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), 'Image URL must start with http:// or https://');

export const characterFormSchema = z.object({
  name: nameText({ error: characterMessages.nameRequired })
    .trim()
    .min(1, characterMessages.nameRequired)
    .max(100, 'Character name must be at most 100 characters')
    .refine(hasVisibleText, characterMessages.nameRequired),
  race: text().trim().max(60).default(''),
  character_class: text().trim().max(60).default(''),
  level: numberInput(
    z
      .number({ error: 'Level must be a whole number' })
      .int('Level must be a whole number')
      .min(1, 'Level must be at least 1')
      .max(30, 'Level must be at most 30'),
  ).default(1),
  notes: text().max(5000).default(''),
  image_url: imageUrl.default(''),
  // Kept in hundredths: a finer limit would be rounded, 0.004 to 0, which means unlimited.
  max_weight: numberInput(
    z
      .number()
      .min(0, 'Max weight cannot be negative')
      // A character's capacity is its main container's: the same bounds as a container's own edit.
      .max(1_000_000, 'Max weight must be at most 1,000,000')
      .refine(inHundredths, 'Max weight can have at most 2 decimal places'),
  )
    .nullable()
    .default(50),
  max_slots: numberInput(
    z.number().int().min(0, 'Max slots cannot be negative').max(100_000, 'Max slots must be at most 100,000'),
  )
    .nullable()
    .default(20),
  party_id: entityId('Choose a party from the list').nullable().optional(),
});
export type CharacterForm = z.infer<typeof characterFormSchema>;
export const characterCreateBodySchema = z.object({ character: characterFormSchema });
export const characterUpdateBodySchema = z.object({ character: patchOf(characterFormSchema) });
export type CharacterUpdate = z.infer<typeof characterUpdateBodySchema>['character'];

export const characterSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  player_name: z.string().nullable(),
  name: z.string(),
  race: z.string(),
  character_class: z.string(),
  level: z.number().int(),
  notes: z.string(),
  image_url: z.string(),
  max_weight: z.number().nullable(),
  max_slots: z.number().int().nullable(),
  party_id: z.string().nullable(),
  party_name: z.string().nullable(),
  primary_container_id: z.string().nullable(),
  is_owner: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Character = z.infer<typeof characterSchema>;

/** spec/01 §3 `sort` keys of the character list; without `sort`, by name. */
export const characterSortKeys = [
  'name',
  'level',
  'race',
  'character_class',
  'created_at',
  'updated_at',
] as const;
export type CharacterSortKey = (typeof characterSortKeys)[number];
/** spec/01 §3 `include` of the character list: `containers` embeds each character's containers. */
export const characterIncludes = ['containers'] as const;

export const characterListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(10),
    search: text().trim().max(200).optional(),
    race: text().trim().max(60).optional(),
    character_class: text().trim().max(60).optional(),
    min_level: numberInput(z.number().int().min(1).max(30)).optional(),
    max_level: numberInput(z.number().int().min(1).max(30)).optional(),
    party_id: entityId('Party not found.').optional(),
    sort: sortParam(characterSortKeys).optional(),
    direction: directionParam.optional(),
    include: includeParam(characterIncludes).optional(),
  }),
);
export type CharacterListQuery = z.infer<typeof characterListQuerySchema>;

/** A character of the list; `containers` is there with `include=containers`. */
export const characterListItemSchema = characterSchema.extend({
  containers: z.array(containerSchema).optional(),
});
export type CharacterListItem = z.infer<typeof characterListItemSchema>;
