import { z } from 'zod';
import { entityId } from './fields.js';

/** Issue 16 §3: what a share link can point at. */
export const shareKinds = ['character', 'loot', 'shop'] as const;
export type ShareKind = (typeof shareKinds)[number];
export const shareKindLabels: Record<ShareKind, string> = {
  character: 'Character inventory',
  loot: 'Loot',
  shop: 'Shop',
};

/** spec/02 §2: the public page a share code opens. */
export function sharePath(code: string): string {
  return `/discord/share/${code}`;
}

export const shareMessages = {
  notFound: 'This share link does not exist or has been revoked.',
  hiddenLoot: 'Reveal this loot to the party before sharing it.',
  notYourCharacter: "Only the character's player can share its inventory.",
} as const;

export const shareCreateBodySchema = z.object({
  share: z.object({ kind: z.enum(shareKinds), target_id: entityId() }),
});
export type ShareCreate = z.infer<typeof shareCreateBodySchema>['share'];

/** A share link as its owner sees it (GET users/me/shares, POST shares). */
export const shareLinkSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(shareKinds),
  target_id: z.string(),
  /**
   * The current name of what the link points at, or null once its maker can no longer see it (removed from
   * the party, the loot hidden again, the character handed over): the list must not tell them more than the
   * rest of the app does.
   */
  target_name: z.string().nullable(),
  /**
   * Whether the shared page shows anything now. False while its maker cannot see the target, and for loot
   * hidden again (the page is dead even for its GM); the link stays listed so that it can be revoked.
   */
  available: z.boolean(),
  url: z.string(),
  created_at: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** One line of a shared snapshot: names and numbers only, never an id. */
export const sharedItemSchema = z.object({
  name: z.string(),
  quantity: z.number().int(),
  /** lbs per unit */
  weight: z.number(),
  total_weight: z.number(),
  /** value per unit, in copper; on a shop, its price here (a stranger never sees the base worth) */
  value_cp: z.number().int(),
  total_value_cp: z.number().int(),
  /** A shop's buy price per unit, in copper (shops only). */
  price_cp: z.number().int().nullable(),
  is_coin: z.boolean(),
  /** The item has no price (`isUnpricedItem`, an SRD magic item): its 0 values are not what it is worth. */
  is_unpriced: z.boolean().optional(),
});
export type SharedItem = z.infer<typeof sharedItemSchema>;

export const sharedTotalsSchema = z.object({
  /** Items other than coins, counted by quantity. */
  items_count: z.number().int(),
  total_weight: z.number(),
  total_value_cp: z.number().int(),
});
export type SharedTotals = z.infer<typeof sharedTotalsSchema>;

export const sharedSectionSchema = z.object({
  name: z.string(),
  items: z.array(sharedItemSchema),
  /** Items left out of a very large container (the snapshot shows the first 500 of each). */
  more_items: z.number().int(),
});

const snapshotBase = {
  title: z.string(),
  /** One line for previews: "Thorin's inventory: 23 items, 41 lbs, 152 gp". */
  summary: z.string(),
  name: z.string(),
  totals: sharedTotalsSchema,
  sections: z.array(sharedSectionSchema),
};

/** GET shares/{code}: a read-only snapshot of exactly what was shared (public, no sign-in). */
export const sharedSnapshotSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('character'),
    ...snapshotBase,
    /** "Level 3 Dwarf Fighter" */
    subtitle: z.string(),
  }),
  z.object({
    kind: z.literal('loot'),
    ...snapshotBase,
    description: z.string(),
    location: z.string(),
  }),
  z.object({
    kind: z.literal('shop'),
    ...snapshotBase,
    description: z.string(),
    shop_type_name: z.string(),
    location: z.string(),
    is_open: z.boolean(),
  }),
]);
export type SharedSnapshot = z.infer<typeof sharedSnapshotSchema>;

/** GET oembed?url=: the oEmbed 1.0 answer for a share link (a "link" type, no envelope: oEmbed's format). */
export const oembedQuerySchema = z.object({
  url: z.string().max(2000),
  /** oEmbed defines json and xml; only json is offered, and xml is answered 501 (oEmbed 1.0 §2.3.4). */
  format: z.enum(['json', 'xml']).optional(),
});
export const oembedResponseSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('link'),
  title: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  author_name: z.string().optional(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
});
export type OembedResponse = z.infer<typeof oembedResponseSchema>;
