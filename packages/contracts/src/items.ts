import { z } from 'zod';
import { pageMetaSchema } from './envelope.js';
import { checkJsonField, hasVisibleText, nameText, numberInput, tagText, text } from './fields.js';
import {
  type Currency,
  copperPer,
  currencies,
  itemWeightInput,
  MAX_ITEM_VALUE,
  MAX_STACK_QUANTITY,
} from './inventory.js';
import { formatEnUs, isSaturated } from './numbers.js';
import { unwrapFilters } from './parties.js';

export const itemTemplateMessages = {
  valueRaiseGmOnly:
    'Items made from this template are in a party where only the GM adds items: its value cannot be raised.',
  heldByOthers:
    'Other players hold items made from this template: its name, description, weight, value, stack size and details cannot change under them. Duplicate it and change the copy.',
  weightOverCapacity: (template: string, container: string) =>
    `${container} cannot carry its ${template} at that weight: lighten its load first.`,
  heldByOthersTags:
    'Other players hold items made from this template: its currency, category, magic and attunement tags cannot change under them. Duplicate it and change the copy.',
  heldByOthersPrivate:
    'Other players hold items made from this template: it cannot become private. Make it unlisted to take it off the marketplace.',
  /** DESIGN §4: a stack never holds more than stack_size, so the size cannot fall below a stack made already. */
  stackSizeBelowLargestStack: (name: string, largestStack: number) => {
    const largest = largestStack.toLocaleString('en-US');
    return `A stack of ${name} holds ${largest} now: choose a stack size of at least ${largest}, or split the stacks first.`;
  },
  nameRequired: 'Template name is required',
  created: 'Item template created successfully',
  createFailed: 'Failed to create item template',
  updated: 'Item template updated successfully',
  deleted: 'Item template deleted',
  duplicated: 'Item template duplicated',
  notFound: 'Item template not found.',
  notOwner: 'Only the creator of this item template can change it.',
  systemTemplate: 'Catalogue templates cannot be changed. Duplicate it to make your own version.',
  searchPublicOnly: 'Only public item templates can be searched',
  /** What a shop or loot template's line is called when its item is private to someone else. */
  privateItem: 'Private item',
} as const;

export const templateVisibilities = ['private', 'unlisted', 'public'] as const;
export type TemplateVisibility = (typeof templateVisibilities)[number];

/** spec/02 §3: a tag starting with `category:` gives the category; the tag `currency` marks coins. */
export const CATEGORY_TAG_PREFIX = 'category:';
export const CURRENCY_TAG = 'currency';

/** DESIGN §4: the five seeded coin templates carry the system key `coin:<currency>`. */
const COIN_SYSTEM_KEY_PREFIX = 'coin:';

export function coinSystemKey(currency: Currency): string {
  return `${COIN_SYSTEM_KEY_PREFIX}${currency}`;
}

/** Which seeded coin a template is, by its system key; null for every other template. */
export function coinOfSystemKey(systemKey: string | null | undefined): Currency | null {
  if (!systemKey?.startsWith(COIN_SYSTEM_KEY_PREFIX)) return null;
  const code = systemKey.slice(COIN_SYSTEM_KEY_PREFIX.length);
  return currencies.find((currency) => currency === code) ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Money (DESIGN §4: every price is computed in copper, never as a float)
// ---------------------------------------------------------------------------------------------------

/** A template's value in copper: `base_value` is an integer in the template's own currency. */
export function copperValue(baseValue: number, currency: Currency): number {
  if (!Number.isInteger(baseValue)) throw new RangeError(`base_value must be an integer, got ${baseValue}`);
  return baseValue * copperPer[currency];
}

/** A gp amount typed by a person (a filter such as min_value=0.5) in whole copper. */
export function gpToCopper(gp: number): number {
  return Math.round(gp * copperPer.gp);
}

/**
 * spec/02 §3: totals are shown in gp with no decimals. Whole gp only (rounded down, as a purse holds no
 * fraction of a gold coin), grouped by thousands: 123456 cp → "1,234 gp".
 */
export function formatGp(copper: number): string {
  const gp = Math.floor(copper / copperPer.gp);
  // A sum at MAX_REPORTED_SUM was clamped there: the true worth is at least that.
  return `${formatEnUs(gp)}${isSaturated(copper) ? '+' : ''} gp`;
}

/**
 * A stack's worth as a player counts it: whole gp from one gold piece up (formatGp), and below that in
 * silver or copper, so that 50 cp or a handful of darts never read "0 gp".
 */
export function formatStackValue(copper: number): string {
  if (copper <= 0 || copper >= copperPer.gp) return formatGp(copper);
  if (copper % copperPer.sp === 0) return `${copper / copperPer.sp} sp`;
  return `${copper} cp`;
}

/**
 * A price or an amount as the SRD's equipment tables write them, in gold, silver and copper: 1234 cp →
 * "12 gp 3 sp 4 cp", 150000 cp → "1,500 gp"; "0 cp" for nothing. No platinum, so that prices read at a
 * glance against each other and against a purse counted in gp ("7 pp 5 gp" for chain mail did not).
 */
export function formatCopper(copper: number): string {
  if (copper === 0) return '0 cp';
  // A clamped sum's last silver and copper mean nothing: "90,071,992,547,409+ gp".
  if (isSaturated(copper)) return formatGp(copper);
  const parts: [number, Currency][] = [
    [Math.floor(copper / copperPer.gp), 'gp'],
    [Math.floor((copper % copperPer.gp) / copperPer.sp), 'sp'],
    [copper % copperPer.sp, 'cp'],
  ];
  return parts
    .filter(([count]) => count > 0)
    .map(([count, coin]) => `${formatEnUs(count)} ${coin}`)
    .join(' ');
}

/**
 * One stack's worth on its tile and sheet, to the copper: three rations read "1 gp 5 sp", not the "1 gp"
 * that totals round to; nothing is "0 gp", as totals say it.
 */
export function formatStackWorth(copper: number): string {
  return copper > 0 ? formatCopper(copper) : formatGp(0);
}

// ---------------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------------

/** spec/02 §3 "metadata (currency default gold)": the names of the coins are accepted for the codes. */
const currencyNames: Record<string, Currency> = {
  copper: 'cp',
  silver: 'sp',
  electrum: 'ep',
  gold: 'gp',
  platinum: 'pp',
};
const currencyInput = z.preprocess(
  (v) => (typeof v === 'string' ? (currencyNames[v.trim().toLowerCase()] ?? v.trim().toLowerCase()) : v),
  z.enum(currencies, { error: 'Currency must be one of cp, sp, ep, gp or pp' }),
);

/** Tags are kept trimmed, lower-case and unique, so that filtering by tag is exact. */
export function normaliseTags(input: string | readonly string[]): string[] {
  const raw = typeof input === 'string' ? input.split(',') : input;
  const tags = raw.map((t) => t.trim().toLowerCase().normalize('NFC')).filter((t) => t.length > 0);
  return [...new Set(tags)];
}

/** spec/02 §3 "tags (entered comma-separated)": an array of strings or one comma-separated string. */
// The list is not capped before it is normalised: 51 tags are told "at most 50 tags", not "a list of words".
const tagsInput = z
  .union([z.array(tagText()), text().max(2000)], {
    error: 'Tags must be a list of words or a comma-separated string',
  })
  .transform(normaliseTags)
  .pipe(z.array(tagText()).max(50, 'A template can have at most 50 tags'));

export const itemTemplateMetadataSchema = z
  .looseObject({
    rarity: text().trim().max(40).nullable().optional(),
    category: text().trim().max(60).nullable().optional(),
    currency: currencyInput.optional(),
    requires_attunement: z.boolean().optional(),
  })
  // Free keys may hold any JSON: capped in depth and size, every string in it safe text.
  .superRefine(checkJsonField({ maxChars: 10_000, tooLarge: 'Metadata is too large' }));

const templateFields = {
  name: nameText({ error: itemTemplateMessages.nameRequired })
    .trim()
    .min(1, itemTemplateMessages.nameRequired)
    .max(200, 'Template name must be at most 200 characters')
    .refine(hasVisibleText, itemTemplateMessages.nameRequired),
  description: text({ error: 'Description must be text' }).max(
    10_000,
    'Description must be at most 10,000 characters',
  ),
  weight: itemWeightInput(),
  base_value: numberInput(
    z
      .number({ error: 'Value must be a number' })
      .int('Value must be a whole number')
      .min(0, 'Value cannot be negative')
      .max(MAX_ITEM_VALUE, 'Value can be at most 900,000'),
  ),
  currency: currencyInput,
  visibility: z.enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' }),
  stack_size: numberInput(
    z
      .number({ error: 'Stack size must be a number' })
      .int('Stack size must be a whole number')
      .min(0, 'Stack size cannot be negative (0 means unlimited)')
      .max(MAX_STACK_QUANTITY, 'Stack size can be at most 10,000,000'),
  ),
  metadata: itemTemplateMetadataSchema,
  tags: tagsInput,
};

/** spec/02 §3 Item template, as a person creates it. `metadata.currency` stands in for `currency`. */
export const itemTemplateFormSchema = z
  .object({
    name: templateFields.name,
    description: templateFields.description.default(''),
    weight: templateFields.weight.default(0),
    base_value: templateFields.base_value.default(0),
    currency: templateFields.currency.optional(),
    visibility: templateFields.visibility.default('private'),
    stack_size: templateFields.stack_size.default(1),
    metadata: templateFields.metadata.default({}),
    tags: templateFields.tags.default([]),
  })
  .transform(({ currency, ...form }) => ({
    ...form,
    currency: currency ?? form.metadata.currency ?? ('gp' as Currency),
  }));
export type ItemTemplateForm = z.infer<typeof itemTemplateFormSchema>;
export const itemTemplateCreateBodySchema = z.object({ item_template: itemTemplateFormSchema });

/** PUT and PATCH change only the fields sent; no defaults are applied. */
export const itemTemplateUpdateSchema = z.object({
  name: templateFields.name.optional(),
  description: templateFields.description.optional(),
  weight: templateFields.weight.optional(),
  base_value: templateFields.base_value.optional(),
  currency: templateFields.currency.optional(),
  visibility: templateFields.visibility.optional(),
  stack_size: templateFields.stack_size.optional(),
  metadata: templateFields.metadata.optional(),
  tags: templateFields.tags.optional(),
});
export type ItemTemplateUpdate = z.infer<typeof itemTemplateUpdateSchema>;
export const itemTemplateUpdateBodySchema = z.object({ item_template: itemTemplateUpdateSchema });

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

export const itemTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  weight: z.number(),
  base_value: z.number().int(),
  currency: z.enum(currencies),
  /** The value in copper (DESIGN §4), for sorting and sums without floats. */
  value_cp: z.number().int(),
  visibility: z.enum(templateVisibilities),
  stack_size: z.number().int(),
  stackable: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  category: z.string().nullable(),
  is_currency: z.boolean(),
  rating: z.number().nullable(),
  creator_id: z.string().nullable(),
  creator_name: z.string().nullable(),
  is_system: z.boolean(),
  is_owner: z.boolean(),
  /** How many item stacks were made from it (detail only). */
  instance_count: z.number().int().optional(),
  /**
   * Whether players other than its author hold items made from it, outside the parties the author runs:
   * its facts and acted-on tags are then kept (itemTemplateMessages.heldByOthers). Detail, author only.
   */
  held_by_others: z.boolean().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ItemTemplate = z.infer<typeof itemTemplateSchema>;

/** spec/02 §3: stackable when stack_size is 0 (unlimited) or above 1. */
export function isStackable(stackSize: number): boolean {
  return stackSize === 0 || stackSize > 1;
}

/** spec/02 §3: the category is a `category:` tag, else metadata.category. */
export function templateCategory(tags: readonly string[], metadata: Record<string, unknown>): string | null {
  const tag = tags.find((t) => t.startsWith(CATEGORY_TAG_PREFIX));
  if (tag) return tag.slice(CATEGORY_TAG_PREFIX.length) || null;
  return typeof metadata.category === 'string' && metadata.category !== '' ? metadata.category : null;
}

export const itemTemplateTagSchema = z.object({ tag: z.string(), count: z.number().int() });
export type ItemTemplateTag = z.infer<typeof itemTemplateTagSchema>;

// ---------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------

const gpFilter = numberInput(
  z
    .number({ error: 'Value must be a number (gp)' })
    .min(0, 'Value cannot be negative')
    .max(1_000_000_000, 'Value must be at most 1,000,000,000 gp'),
);
const weightFilter = numberInput(
  z
    .number({ error: 'Weight must be a number' })
    .min(0, 'Weight cannot be negative')
    .max(1_000_000, 'Weight must be at most 1,000,000'),
);
const queryText = (max: number) =>
  text({ error: 'Must be text' }).trim().max(max, `Must be at most ${max} characters`);
const idFilter = text()
  .trim()
  .regex(/^(system|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    message: 'creator_id must be a user id or "system"',
  });

/**
 * spec/02 §7 GET item_templates. Without `visibility` the list is my own templates; with
 * visibility=public it is every public template (mine, other people's and the catalogue).
 */
export const itemTemplateListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(20),
    search: queryText(200).optional(),
    tag: queryText(60)
      .transform((t) => t.toLowerCase())
      .optional(),
    category: queryText(60)
      .transform((t) => t.toLowerCase())
      .optional(),
    min_value: gpFilter.optional(),
    max_value: gpFilter.optional(),
    visibility: z
      .enum(templateVisibilities, { error: 'Visibility must be private, unlisted or public' })
      .optional(),
    creator_id: idFilter.optional(),
    min_rating: numberInput(z.number().min(0).max(5)).optional(),
    sort: z.enum(['name', 'value', 'weight', 'rating', 'created_at', 'updated_at']).default('name'),
    direction: z.enum(['asc', 'desc']).optional(),
  }),
);
export type ItemTemplateListQuery = z.infer<typeof itemTemplateListQuerySchema>;

/** "a, b" or ["a", "b"] (repeated query keys): every tag must match. */
const tagsQuery = z
  .union([text().max(1000), z.array(text().max(60)).max(20)], {
    error: 'Tags must be comma-separated',
  })
  .transform(normaliseTags);

/** spec/02 §7 GET search/items: public templates only; spec/02 §9 marketplace pages of 50, default 20. */
export const itemSearchQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    search: queryText(200).default('*'),
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(50)).default(20),
    visibility: z.enum(['public'], { error: itemTemplateMessages.searchPublicOnly }).default('public'),
    tags: tagsQuery.optional(),
    category: queryText(60)
      .transform((t) => t.toLowerCase())
      .optional(),
    rarity: queryText(40)
      .transform((t) => t.toLowerCase())
      .optional(),
    min_value: gpFilter.optional(),
    max_value: gpFilter.optional(),
    min_weight: weightFilter.optional(),
    max_weight: weightFilter.optional(),
    /** Default: relevance when there is a search term, else name. */
    sort: z.enum(['relevance', 'name', 'value', 'weight']).optional(),
    direction: z.enum(['asc', 'desc']).optional(),
  }),
);
export type ItemSearchQuery = z.infer<typeof itemSearchQuerySchema>;

export const itemTemplateListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(itemTemplateSchema),
  meta: pageMetaSchema,
  message: z.string().optional(),
});

/**
 * spec/02 §7 GET search/items "returns templates and pagination": those keys beside the envelope's own
 * `data` and `meta` (DESIGN §3), holding the same page, so clients of either shape read it.
 */
export const itemSearchResponseSchema = itemTemplateListResponseSchema.extend({
  templates: z.array(itemTemplateSchema),
  pagination: pageMetaSchema,
});
