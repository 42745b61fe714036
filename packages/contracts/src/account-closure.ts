import { z } from 'zod';
import { ACCOUNT_DELETED_MESSAGE } from './constants.js';
import { secretText, text } from './fields.js';
import { patronageSchema, subscriptionSchema } from './subscriptions.js';

/**
 * DELETE /users/me: the account's password confirms it; an account without one (made through Discord)
 * types its email instead. Both are optional here: which one is needed depends on the account.
 */
export const accountDeletionBodySchema = z.object({
  password: secretText().max(200, 'Password must be at most 200 characters').optional(),
  confirm_email: text().trim().max(320, 'Email must be at most 320 characters').optional(),
});
export type AccountDeletionBody = z.infer<typeof accountDeletionBodySchema>;

export const accountClosureMessages = {
  deleted: ACCOUNT_DELETED_MESSAGE,
  passwordRequired: 'Enter your password to delete your account',
  passwordWrong: 'Password is incorrect',
  emailRequired: 'Type your email address to confirm',
  emailWrong: 'This is not your account’s email address',
  adminRefused:
    'Admins cannot delete their own account here: have your admin flag revoked first (npm run admin -- revoke EMAIL).',
  noSuccessorRoom: (party: string) =>
    `No other member of ${party} has room on their plan to run another party. Delete ${party}, or ask a member to upgrade, before deleting your account.`,
  exported: 'Your Haversack data, as of the export date.',
  exportFailed: 'Your data could not be downloaded. Please try again.',
} as const;

/**
 * The most ledger rows a personal export carries, the newest first: a long campaign's ledger can run to
 * hundreds of thousands of rows, and a party's full history is downloaded from the party's ledger (CSV).
 */
export const ACCOUNT_EXPORT_LEDGER_CAP = 10_000;

const exportTemplateFields = {
  id: z.string(),
  name: z.string(),
  description: z.string(),
  visibility: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
};

/**
 * Everything each kind of template holds, named as its form names it, so that what the person wrote can
 * be made again from the file.
 */
const exportItemTemplateSchema = z.object({
  ...exportTemplateFields,
  tags: z.array(z.string()),
  weight: z.number(),
  base_value: z.number().int(),
  currency: z.string(),
  stack_size: z.number().int(),
  category: z.string().nullable(),
  /** Rarity, properties, attunement and whatever else the template was given. */
  metadata: z.record(z.string(), z.unknown()),
});

const exportShopTemplateSchema = z.object({
  ...exportTemplateFields,
  tag_list: z.array(z.string()),
  owner: z.string(),
  location: z.string(),
  shop_type: z.string(),
  buy_modifier: z.number(),
  sell_modifier: z.number(),
  default_restock_days: z.number().int().nullable(),
  name_override: z.string().nullable(),
  owner_override: z.string().nullable(),
  location_override: z.string().nullable(),
  description_override: z.string().nullable(),
  items: z.array(
    z.object({
      item_template_id: z.string(),
      item_name: z.string(),
      quantity: z.number().int(),
      price_cp: z.number().int().nullable(),
      restock_quantity: z.number().int().nullable(),
    }),
  ),
});

const exportLootTemplateSchema = z.object({
  ...exportTemplateFields,
  tag_list: z.array(z.string()),
  source_type: z.string(),
  source: z.string(),
  items: z.array(
    z.object({ item_template_id: z.string(), item_name: z.string(), quantity: z.number().int() }),
  ),
});

/** A stack of items as the export writes it, wherever it lies (a character's bag, a stash, a shop, a loot). */
const exportItemSchema = z.object({
  id: z.string(),
  item_template_id: z.string(),
  name: z.string(),
  quantity: z.number(),
  /** Each, in the item's currency: the stack's own overrides where it has them, else its template's. */
  weight: z.number(),
  value: z.number().int(),
  currency: z.string(),
  /** What this stack says instead of its template (null: the template's). */
  overrides: z.object({
    name: z.string().nullable(),
    description: z.string().nullable(),
    weight: z.number().nullable(),
    value: z.number().nullable(),
    currency: z.string().nullable(),
  }),
  notes: z.string(),
  is_identified: z.boolean(),
  instance_data: z.record(z.string(), z.unknown()),
});

/** A character's or a party's container with its limits and what is in it. */
const exportContainerSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  is_primary: z.boolean(),
  max_weight: z.number().nullable(),
  max_slots: z.number().int().nullable(),
  items: z.array(exportItemSchema),
});

/** A shop deployed into a party the person runs: its settings, its restock and its stock. */
const exportShopInstanceSchema = z.object({
  id: z.string(),
  shop_template_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  owner: z.string(),
  location: z.string(),
  shop_type: z.string(),
  tag_list: z.array(z.string()),
  /** Open (true) or closed. */
  is_active: z.boolean(),
  discount_rate: z.number(),
  buy_modifier: z.number(),
  sell_modifier: z.number(),
  currency: z.string(),
  restock_days: z.number().int().nullable(),
  next_restock_at: z.string().nullable(),
  last_restock_at: z.string().nullable(),
  /** What a restock tops each item up to. */
  restock_plan: z.array(z.object({ item_template_id: z.string(), restock_quantity: z.number().int() })),
  /** The shop's own prices in copper by item template id (the others are priced from their value). */
  own_prices_cp: z.record(z.string(), z.number().int()),
  party_fund_allowed: z.boolean(),
  approval_threshold_cp: z.number().int().nullable(),
  created_at: z.string(),
  /** The shelf (goods held for a pending purchase request are not on it). */
  stock: z.array(exportItemSchema.extend({ price_cp: z.number().int().nullable() })),
});

/** A loot deployed into a party the person runs (deleted loot is gone), coins among its items. */
const exportLootInstanceSchema = z.object({
  id: z.string(),
  loot_template_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  source: z.string(),
  source_type: z.string(),
  location_name: z.string().nullable(),
  is_revealed: z.boolean(),
  revealed_at: z.string().nullable(),
  distributed_at: z.string().nullable(),
  distribution_mode: z.string().nullable(),
  created_at: z.string(),
  items: z.array(exportItemSchema),
});

/**
 * What a GM set up in a party they run, enough to make it again: its settings and notes, its stash and
 * other containers, its deployed shops and loot. Not its join code: that lets anyone in, and a party made
 * again gets a new one.
 */
const exportPartyDetailsSchema = z.object({
  description: z.string(),
  game_system: z.string(),
  setting: z.string(),
  notes: z.string(),
  notes_updated_at: z.string().nullable(),
  join_permission: z.string(),
  encumbrance_style: z.string(),
  item_conjuring: z.string(),
  is_public: z.boolean(),
  is_archived: z.boolean(),
  created_at: z.string(),
  containers: z.array(exportContainerSchema),
  shops: z.array(exportShopInstanceSchema),
  loot: z.array(exportLootInstanceSchema),
});

/**
 * GET /users/me/export: everything Haversack keeps about the signed-in person, as one JSON file (indented
 * to be read), enough to make again what deleting the account destroys. Never a password hash, a token or
 * a provider's identifier: the response is serialised through this schema, so a field not named here
 * cannot leak into the file.
 */
export const accountExportSchema = z.object({
  format: z.literal('haversack-export'),
  version: z.literal(1),
  exported_at: z.string(),
  profile: z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    display_name: z.string().nullable(),
    email_verified_at: z.string().nullable(),
    discord_linked: z.boolean(),
    admin: z.boolean(),
    tier_upgraded_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  preferences: z.record(z.string(), z.unknown()),
  subscription: subscriptionSchema.omit({ billing_provider: true }).extend({ tier_name: z.string() }),
  patronages: z.object({ granted: z.array(patronageSchema), received: z.array(patronageSchema) }),
  characters: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      race: z.string(),
      character_class: z.string(),
      level: z.number(),
      notes: z.string(),
      image_url: z.string(),
      max_weight: z.number().nullable(),
      max_slots: z.number().int().nullable(),
      party_id: z.string().nullable(),
      created_at: z.string(),
      containers: z.array(exportContainerSchema),
    }),
  ),
  parties: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      role: z.string(),
      /** The party's owner (its game master of record); a GM who is not is a co-GM. */
      is_owner: z.boolean(),
      joined_at: z.string(),
      /**
       * The party's own data where the person is one of its GMs (owner or co-GM); null where they play,
       * manage or watch: the stash, notes, shops and loot are then the GM's, not theirs.
       */
      details: exportPartyDetailsSchema.nullable(),
    }),
  ),
  templates: z.object({
    items: z.array(exportItemTemplateSchema),
    shops: z.array(exportShopTemplateSchema),
    loot: z.array(exportLootTemplateSchema),
  }),
  /** Every purchase the person asked a GM to approve, whatever became of it, the newest first. */
  purchase_requests: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      party_id: z.string(),
      shop_instance_id: z.string(),
      shop_name: z.string(),
      character_id: z.string().nullable(),
      character_name: z.string(),
      item_template_id: z.string().nullable(),
      item_name: z.string(),
      quantity: z.number().int(),
      unit_price_cp: z.number().int(),
      total_price_cp: z.number().int(),
      payment_source: z.string(),
      reason: z.string(),
      decided_at: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  ledger: z.object({
    /**
     * Rows where the person acted or that are about one of their characters (as its history lists them),
     * the newest first, at most `ACCOUNT_EXPORT_LEDGER_CAP`.
     */
    entries: z.array(
      z.object({
        id: z.string(),
        character_id: z.string().nullable(),
        transaction_type: z.string(),
        summary: z.string(),
        item_name: z.string().nullable(),
        quantity: z.number().nullable(),
        source_name: z.string().nullable(),
        destination_name: z.string().nullable(),
        source: z.string(),
        transaction_date: z.string(),
      }),
    ),
    total_count: z.number().int(),
    truncated: z.boolean(),
  }),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
