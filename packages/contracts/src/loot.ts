import { z } from 'zod';
import { pageMetaSchema } from './envelope.js';
import { entityId, hasVisibleText, nameText, numberInput, tagText, text } from './fields.js';
import { currencies, itemInstanceSchema, MAX_STACK_QUANTITY } from './inventory.js';
import { itemTemplateSchema, normaliseTags, templateVisibilities } from './items.js';
import { unwrapFilters } from './parties.js';

// ---------------------------------------------------------------------------------------------------
// Words of the spec (spec/02 §2 party Loot tab, §4, §6, §8 loot toasts), then ours
// ---------------------------------------------------------------------------------------------------

export const lootMessages = {
  partyLootHeading: 'Party Loot',
  partyLootSubtitle: 'Manage loot instances for your party.',
  browseTemplates: 'Browse Loot Templates',
  deployTemplate: 'Deploy Loot Template',
  noPartyLoot: 'No loot instances in this party yet',
  hiddenBadge: 'Hidden',
  revealedBadge: 'Revealed',
  notRevealed: 'This loot has not been revealed yet',
  viewContents: 'View Loot Contents',
  revealTitle: 'Reveal to players',
  hideTitle: 'Hide from players',
  confirmDelete: 'Are you sure you want to delete this loot instance? This cannot be undone.',
  deployed: 'Loot deployed to party',
  revealed: 'Loot revealed to party',
  hidden: 'Loot hidden from party',
  deleted: 'Loot instance deleted',
  claimed: 'Item claimed successfully',
  distributed: 'Loot distributed successfully',
  deployFailed: 'Failed to deploy loot',
  revealFailed: 'Failed to reveal loot',
  hideFailed: 'Failed to hide loot',
  deleteFailed: 'Failed to delete loot instance',
  claimFailed: 'Failed to claim item',
  distributeFailed: 'Failed to distribute loot',
  alreadyDistributed: 'This loot has already been distributed.',
  // Ours (the spec leaves them open).
  nameRequired: 'Loot name is required',
  nameTooLong: 'Loot name must be less than 100 characters',
  templateNotFound: 'Loot template not found.',
  instanceNotFound: 'Loot not found.',
  lootItemNotFound: 'Loot item not found.',
  notOwner: 'Only the creator of this loot template can change it.',
  systemTemplate: 'Catalogue loot cannot be changed. Duplicate it to make your own version.',
  created: 'Loot template created successfully',
  templateUpdated: 'Loot template updated successfully',
  duplicated: 'Loot template duplicated',
  updated: 'Loot updated',
  taken: 'Item taken successfully',
  /** spec/02 §8 names only the claim's failure ("Failed to claim item"); a take's says take. */
  takeFailed: 'Failed to take item',
  previewed: 'This is who would get what. Nothing has moved yet.',
  cannotTake: 'You need a character in this party to take loot.',
  /** DESIGN §4: observers only read, whatever characters they have in the party. */
  observerCannotTake: 'Observers cannot take loot.',
  notInLoot: 'That item is not in this loot.',
  alreadyTaken: 'Someone has already taken that item.',
  onlyLeft: (n: number) => `Only ${n} left in this loot.`,
  characterNotInParty: 'Choose a character in this party.',
  notYourCharacter: 'Choose one of your characters in this party.',
  containerNotCharacters: 'Choose a container of one of your characters in this party.',
  nothingToDistribute: 'There is nothing left in this loot to distribute.',
  revealBeforeDistributing: 'Reveal this loot to the party before distributing it.',
  noStashForOverflow: (name: string) =>
    `${name} has no room for this and the party has no stash to take it instead.`,
  itemOrCoins: 'Choose an item or a kind of coin',
  itemDoesNotExist: 'That item does not exist.',
  tooManyItems: 'A loot template holds at most 200 different items',
  archivedParty: 'This party is archived: its loot is read-only.',
  changedSincePreview: 'The loot changed since your preview: preview again.',
  changedWhileOpen: 'The loot changed since your preview: here is the updated one.',
  /** A distribution or preview found the loot locked by another change (409; it does not wait for it). */
  lootBusy: 'This loot is being distributed or changed right now. Try again in a moment.',
  /** A second distribution or preview of the same user's while their first is still running (429). */
  distributionRunning: 'Your last distribution is still running. Try again when it has finished.',
  /** Hiding loot that someone has taken or claimed from (409): spec/02 §6 would hide their history. */
  takenCannotHide:
    'Items have already been taken from this loot, so it cannot be hidden: the party keeps the record of who got what.',
  unpriced: 'Unpriced',
  /** The note of a distribution's ledger row whose share went to the party stash. */
  shareInStash: (name: string) => `${name}'s share, kept in the party stash: no room with ${name}.`,
} as const;

/** What kind of find a loot template is (our list; spec/02 §3 names the `source_type` filter only). */
export const lootSourceTypes = ['monster', 'hoard', 'container', 'quest', 'encounter', 'custom'] as const;
export type LootSourceType = (typeof lootSourceTypes)[number];
export const lootSourceTypeNames: Record<LootSourceType, string> = {
  monster: 'Monster',
  hoard: 'Treasure Hoard',
  container: 'Chest or Container',
  quest: 'Quest Reward',
  encounter: 'Encounter',
  custom: 'Custom',
};

/** DESIGN §4 distribution modes. */
export const distributionModes = ['even', 'by_value', 'random'] as const;
export type DistributionMode = (typeof distributionModes)[number];

/** The most different items (lines) one loot template holds. */
export const MAX_LOOT_ITEMS = 200;
/** The most characters one distribution shares among. */
export const MAX_DISTRIBUTION_RECIPIENTS = 50;

// ---------------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------------

const shortText = (max: number) =>
  text({ error: 'Must be text' }).trim().max(max, `Must be at most ${max} characters`);

const booleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

const lootName = nameText({ error: lootMessages.nameRequired })
  .trim()
  .min(1, lootMessages.nameRequired)
  .max(99, lootMessages.nameTooLong)
  .refine(hasVisibleText, lootMessages.nameRequired);

const tagList = z
  .union([z.array(tagText()).max(30), text().max(2000)], {
    error: 'Tags must be a list of words or a comma-separated string',
  })
  .transform(normaliseTags)
  .pipe(z.array(tagText()).max(30, 'At most 30 tags'));

const lootQuantity = numberInput(
  z
    .number({ error: 'Quantity must be a whole number' })
    .min(1, { error: 'Quantity must be at least 1', abort: true })
    .max(MAX_STACK_QUANTITY, { error: 'Quantity can be at most 10,000,000', abort: true })
    // Bounds first: a number past them is refused for that alone (2^53 is whole, but not safe).
    .int('Quantity must be a whole number'),
);

const wrapped = <T extends z.ZodType>(key: string, schema: T) =>
  z.preprocess(
    (body) =>
      body && typeof body === 'object' && key in body ? (body as Record<string, unknown>)[key] : body,
    schema,
  );

const lootTemplateFields = {
  name: lootName,
  description: shortText(5000),
  source_type: z.enum(lootSourceTypes, { error: 'Choose a source type' }),
  /** Who or what carried it ("Goblin boss"); deployed loot starts with it as its `source`. */
  source: shortText(100),
  tag_list: tagList,
  visibility: z.enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' }),
};

/** spec/02 §7 POST loot_templates {loot_template}. */
export const lootTemplateFormSchema = z.object({
  name: lootTemplateFields.name,
  description: lootTemplateFields.description.default(''),
  source_type: lootTemplateFields.source_type.default('custom'),
  source: lootTemplateFields.source.default(''),
  tag_list: lootTemplateFields.tag_list.default([]),
  visibility: lootTemplateFields.visibility.default('private'),
});
export type LootTemplateForm = z.infer<typeof lootTemplateFormSchema>;
export const lootTemplateCreateBodySchema = z.object({ loot_template: lootTemplateFormSchema });

export const lootTemplateUpdateSchema = z.object({
  name: lootTemplateFields.name.optional(),
  description: lootTemplateFields.description.optional(),
  source_type: lootTemplateFields.source_type.optional(),
  source: lootTemplateFields.source.optional(),
  tag_list: lootTemplateFields.tag_list.optional(),
  visibility: lootTemplateFields.visibility.optional(),
});
export type LootTemplateUpdate = z.infer<typeof lootTemplateUpdateSchema>;
export const lootTemplateUpdateBodySchema = z.object({ loot_template: lootTemplateUpdateSchema });

/**
 * A loot item: an item template with a quantity, or a number of coins of one denomination (the seeded
 * coin templates, DESIGN §4). Exactly one of `item_template_id` and `currency`.
 */
export const lootItemFormSchema = z
  .object({
    item_template_id: entityId('Choose an item').optional(),
    currency: z.enum(currencies, { error: 'Currency must be one of cp, sp, ep, gp or pp' }).optional(),
    quantity: lootQuantity.default(1),
  })
  .superRefine((value, ctx) => {
    if ((value.item_template_id === undefined) === (value.currency === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['item_template_id'], message: lootMessages.itemOrCoins });
    }
  });
export type LootItemForm = z.infer<typeof lootItemFormSchema>;
/** Accepts {loot_item: {...}} or the fields bare. */
export const lootItemCreateBodySchema = wrapped('loot_item', lootItemFormSchema);
export const lootItemUpdateSchema = z.object({ quantity: lootQuantity });
export const lootItemUpdateBodySchema = wrapped('loot_item', lootItemUpdateSchema);

const instanceDataInput = z.object({ location_name: shortText(100).nullable().optional() }).strip();

/** spec/02 §7 POST loot_instances {loot_instance: loot_template_id plus party fields}. Always hidden at first. */
export const lootInstanceCreateSchema = z.object({
  loot_template_id: entityId('Choose a loot template'),
  party_id: entityId('Choose a party'),
  name: lootName.optional(),
  description: shortText(5000).optional(),
  source: shortText(100).optional(),
  /** spec/02 §2: shown from instance_data; accepted bare or inside instance_data. */
  location_name: shortText(100).nullable().optional(),
  instance_data: instanceDataInput.optional(),
});
export type LootInstanceCreate = z.infer<typeof lootInstanceCreateSchema>;
export const lootInstanceCreateBodySchema = z.object({ loot_instance: lootInstanceCreateSchema });

/** spec/02 §4: hiding is PATCH is_revealed false. */
export const lootInstanceUpdateSchema = z.object({
  name: lootName.optional(),
  description: shortText(5000).optional(),
  source: shortText(100).optional(),
  location_name: shortText(100).nullable().optional(),
  instance_data: instanceDataInput.optional(),
  is_revealed: z.boolean({ error: 'is_revealed must be true or false' }).optional(),
});
export type LootInstanceUpdate = z.infer<typeof lootInstanceUpdateSchema>;
export const lootInstanceUpdateBodySchema = z.object({ loot_instance: lootInstanceUpdateSchema });

/**
 * spec/02 §3 Claim: a whole line of identical stacks (`lootLineKey`, as the loot page lists them) to a
 * character (its main container).
 */
export const lootClaimSchema = z.object({
  item_instance_id: entityId('Choose an item'),
  character_id: entityId('Choose a character'),
});
export type LootClaim = z.infer<typeof lootClaimSchema>;
export const lootClaimBodySchema = z.object({ claim: lootClaimSchema });

/** spec/02 §7 take {item_instance_id, target_container_id, quantity}: bare, or wrapped as {take}. */
export const lootTakeSchema = z.object({
  item_instance_id: entityId('Choose an item'),
  target_container_id: entityId('Please select a destination'),
  quantity: lootQuantity.optional(),
});
export type LootTake = z.infer<typeof lootTakeSchema>;
export const lootTakeBodySchema = wrapped('take', lootTakeSchema);

/** spec/02 §3 Distribute: character_ids, distribution_mode; `preview` answers without moving anything. */
export const lootDistributeSchema = z.object({
  character_ids: z
    .array(entityId('Choose characters of this party'), { error: 'Choose the characters to share with' })
    .min(1, 'Choose at least one character')
    .max(MAX_DISTRIBUTION_RECIPIENTS, 'Share among at most 50 characters')
    .refine((ids) => new Set(ids).size === ids.length, 'Choose each character once'),
  distribution_mode: z
    .enum(distributionModes, { error: 'Distribution mode must be even, by_value or random' })
    .default('even'),
  preview: z.boolean({ error: 'preview must be true or false' }).default(false),
  /** Makes `random` repeatable: a preview's seed, sent back, gives the same draw. */
  seed: numberInput(
    z
      .number({ error: 'Seed must be a number' })
      .int('Seed must be a whole number')
      .min(0, 'Seed cannot be negative')
      .max(2_147_483_647, 'Seed must be below 2^31'),
  ).optional(),
  /**
   * The `contents_fingerprint` of the preview being confirmed: when the loot's contents differ now, the
   * distribution is refused (409) and nothing moves. Without it (API callers), it goes ahead as it is.
   */
  contents_fingerprint: z
    .string({ error: 'contents_fingerprint must be text' })
    .regex(/^[0-9a-f]{1,32}$/, 'contents_fingerprint must be the one a preview gave')
    .optional(),
});
export type LootDistribute = z.infer<typeof lootDistributeSchema>;
export const lootDistributeBodySchema = z.object({ distribute: lootDistributeSchema });

// ---------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------

export const lootSortKeys = ['name', 'created_at', 'updated_at', 'value'] as const;
const includeQuery = z
  .union([text().max(200), z.array(text().max(50)).max(10)])
  .transform((v) =>
    (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s.length > 0),
  )
  .pipe(z.array(z.enum(['loot_items'], { error: 'include takes loot_items' })));
const tagsQuery = z
  .union([text().max(1000), z.array(text().max(60)).max(20)], { error: 'Tags must be comma-separated' })
  .transform(normaliseTags);

/**
 * spec/02 §7 GET loot_templates: filters visibility, tag, source_type, creator_id; sort; pagination.
 * Without `visibility`: my templates and every public one. `sort`/`direction` and `sort_by`/`sort_order`
 * are synonyms; default name ascending.
 */
export const lootTemplateListQuerySchema = z.preprocess(
  unwrapFilters,
  z
    .object({
      page: numberInput(z.number().int().min(1)).default(1),
      per_page: numberInput(z.number().int().min(1).max(100)).default(20),
      search: shortText(200).optional(),
      visibility: z
        .enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' })
        .optional(),
      tag: tagsQuery.optional(),
      tags: tagsQuery.optional(),
      source_type: z.enum(lootSourceTypes, { error: 'Unknown source type' }).optional(),
      creator_id: entityId('creator_id must be a user id').optional(),
      mine: booleanQuery.optional(),
      sort: z.enum(lootSortKeys).optional(),
      sort_by: z.enum(lootSortKeys).optional(),
      direction: z.enum(['asc', 'desc']).optional(),
      sort_order: z.enum(['asc', 'desc']).optional(),
      include: includeQuery.optional(),
    })
    .transform(({ sort, sort_by, direction, sort_order, tag, tags, ...rest }) => ({
      ...rest,
      tags: [...new Set([...(tag ?? []), ...(tags ?? [])])],
      sort: sort_by ?? sort ?? ('name' as const),
      direction: sort_order ?? direction ?? ('asc' as const),
    })),
);
export type LootTemplateListQuery = z.infer<typeof lootTemplateListQuerySchema>;

/** GET parties/{id}/loot_instances: the GM sees every one, other members only revealed ones. */
export const lootInstanceListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(20),
    search: shortText(200).optional(),
    is_revealed: booleanQuery.optional(),
  }),
);
export type LootInstanceListQuery = z.infer<typeof lootInstanceListQuerySchema>;

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

export const lootItemSchema = z.object({
  id: z.string(),
  loot_template_id: z.string(),
  item_template_id: z.string(),
  /**
   * Null when the item template is private to someone other than the reader: it exists only for its
   * creator, so neither its fields nor its worth are told (the values are null too, `available` false, and
   * the template's `total_value_cp` leaves the line out).
   */
  item_template: itemTemplateSchema.nullable(),
  quantity: z.number().int(),
  /** Which of the seeded coins this line is, else null. */
  coin: z.enum(currencies).nullable(),
  value_cp: z.number().int().nullable(),
  total_value_cp: z.number().int().nullable(),
  /** False once its item template is deleted, or private to someone else: deploying leaves the line out. */
  available: z.boolean(),
});
export type LootItem = z.infer<typeof lootItemSchema>;

export const lootTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source_type: z.enum(lootSourceTypes),
  source_type_name: z.string(),
  source: z.string(),
  tag_list: z.array(z.string()),
  visibility: z.enum(templateVisibilities),
  /** Its lines (the kinds of items, coins too). */
  items_count: z.number().int(),
  /**
   * The items it deploys by the unit, coins left out (they are in `total_value_cp`): what the card of a
   * loot deployed from it counts, so both say "2 items and 22 coins · 3 gp 8 cp".
   */
  item_units: z.number().int(),
  /** The coins it deploys, by the piece (18 cp and 4 sp are 22): named beside the items ("2 items and 22 coins"). */
  coin_units: z.number().int(),
  total_value_cp: z.number().int(),
  /** With include=loot_items, and always on the detail. */
  loot_items: z.array(lootItemSchema).optional(),
  creator_id: z.string().nullable(),
  creator_name: z.string().nullable(),
  is_system: z.boolean(),
  is_owner: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LootTemplate = z.infer<typeof lootTemplateSchema>;

export const lootTemplateListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(lootTemplateSchema),
  meta: pageMetaSchema,
  message: z.string().optional(),
});

const named = z.object({ id: z.string(), name: z.string() });

/**
 * spec/02 §3 Loot instance, as the party's list shows it (spec/02 §2 loot card; §7: the detail has the
 * container's item_instances): everything but its stacks, with what its card counts. A year of play put
 * 200 piles in a party; their stacks in the list were 3.1 MB for 100.
 */
export const lootInstanceSummarySchema = z.object({
  id: z.string(),
  loot_template_id: z.string().nullable(),
  loot_template: named.nullable(),
  party_id: z.string(),
  party: named,
  name: z.string(),
  description: z.string(),
  source: z.string(),
  source_type: z.enum(lootSourceTypes),
  is_revealed: z.boolean(),
  revealed_at: z.string().nullable(),
  instance_data: z.object({ location_name: z.string().nullable() }),
  /** The characters that have claimed, taken or been dealt something from it, from the ledger. */
  claimed_by: z.array(named),
  distributed_at: z.string().nullable(),
  distribution_mode: z.enum(distributionModes).nullable(),
  container: z.object({ id: z.string(), name: z.string() }),
  /** Its kinds of items (coins too). */
  items_count: z.number().int(),
  /** Its items by the unit, coins left out (they are in `total_value_cp`), as a loot template counts them. */
  item_units: z.number().int(),
  /** Its coins by the piece (18 cp and 4 sp are 22). */
  coin_units: z.number().int(),
  total_value_cp: z.number().int(),
  /** The GM: reveal, hide, edit, distribute, delete. */
  can_manage: z.boolean(),
  /** Members with a character (not observers), on revealed loot: take and claim. */
  can_take: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LootInstanceSummary = z.infer<typeof lootInstanceSummarySchema>;

/** One loot with its stacks: GET loot_instances/{id} (spec/02 §7 "detail has container with item_instances"). */
export const lootInstanceSchema = lootInstanceSummarySchema.extend({
  container: z.object({ id: z.string(), name: z.string(), item_instances: z.array(itemInstanceSchema) }),
});
export type LootInstance = z.infer<typeof lootInstanceSchema>;

export const lootInstanceListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(lootInstanceSummarySchema),
  meta: pageMetaSchema,
});

export const lootTakeResultSchema = z.object({
  kind: z.enum(['take', 'claim']),
  message: z.string(),
  loot_instance_id: z.string(),
  quantity: z.number().int(),
  /** The stacks the items arrived in. */
  item_instances: z.array(itemInstanceSchema),
  transaction_ids: z.array(z.string()),
});
export type LootTakeResult = z.infer<typeof lootTakeResultSchema>;

const purse = z.object({
  cp: z.number().int(),
  sp: z.number().int(),
  ep: z.number().int(),
  gp: z.number().int(),
  pp: z.number().int(),
});

export const lootDistributionSchema = z.object({
  loot_instance_id: z.string(),
  preview: z.boolean(),
  distribution_mode: z.enum(distributionModes),
  /** Send it back with the confirmation to get the same random draw. */
  seed: z.number().int(),
  recipients: z.array(
    z.object({
      character_id: z.string(),
      name: z.string(),
      value_cp: z.number().int(),
      items: z.array(
        z.object({
          item_template_id: z.string(),
          name: z.string(),
          quantity: z.number().int(),
          value_cp: z.number().int(),
          coin: z.enum(currencies).nullable(),
          /** The character's container, or the party stash when theirs is full. */
          destination: z.enum(['character', 'party_stash']),
          container_id: z.string(),
          container_name: z.string(),
        }),
      ),
    }),
  ),
  /** Coins changed inside the loot so that an even split comes out to the copper. */
  conversion: z.object({ taken: purse, made: purse }).nullable(),
  /** True when anything goes to the party stash because a character's container is full. */
  overflow: z.boolean(),
  total_value_cp: z.number().int(),
  /** What the loot held when this was worked out (`lootContentsFingerprint`): send it back to confirm. */
  contents_fingerprint: z.string(),
  transaction_ids: z.array(z.string()),
});
export type LootDistribution = z.infer<typeof lootDistributionSchema>;

/**
 * A short fingerprint of what a loot holds: its stacks and their quantities, in any order. A loot's
 * contents change only by deploy, take, claim and distribute (its stacks' overrides never change), so
 * these say whether it still holds what a distribution preview answered. Shared so that the server and
 * the loot's page (its `container.item_instances`) compute the same one. Not a security hash.
 */
export function lootContentsFingerprint(stacks: ReadonlyArray<{ id: string; quantity: number }>): string {
  const text = stacks
    .map((s) => `${s.id.toLowerCase()}:${s.quantity}`)
    .sort()
    .join(',');
  // cyrb53 (public domain): 53 bits of a fast, well-mixed string hash, as 14 hex digits.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * Issue 11 §8 GET parties/{id}/loot_summary: what each character of the party has received from loot so
 * far (takes, claims, distributions and shares of split sales), every character listed, 0 included.
 */
export const lootSummaryEntrySchema = z.object({
  character_id: z.string(),
  name: z.string(),
  /** Copper: items at their value when received, coins at their value. */
  value_cp: z.number().int(),
  /** Items received from loot, coins not counted. */
  items_count: z.number().int(),
});
export type LootSummaryEntry = z.infer<typeof lootSummaryEntrySchema>;
export const lootSummarySchema = z.array(lootSummaryEntrySchema);
export type LootSummary = z.infer<typeof lootSummarySchema>;
