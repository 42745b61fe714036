import { z } from 'zod';
import { changeSources } from './constants.js';
import { pageMetaSchema } from './envelope.js';
import {
  entityId,
  hasAtMostDecimals,
  hasVisibleText,
  inHundredths,
  nameText,
  numberInput,
  patchOf,
  text,
} from './fields.js';
import { dateOrInstantParam } from './list-params.js';
import { formatEnUs } from './numbers.js';
import { unwrapFilters } from './parties.js';

/**
 * The most containers one character or one party holds, its main container or stash included: an owner's
 * list answers all of them at once (attack review, owner container lists). Ours: the spec sets none.
 */
export const MAX_CONTAINERS_PER_OWNER = 200;

export const inventoryMessages = {
  /** What an item without a price shows for its value (`isUnpricedItem`). */
  unpriced: 'Unpriced',
  containerNameRequired: 'Container name is required',
  insufficientCapacity: 'Insufficient capacity in container',
  weightExceeded: 'Item(s) would exceed weight limit',
  slotsExceeded: 'Item(s) would exceed volume limit',
  sameContainer: 'Cannot transfer an item into the container it is already in',
  /** Each party keeps its own records: an item crossing from one to another would show in one only. */
  otherParty: 'Items can only move between containers of the same party',
  transferred: 'Item transferred successfully',
  transferFailed: 'Transfer failed',
  characterIdRequired: 'Character ID is required for item transfer',
  quantityTooLarge: 'There are not that many in the stack',
  /** spec/02 §5 "quantity at least 1", in the words the API's own validation uses. */
  quantityAtLeastOne: 'Quantity must be at least 1',
  quantityWhole: 'Quantity must be a whole number',
  quantityAtMost: 'Quantity can be at most 10,000,000',
  /** Said by a form as the quantity is typed, before asking the server (which answers `quantityTooLarge`). */
  onlyInStack: (count: number) =>
    count === 1 ? 'There is only 1 in this stack.' : `There are only ${formatEnUs(count)} in this stack.`,
  /** A move (or sale) of a stack someone moved, sold or used up a moment before. */
  itemGone: 'That item is no longer there: someone may have just moved or destroyed it.',
  splitRange: 'Split amount must be at least 1 and less than the stack quantity',
  mergeDifferent: 'Only stacks of the same item, without changes, can be merged',
  mergeSame: 'Choose another stack to merge with',
  /** Two stacks in different containers, however alike: a merge never moves items between containers. */
  mergeAcrossContainers: 'Stacks can only be merged within one container: move one first.',
  mergePersonalState: 'Only stacks that are equipped and attuned alike can be merged',
  containerNotEmpty: 'This container still holds items: empty it first or choose where they go',
  primaryContainer: 'A character’s main container cannot be deleted',
  partyContainerDeleters: 'Only the party’s GM or a manager can delete the party’s containers.',
  partyContainerEditors: 'Only the party’s GM or a manager can edit the party’s containers.',
  /** DESIGN §4: observers only read, whatever characters they have in the party. */
  observerCannotAddPartyContainer: 'Observers cannot add containers to the party.',
  /** A player or manager without a character in the party, adding one of its containers. */
  needCharacterInParty: 'You need a character in this party to change its inventory.',
  lastPartyContainer: 'A party keeps at least one container for what the group shares: this is its last',
  notEnoughCoins: 'Not enough coins to convert',
  conversionUneven: 'That amount does not convert into whole coins',
  stackTooLarge: 'A stack can hold at most 10,000,000 items',
  /** Items arriving where their stack is full: a purchase's change, a sale's proceeds, a conversion. */
  stackFull: (item: string, container: string) =>
    `${container} has no room for more ${item}: a stack holds at most 10,000,000.`,
  tooManyStacks: 'That would make more than 1,000 new stacks at once: add or move fewer',
  destinationIsSelf: 'Choose another container for its items: this one is being deleted',
  /** A deleted container's items that do not fit where they were sent: said of that container. */
  destinationFull: (container: string, refusal: string) => `${container} cannot take these items: ${refusal}`,
  containerOwnerRequired: 'Give the container one owner: a character_id or a party_id',
  containerLimit: (owner: 'character' | 'party') =>
    `A ${owner} can have at most ${formatEnUs(MAX_CONTAINERS_PER_OWNER)} containers. Delete one first.`,
  attunementLimit: 'A character can be attuned to at most 3 items. End an attunement first.',
  notAttunable: 'This item does not require attunement.',
  attuneOnCharacter: 'Only a character attunes to an item: move it into a character’s container first.',
  giveFromCharacter: 'Only a character’s items can be given: take it out of the stash first.',
  giveRecipientRequired: 'Choose a character to give it to',
  giveToOtherCharacter: 'Choose another character: this is the one giving it.',
  giveOutsideParty: 'You can only give items to characters of the same party.',
  giveAsObserver: 'Observers cannot give items.',
  stackChanged: (name: string, now: number) =>
    `${name} changed meanwhile: the stack now holds ${now}. Check the quantity and save again.`,
  convertToSameCoin: 'Choose a different coin to convert to',
  undone: 'Transfer undone',
  undoNotFound: 'That change could not be found.',
  undoNotYours: 'Only the one who made a move can undo it.',
  undoNotAMove: 'Only a move of items can be undone.',
  undoOfUndo: 'An undo cannot itself be undone: move the items again.',
  undoneAlready: 'This move has already been undone.',
  undoItemsMovedOn: 'Some of those items have moved on since: move them back by hand.',
  undoSourceGone: 'The container they came from is no longer there: move them where you want by hand.',
} as const;

/** SRD 5.1 "Attunement": a creature can be attuned to no more than three magic items at a time. */
export const MAX_ATTUNED_ITEMS = 3;

/**
 * Whether a character may attune to an item of this template (docs/decisions.md, "Attunement"): the SRD
 * says so in `requires_attunement`; a template that does not say (a homebrew one) counts when it is
 * magic: it has a rarity or the tag `magic` or `attunement`.
 */
export function isAttunable(template: {
  metadata: Record<string, unknown>;
  tags: readonly string[];
}): boolean {
  const requires = template.metadata.requires_attunement;
  if (typeof requires === 'boolean') return requires;
  const rarity = template.metadata.rarity;
  if (typeof rarity === 'string' && rarity.trim() !== '') return true;
  return template.tags.some((tag) => tag === 'magic' || tag === 'attunement');
}

/**
 * Whether an item has no price to show: the SRD gives its template none (`metadata.priced` false, magic
 * items) and nobody gave this item one of its own. Its value counts as nothing in sums, but it reads
 * "Unpriced", never "0 gp", as on the template's page and in loot.
 */
export function isUnpricedItem(item: {
  item_template: { metadata: Record<string, unknown> };
  instance_data: Record<string, unknown>;
}): boolean {
  return item.item_template.metadata.priced === false && item.instance_data.value_override == null;
}

/**
 * The most items one request adds, moves or sets, and the most one stack ever holds (stack_size 0 means
 * "no stack_size", not "past this"). Together with MAX_ITEM_VALUE it keeps a stack's worth in copper an
 * exact JS integer: 900,000 pp × 10,000,000 = 9e15 cp < 2^53 ≈ 9.007e15, whatever overrides say.
 */
export const MAX_STACK_QUANTITY = 10_000_000;
/** The most one item is worth, in its own currency (any of the five), for templates and overrides alike. */
export const MAX_ITEM_VALUE = 900_000;
/** The most one item weighs, in lbs, for templates and overrides alike. */
export const MAX_ITEM_WEIGHT = 100_000;
/**
 * The decimals an item's weight takes, template or override, in the API and the form alike: thousandths of
 * a pound, as the catalogue's own crossbow bolt weighs 0.075 lb (the SRD's 1.5 lb for 20), which "Clone to
 * template" sends back. spec/02 §3's "step 0.01" is the field's step, not its precision. Limits (max
 * weights) stay in hundredths. `item_templates.weight` keeps four decimals: a weight written finer before
 * this rule stays as it is (the rule is for new writes; an edit that leaves the weight alone passes).
 */
export const ITEM_WEIGHT_DECIMALS = 3;
/**
 * The decimals a weight or a load is answered and shown with: every weight as kept (numeric(12,4)), so a
 * small one never reads 0 and none rounds past MAX_ITEM_WEIGHT (content review, finding 4).
 */
export const WEIGHT_SHOWN_DECIMALS = 4;

/** An item's weight as the template form and the API refuse it, in the same words. */
export const itemWeightMessages = {
  notNumber: 'Weight must be a number',
  negative: 'Weight cannot be negative',
  // MAX_ITEM_WEIGHT and ITEM_WEIGHT_DECIMALS, written out: no formatting runs as the module loads.
  tooHeavy: 'Weight must be at most 100,000',
  tooFine: 'Weight can have at most 3 decimal places',
};

/** What is wrong with an item's weight as typed, or null (the form says it before the API would). */
export function itemWeightError(weight: number | string): string | null {
  const lbs = typeof weight === 'string' && weight.trim() === '' ? Number.NaN : Number(weight);
  if (Number.isNaN(lbs)) return itemWeightMessages.notNumber;
  if (lbs < 0) return itemWeightMessages.negative;
  if (lbs > MAX_ITEM_WEIGHT) return itemWeightMessages.tooHeavy;
  if (!hasAtMostDecimals(lbs, ITEM_WEIGHT_DECIMALS)) return itemWeightMessages.tooFine;
  return null;
}

/** An item's weight in a request body: a template's `weight`, an item's `weight_override`. */
export function itemWeightInput() {
  // Each refusal in words, as the form says them (not zod's "expected number").
  return numberInput(
    z
      .number({ error: itemWeightMessages.notNumber })
      .min(0, itemWeightMessages.negative)
      .max(MAX_ITEM_WEIGHT, itemWeightMessages.tooHeavy)
      // A finer weight would be cut by the column or shown as 0: refused, never rounded.
      .refine((lbs) => hasAtMostDecimals(lbs, ITEM_WEIGHT_DECIMALS), itemWeightMessages.tooFine),
  );
}
/** The most new stacks one operation opens (10,000,000 swords of stack size 1 would be as many rows). */
export const MAX_NEW_STACKS = 1_000;

/** spec/02 §4 Allowed transfers; everything else is "Unsupported transfer type: X to Y". */
export function unsupportedTransferMessage(from: string, to: string): string {
  return `Unsupported transfer type: ${from} to ${to}`;
}

export const currencies = ['cp', 'sp', 'ep', 'gp', 'pp'] as const;
export type Currency = (typeof currencies)[number];
/** DESIGN §4: 1 pp = 10 gp = 20 ep = 100 sp = 1000 cp. */
export const copperPer: Record<Currency, number> = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 };

/**
 * Converts coins within a container (e.g. 100 cp → 1 gp). Converting up takes only whole target coins;
 * converting down always divides evenly. The server converts by it, and the web says by it what it did.
 */
export function planConversion(from: Currency, to: Currency, available: number, requested?: number) {
  const ratio = copperPer[to] / copperPer[from];
  if (from === to) return null;
  if (ratio >= 1) {
    const maxWhole = Math.floor(available / ratio);
    const spend = requested ?? maxWhole * ratio;
    if (spend <= 0 || spend > available || spend % ratio !== 0) return null;
    return { spend, receive: spend / ratio };
  }
  const spend = requested ?? available;
  if (spend <= 0 || spend > available) return null;
  return { spend, receive: spend / ratio };
}

/** A price in copper, never as a float: `amount` is an integer in `currency`. */
export function toCopper(amount: number, currency: Currency): number {
  return Math.round(amount) * copperPer[currency];
}

/** spec/02 §3: totalValue in gp with no decimals. */
export function copperToGp(copper: number): number {
  return Math.floor(copper / copperPer.gp);
}

/** spec/02 §3: totalWeight in lbs with one decimal. */
export function roundWeight(lbs: number): number {
  return Math.round(lbs * 10) / 10;
}

/**
 * A container's or a character's load, as its items' weights are kept (WEIGHT_SHOWN_DECIMALS), only float
 * error taken off: in tenths, a container of 0.25 holding 0.25 read 0.3 / 0.25; in hundredths, one 0.075 lb
 * bolt read 0.08 and a 0.001 lb item 0.
 */
export function roundLoadWeight(lbs: number): number {
  const scale = 10 ** WEIGHT_SHOWN_DECIMALS;
  // Twelve significant digits at most: a float's error grows with the load, and 99,999.999 lb × 9,999,999
  // came out as …0000.001.
  return Number((Math.round(lbs * scale) / scale).toPrecision(12));
}

const nullableCapacity = (max: number, label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    numberInput(
      z
        .number({ error: `${label} must be a number` })
        .min(0, `${label} cannot be negative`)
        .max(max, `${label} must be at most ${max.toLocaleString('en-US')}`),
    ).nullable(),
  );

export const containerFormSchema = z.object({
  name: nameText({ error: inventoryMessages.containerNameRequired })
    .trim()
    .min(1, inventoryMessages.containerNameRequired)
    .max(100, 'Container name must be at most 100 characters')
    .refine(hasVisibleText, inventoryMessages.containerNameRequired),
  description: text().trim().max(2000).default(''),
  /** null or 0 = unlimited. Kept in hundredths: a finer limit would be rounded, 0.004 to 0, unlimited. */
  max_weight: nullableCapacity(1_000_000, 'Max weight')
    .refine((v) => v === null || inHundredths(v), 'Max weight can have at most 2 decimal places')
    .default(null),
  max_slots: nullableCapacity(100_000, 'Max slots')
    .refine((v) => v === null || Number.isInteger(v), 'Max slots must be a whole number')
    .default(null),
});
export type ContainerForm = z.infer<typeof containerFormSchema>;
export const containerCreateBodySchema = z.object({ container: containerFormSchema });
/**
 * POST /containers (spec/02 §7 container CRUD at the containers paths): the form plus its owner, exactly
 * one of a character and a party, as under characters/{id}/containers and parties/{id}/containers.
 */
export const containerCreateWithOwnerBodySchema = z.object({
  container: containerFormSchema
    .extend({
      character_id: entityId('Character not found.').optional(),
      party_id: entityId('Party not found.').optional(),
    })
    .superRefine((form, ctx) => {
      if ((form.character_id === undefined) === (form.party_id === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['character_id'],
          message: inventoryMessages.containerOwnerRequired,
        });
      }
    }),
});
export type ContainerCreateWithOwner = z.infer<typeof containerCreateWithOwnerBodySchema>['container'];
export const containerUpdateBodySchema = z.object({ container: patchOf(containerFormSchema) });

export const capacitySchema = z.object({
  used: z.number(),
  max: z.number().nullable(),
  slots_used: z.number().int(),
  slots_max: z.number().int().nullable(),
  /** Which limits apply, from the party's encumbrance style (DESIGN §4). */
  enforces: z.object({ weight: z.boolean(), slots: z.boolean() }),
});
export type Capacity = z.infer<typeof capacitySchema>;

export const containerSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  max_weight: z.number().nullable(),
  max_slots: z.number().int().nullable(),
  current_weight: z.number(),
  items_count: z.number().int(),
  total_value_gp: z.number().int(),
  /**
   * The same worth to the copper (saturated at MAX_REPORTED_SUM), for the screens: a stash of 9 sp is "9 sp",
   * not the "0 gp" that whole gp make of it (docs/decisions.md "Small change is shown as such").
   */
  total_value_cp: z.number().int(),
  capacity: capacitySchema,
  owner: z.object({ type: z.enum(['character', 'party']), id: z.string(), name: z.string() }),
  is_primary: z.boolean(),
  character_id: z.string().nullable(),
  party_id: z.string().nullable(),
  visibility: z.literal('private'),
  can_act: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Container = z.infer<typeof containerSchema>;

export const instanceDataSchema = z
  .object({
    name_override: nameText()
      .trim()
      .max(200)
      .refine(hasVisibleText, 'Name cannot be blank')
      .nullable()
      .optional(),
    description_override: text().max(5000).nullable().optional(),
    weight_override: itemWeightInput().nullable().optional(),
    // Each refusal in words, as the template's own fields say them (not zod's "expected int").
    value_override: numberInput(
      z
        .number({ error: 'Value must be a number' })
        .int('Value must be a whole number')
        .min(0, 'Value cannot be negative')
        .max(MAX_ITEM_VALUE, 'Value can be at most 900,000'),
    )
      .nullable()
      .optional(),
    currency_override: z.enum(currencies).nullable().optional(),
    is_equipped: z.boolean().optional(),
    is_attuned: z.boolean().optional(),
    quality: text().trim().max(60).nullable().optional(),
    durability: numberInput(z.number().int().min(0).max(100)).nullable().optional(),
  })
  .strip();
export type InstanceData = z.infer<typeof instanceDataSchema>;

export const itemInstanceSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  quantity: z.number().int(),
  weight: z.number(),
  totalWeight: z.number(),
  value: z.number().int(),
  value_cp: z.number().int(),
  totalValue: z.number().int(),
  currency: z.enum(currencies),
  tags: z.array(z.string()),
  item_template_id: z.string(),
  item_template: z.object({
    name: z.string(),
    stack_size: z.number().int(),
    tags: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()),
    /** Which of the five seeded coins (DESIGN §4) this is, else null: a look-alike template is not money. */
    coin: z.enum(currencies).nullable(),
  }),
  instance_data: z.record(z.string(), z.unknown()),
  is_identified: z.boolean(),
  notes: z.string(),
  container_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ItemInstance = z.infer<typeof itemInstanceSchema>;

/**
 * GET item_instances/{id}: the stack as its sheet shows it, with what a list's rows leave out (a page of
 * items stays light): the template's description, and whether the viewer may open the template's page
 * (their own, or public or unlisted: spec/02 §6). Whoever may see the stack reads its description, even of
 * another's private template: it says what the item in their hands is.
 */
export const itemInstanceDetailSchema = itemInstanceSchema.extend({
  item_template: itemInstanceSchema.shape.item_template.extend({
    // Defaults: a stack read without them (a list's row in a test, an older server) has nothing to add.
    description: z.string().default(''),
    viewable: z.boolean().default(false),
  }),
});
export type ItemInstanceDetail = z.infer<typeof itemInstanceDetailSchema>;

const quantity = numberInput(
  z
    .number({ error: inventoryMessages.quantityWhole })
    .min(1, { error: inventoryMessages.quantityAtLeastOne, abort: true })
    .max(MAX_STACK_QUANTITY, { error: inventoryMessages.quantityAtMost, abort: true })
    // Bounds first: a number past them is refused for that alone (2^53 is whole, but not safe).
    .int(inventoryMessages.quantityWhole),
);

export const itemInstanceCreateSchema = z.object({
  item_template_id: entityId('Choose an item'),
  container_id: entityId('Choose a container'),
  quantity: quantity.default(1),
  instance_data: instanceDataSchema.optional(),
  notes: text().max(5000).optional(),
});
/** Accepts the fields bare (spec/02 §7) or wrapped as {item_instance}. */
export const itemInstanceCreateBodySchema = z.preprocess(
  (body) =>
    body && typeof body === 'object' && 'item_instance' in body
      ? (body as { item_instance: unknown }).item_instance
      : body,
  itemInstanceCreateSchema,
);

export const itemInstanceUpdateBodySchema = z.object({
  item_instance: z.object({
    name: nameText()
      .trim()
      .min(1, 'Name cannot be blank')
      .max(200)
      .refine(hasVisibleText, 'Name cannot be blank')
      .optional(),
    quantity: quantity.optional(),
    expected_quantity: quantity
      .optional()
      .describe(
        'The quantity the new `quantity` was typed over. If the stack holds another number by the time the change arrives (a move, a gift or a take merged into it), the change is refused with 409 CONFLICT and nothing changes. Left out, `quantity` replaces whatever the stack holds.',
      ),
    notes: text().max(5000).optional(),
    is_identified: z.boolean().optional(),
    instance_data: instanceDataSchema.optional(),
  }),
});
export type ItemInstanceUpdate = z.infer<typeof itemInstanceUpdateBodySchema>['item_instance'];

export const splitBodySchema = z.object({ quantity });
/** POST item_instances/{id}/give: into that character's primary container; the whole stack by default. */
export const giveBodySchema = z.object({
  character_id: entityId(inventoryMessages.giveRecipientRequired),
  quantity: quantity.optional(),
});
export type GiveBody = z.infer<typeof giveBodySchema>;
export const mergeBodySchema = z.object({
  target_instance_id: entityId('Choose a stack to merge with'),
});

export const transferBodySchema = z.object({
  item_instance_id: entityId('Choose an item'),
  source_container_id: entityId('Choose the source container'),
  target_container_id: entityId('Please select a destination'),
  quantity: quantity.optional(),
  party_id: entityId().nullable().optional(),
});
export const characterTransferBodySchema = z.object({
  item_instance_id: entityId('Choose an item'),
  from_container_id: entityId('Choose the source container'),
  to_container_id: entityId('Please select a destination'),
  quantity: quantity.optional(),
});
export const transferResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  moved: z.number().int(),
  source_instance: itemInstanceSchema.nullable(),
  target_instances: z.array(itemInstanceSchema),
  transaction_ids: z.array(z.string()),
});

/** DESIGN §4 Undo: POST transactions/{id}/undo moves an entry's items back. */
export const undoResultSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  moved: z.number().int(),
});
export type UndoResult = z.infer<typeof undoResultSchema>;

export const currencyConversionBodySchema = z
  .object({
    from: z.enum(currencies),
    to: z.enum(currencies),
    /** How many `from` coins to convert; by default as many as convert evenly. */
    quantity: quantity.optional(),
  })
  .refine((body) => body.from !== body.to, { path: ['to'], message: inventoryMessages.convertToSameCoin });

export const containerItemsQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(500)).default(20),
    search: text().trim().max(200).optional(),
    rarity: text().trim().max(40).optional(),
    min_value: numberInput(z.number().min(0).max(1_000_000_000)).optional(),
    max_value: numberInput(z.number().min(0).max(1_000_000_000)).optional(),
  }),
);
export type ContainerItemsQuery = z.infer<typeof containerItemsQuerySchema>;
export const containerItemsResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(itemInstanceSchema),
  meta: pageMetaSchema,
});

/**
 * GET /containers and GET /item_instances: whose containers. Without a filter, those of the caller's
 * characters and of the parties they belong to; `character_id` narrows to one character's, `party_id` to
 * one party's own and its characters'.
 */
const containerScopeFilters = {
  character_id: entityId('Character not found.').optional(),
  party_id: entityId('Party not found.').optional(),
};

export const containerListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(20),
    ...containerScopeFilters,
  }),
);
export type ContainerListQuery = z.infer<typeof containerListQuerySchema>;

/**
 * GET /containers/by_owner: the containers of many owners in one request (the inventory workspace, Party →
 * Inventory and the Marketplace once asked characters/{id}/containers once per character: 126 requests for
 * a GM of 141 characters). Two hundred ids keep the URL near 7.5 KB, well under the 16 KB of headers Node
 * reads; the web client splits a longer list.
 */
export const MAX_OWNERS_PER_CONTAINER_LIST = 200;

const ownerIdList = (what: string) =>
  z
    .union(
      [
        text().max(40 * MAX_OWNERS_PER_CONTAINER_LIST),
        z.array(text().max(40)).max(MAX_OWNERS_PER_CONTAINER_LIST),
      ],
      {
        error: `${what} must be a comma-separated list of ids`,
      },
    )
    .transform((v) =>
      (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s.length > 0),
    )
    .pipe(z.array(entityId(`${what} must be a comma-separated list of ids`)))
    .transform((ids) => [...new Set(ids)]);

export const ownerContainersQuerySchema = z
  .object({
    character_ids: ownerIdList('character_ids').default([]),
    party_ids: ownerIdList('party_ids').default([]),
  })
  .refine((q) => q.character_ids.length + q.party_ids.length <= MAX_OWNERS_PER_CONTAINER_LIST, {
    message: `Ask for at most ${MAX_OWNERS_PER_CONTAINER_LIST} owners at once`,
    path: ['character_ids'],
  });
export type OwnerContainersQuery = z.infer<typeof ownerContainersQuerySchema>;

/**
 * One owner of GET /containers/by_owner and its containers (as its own containers path lists them, the
 * main one first). An owner the caller may not read, or that does not exist, is left out.
 */
export const ownerContainersSchema = z.object({
  owner: z.object({ type: z.enum(['character', 'party']), id: z.string() }),
  containers: z.array(containerSchema),
});
export type OwnerContainers = z.infer<typeof ownerContainersSchema>;

/** GET /item_instances: the filters of containers/{id}/items (spec/02 §7), over one or many containers. */
export const itemInstanceListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(500)).default(20),
    search: text().trim().max(200).optional(),
    rarity: text().trim().max(40).optional(),
    min_value: numberInput(z.number().min(0).max(1_000_000_000)).optional(),
    max_value: numberInput(z.number().min(0).max(1_000_000_000)).optional(),
    container_id: entityId('Container not found.').optional(),
    ...containerScopeFilters,
  }),
);
export type ItemInstanceListQuery = z.infer<typeof itemInstanceListQuerySchema>;

export const deleteContainerQuerySchema = z.object({ destination_container_id: entityId().optional() });

export const transactionTypes = [
  'purchase',
  'sale',
  'transfer',
  'character_to_character_transfer',
  'character_to_party_transfer',
  'party_to_character_transfer',
  'party_deposit',
  'party_withdraw',
  'loot',
  'loot_distribution',
  'create',
  'delete',
  'adjust',
  'split',
  'merge',
  'character_creation',
  'character_deletion',
  'container_creation',
  'container_deletion',
  'item_creation',
  'item_destruction',
  'currency_conversion',
] as const;
export type TransactionType = (typeof transactionTypes)[number];

/** DESIGN §4 Undo: the ledger types of a move of items between two containers, which Undo moves back. */
export const undoableTransactionTypes: readonly TransactionType[] = [
  'transfer',
  'character_to_character_transfer',
  'character_to_party_transfer',
  'party_to_character_transfer',
  'party_deposit',
  'party_withdraw',
];

const named = z.object({ id: z.string().nullable(), name: z.string().nullable() });
export const transactionSchema = z.object({
  id: z.string(),
  transaction_type: z.string(),
  transaction_date: z.string(),
  transaction_summary: z.string(),
  actor_data: named,
  target_data: named,
  transactable_data: named.extend({ item_instance_id: z.string().nullable() }),
  quantity: z.number().int().nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  notes: z.string().nullable(),
  source_location_data: named,
  destination_location_data: named,
  party_id: z.string().nullable(),
  character_id: z.string().nullable(),
  /** DESIGN §4: web, discord, api, admin or system. */
  source: z.enum(changeSources),
  /** DESIGN §4 Undo: the entry this one moved back, when it is an undo. */
  reverts_transaction_id: z.string().nullable().optional(),
  /**
   * DESIGN §4 Undo: a move of items between two inventories that Undo may move back (not a shop's or a
   * loot's rows, not an undo). Its actor may still be refused: undone already, or the items moved on.
   */
  undoable: z.boolean().optional(),
  /** DESIGN §4 Undo: on the reader's own moves, whether an undo has moved it back already (then not undoable). */
  undone: z.boolean().optional(),
  /**
   * The action the row belongs to: the rows one database transaction wrote (they share its
   * `transaction_date`) for one actor. A purchase's goods, payment and change, or a deployment's stock,
   * name the same operation, so the history shows them as one entry. Set on the lists.
   */
  operation: z.string().optional(),
});
export type LedgerTransaction = z.infer<typeof transactionSchema>;

/** One entry of a grouped list (`group=operation`): the action, its headline and how many rows it wrote. */
export const transactionOperationSchema = z.object({
  id: z.string(),
  summary: z.string(),
  size: z.number().int(),
  /**
   * What the action was, where its main row's type does not say it (`operationKinds`: a shop's or a loot's
   * deployment). A string, as `transaction_type` is: a kind newer than the client is shown by its row's type.
   */
  kind: z.string().optional(),
});
export type TransactionOperation = z.infer<typeof transactionOperationSchema>;

const transactionFilters = {
  transaction_type: z.enum(transactionTypes).optional(),
  /** From the start of that day (UTC), or from that instant on. */
  start_date: dateOrInstantParam('start_date').optional(),
  /** To the end of that day (UTC), or up to that instant. */
  end_date: dateOrInstantParam('end_date').optional(),
};
export const transactionListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(200)).default(20),
    /**
     * `operation`: page by action, not by row. A page holds per_page actions with every row of each (a
     * deployment's forty rows are one of the fifty), the meta counts actions, and `data.operations` gives
     * each action's headline, in the order of the page.
     */
    group: z.enum(['operation']).optional(),
    ...transactionFilters,
  }),
);
export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;
/** The CSV export takes the list's filters and gives every row they select: it has no pages. */
export const transactionExportQuerySchema = z.preprocess(unwrapFilters, z.object(transactionFilters));
export type TransactionFilters = z.infer<typeof transactionExportQuerySchema>;
export const transactionListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    transactions: z.array(transactionSchema),
    operations: z.array(transactionOperationSchema).optional(),
  }),
  meta: pageMetaSchema,
});

export const manualEntryMessages = {
  notesRequired: 'Say what happened',
  gmOnly: 'Only the GM can add entries to the party’s ledger.',
  containerOutsideParty: 'Choose a container of this party or of one of its characters',
  kind: 'kind must be note, spend or receive',
  recorded: 'Entry added to the party’s ledger.',
} as const;

const manualEntryBase = {
  party_id: entityId('Party not found.'),
  notes: text({ error: manualEntryMessages.notesRequired })
    .trim()
    .min(1, manualEntryMessages.notesRequired)
    .max(500, 'Notes can be at most 500 characters'),
};
const manualEntryCoins = {
  ...manualEntryBase,
  container_id: entityId('Choose a container'),
  amount: numberInput(
    z
      .number({ error: 'Amount must be a number' })
      .min(1, { error: 'Amount must be at least 1', abort: true })
      .max(MAX_STACK_QUANTITY, { error: 'Amount can be at most 10,000,000', abort: true })
      // Bounds first: a number past them is refused for that alone (2^53 is whole, but not safe).
      .int('Amount must be a whole number'),
  ),
  currency: z.enum(currencies).default('gp'),
};

/**
 * POST /transactions (spec/02 §7, body not shown; docs/decisions.md "Manual ledger entries"): the GM
 * writes what happened at the table into the party's ledger. `note` changes nothing; `spend` takes coins
 * worth `amount` `currency` from a container (change back in the largest coins); `receive` puts that many
 * coins into it. Every row is an `adjust` row.
 */
export const manualTransactionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('note'), ...manualEntryBase }),
    z.object({ kind: z.literal('spend'), ...manualEntryCoins }),
    z.object({ kind: z.literal('receive'), ...manualEntryCoins }),
  ],
  { error: manualEntryMessages.kind },
);
export type ManualTransaction = z.infer<typeof manualTransactionSchema>;
export const manualTransactionBodySchema = z.object({ transaction: manualTransactionSchema });
export const manualTransactionResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ transactions: z.array(transactionSchema) }),
  message: z.string().optional(),
});
