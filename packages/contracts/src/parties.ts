import { z } from 'zod';
import { pageMetaSchema } from './envelope.js';
import { entityId, hasVisibleText, nameText, numberInput, text } from './fields.js';
import { directionParam, includeParam, sortParam } from './list-params.js';
import { tierIdentifiers } from './plans.js';

export const partyRoles = ['gm', 'manager', 'player', 'observer'] as const;
export type PartyRole = (typeof partyRoles)[number];
export const joinPermissions = ['full', 'limited', 'restricted'] as const;
export type JoinPermission = (typeof joinPermissions)[number];
export const encumbranceStyles = ['weight', 'slots', 'both', 'none'] as const;
export type EncumbranceStyle = (typeof encumbranceStyles)[number];
/** Who may add items from the marketplace to the party's containers and its characters' (issue 12). */
export const itemConjuringRules = ['free', 'gm_only'] as const;
export type ItemConjuringRule = (typeof itemConjuringRules)[number];

/** spec/02 §3 Game system options. */
export const gameSystemOptions = ['D&D 5e', 'Pathfinder 1e', 'Pathfinder 2e', 'D&D 3.5e', 'Other'] as const;

export const roleLabels: Record<PartyRole, string> = {
  gm: 'Game Master',
  manager: 'Manager',
  player: 'Player',
  observer: 'Observer',
};

/** Join codes: A–Z and 2–9 without the look-alikes 0/O and 1/I. */
export const joinCodeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * spec/02 §5: a join code as typed or pasted is upper-cased and keeps only A–Z and 0–9, so "qqeu-kwdt"
 * is QQEUKWDT. The join form and the server clean it alike, before its length is checked.
 */
export function cleanJoinCode(raw: string): string {
  return raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
export const JOIN_CODE_LENGTH = 8;

export const partyMessages = {
  nameTooShort: 'Party name must be at least 3 characters',
  joinCodeTooShort: 'Join code must be at least 6 characters',
  joinCodeTooLong: 'Join code must be at most 8 characters',
  joinCodeInvalid: 'No party matches this join code.',
  restricted: 'This party accepts members by invitation only.',
  limitedRole: 'This party lets new members join as a player or an observer only.',
  alreadyMember: 'You are already a member of this party.',
  gmCannotBeRemoved: 'The Game Master cannot be removed from the party.',
  gmCannotBeReroled: 'The Game Master’s role cannot be changed.',
  gmCannotLeave: 'A Game Master cannot leave the party. Hand it over or delete it instead.',
  handOverOwnerOnly: 'Only the Game Master who runs this party can hand it over.',
  handOverTarget: 'Choose a member of this party.',
  handOverReceiverFull: (username: string, tierName: string, limit: number) =>
    `${username}’s ${tierName} plan allows ${limit} ${limit === 1 ? 'party' : 'parties'} they run. They can take this one over once they run fewer, or on a larger plan.`,
  notMember: 'That user is not a member of this party.',
  archived: 'This party is archived: nothing in it can change until its Game Master unarchives it.',
  /** The same, said to its Game Master, who can unarchive it. */
  archivedForGm: 'This party is archived. Unarchive it to make changes.',
  invitationExists: 'That user already has an open invitation to this party.',
  inviteeNotFound: 'No user with that username or email.',
  inviteeMember: 'That user is already a member of this party.',
  invitationGone: 'This invitation is no longer open.',
  inviteTarget: 'Enter a username or an email address',
  /** The one refusal of every GM-only call (party settings, members, invitations, loot). */
  gmOnly: 'Only the GM can do this.',
  conjuringGmOnly: 'Only the GM can add items from the marketplace in this party.',
  valueRaiseGmOnly: "Only the GM can raise an item's value in this party.",
  importGmOnly: 'Only the GM can bring items into this party from outside it.',
} as const;

const trimmed = (max: number) => text().trim().max(max);

export const partyFormSchema = z.object({
  name: nameText({ error: partyMessages.nameTooShort })
    .trim()
    .min(3, partyMessages.nameTooShort)
    .max(100, 'Party name must be at most 100 characters')
    .refine(hasVisibleText, partyMessages.nameTooShort),
  description: trimmed(2000).default(''),
  game_system: trimmed(60).default(''),
  setting: trimmed(200).default(''),
  join_permission: z.enum(joinPermissions).default('limited'),
  encumbrance_style: z.enum(encumbranceStyles).default('both'),
  item_conjuring: z.enum(itemConjuringRules).default('free'),
  is_public: z.boolean().default(false),
});
export type PartyForm = z.infer<typeof partyFormSchema>;
export const partyCreateBodySchema = z.object({ party: partyFormSchema });
export const partyUpdateBodySchema = z.object({
  party: z.object({
    name: partyFormSchema.shape.name.optional(),
    description: trimmed(2000).optional(),
    game_system: trimmed(60).optional(),
    setting: trimmed(200).optional(),
    join_permission: z.enum(joinPermissions).optional(),
    encumbrance_style: z.enum(encumbranceStyles).optional(),
    item_conjuring: z.enum(itemConjuringRules).optional(),
    is_public: z.boolean().optional(),
    is_archived: z.boolean().optional(),
    /** Hands the party over to another member (its owner only); they become its Game Master. */
    game_master_id: entityId(partyMessages.handOverTarget).optional(),
  }),
});
export type PartyUpdate = z.infer<typeof partyUpdateBodySchema>['party'];

export const partySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  game_system: z.string(),
  setting: z.string(),
  join_permission: z.enum(joinPermissions),
  encumbrance_style: z.enum(encumbranceStyles),
  item_conjuring: z.enum(itemConjuringRules),
  join_code: z.string().nullable(),
  is_public: z.boolean(),
  is_archived: z.boolean(),
  member_count: z.number().int(),
  player_count: z.number().int(),
  character_count: z.number().int(),
  gm_name: z.string().nullable(),
  game_master_id: z.string(),
  /** spec/02 §3: `observer` (the default) for someone who is not a member; `is_member` tells them apart. */
  user_role: z.enum(partyRoles),
  is_gm: z.boolean(),
  is_member: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Party = z.infer<typeof partySchema>;

export const partyPreviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  game_system: z.string(),
  setting: z.string(),
  member_count: z.number().int(),
  gm_name: z.string().nullable(),
  is_public: z.boolean(),
  join_permission: z.enum(joinPermissions),
  is_member: z.boolean(),
});
export type PartyPreview = z.infer<typeof partyPreviewSchema>;

/** spec/01 §3 `sort` keys of the party list; without `sort`, archived last and most recently changed first. */
export const partySortKeys = ['name', 'created_at', 'updated_at', 'game_system', 'member_count'] as const;
export type PartySortKey = (typeof partySortKeys)[number];
/** spec/01 §3 `include` of the party list: `members` embeds each party's member list (members only). */
export const partyIncludes = ['members'] as const;

const booleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** Accepts `filters[name]=x` as well as `name=x` (spec/01 §3 list parameters). */
export function unwrapFilters(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    const match = /^filters\[(.+)\]$/.exec(key);
    result[match?.[1] ?? key] = value;
  }
  return result;
}

export const partyListQuerySchema = z.preprocess(
  unwrapFilters,
  z.object({
    page: numberInput(z.number().int().min(1)).default(1),
    per_page: numberInput(z.number().int().min(1).max(100)).default(10),
    search: text().trim().max(200).optional(),
    owned: booleanQuery.optional(),
    member: booleanQuery.optional(),
    role: z.enum(partyRoles).optional(),
    is_archived: booleanQuery.optional(),
    visibility: z.enum(['public']).optional(),
    game_system: text().trim().max(60).optional(),
    sort: sortParam(partySortKeys).optional(),
    direction: directionParam.optional(),
    include: includeParam(partyIncludes).optional(),
  }),
);
export type PartyListQuery = z.infer<typeof partyListQuerySchema>;

export const memberSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  role: z.enum(partyRoles),
  created_at: z.string(),
  user: z.object({ username: z.string(), email: z.string().nullable() }),
  /**
   * For the GM only (null to anyone else, and in party lists): whether the plan that applies to the member
   * in this party, their own or a sponsor's, includes Party collaboration (using the party stash). Which
   * plan that is stays theirs: a plan is account and billing information.
   */
  party_collaboration: z.boolean().nullable(),
  character_details: z.array(
    z.object({ id: z.string(), name: z.string(), primary_container_id: z.string().nullable() }),
  ),
});
export type PartyMember = z.infer<typeof memberSchema>;

/** A party of the list; `members` is there with `include=members`, for the parties the caller belongs to. */
export const partyListItemSchema = partySchema.extend({ members: z.array(memberSchema).optional() });
export type PartyListItem = z.infer<typeof partyListItemSchema>;

export const partyListResponseSchema = z.object({
  status: z.literal('success'),
  data: z.array(partyListItemSchema),
  meta: pageMetaSchema,
});

export const roleChangeBodySchema = z.object({
  party_membership: z.object({ role: z.enum(['manager', 'player', 'observer']) }),
});

export const joinBodySchema = z.object({
  join_code: text({ error: partyMessages.joinCodeTooShort })
    .transform(cleanJoinCode)
    .pipe(text().min(6, partyMessages.joinCodeTooShort).max(8, partyMessages.joinCodeTooLong)),
  role_request: z.enum(partyRoles).default('player'),
});
export const previewQuerySchema = z.object({
  join_code: text({ error: partyMessages.joinCodeTooShort })
    .transform(cleanJoinCode)
    .pipe(text().min(6, partyMessages.joinCodeTooShort).max(8, partyMessages.joinCodeTooLong))
    .optional(),
  id: entityId('Party not found.').optional(),
});

export const invitationBodySchema = z.object({
  party_invitation: z
    .object({
      username: text().trim().max(254).optional(),
      email: text().trim().max(254).optional(),
      role: z.enum(['manager', 'player', 'observer']).default('player'),
      message: text().trim().max(500).default(''),
    })
    .refine((v) => Boolean(v.username || v.email), {
      message: partyMessages.inviteTarget,
      path: ['username'],
    }),
});

export const invitationSchema = z.object({
  id: z.string(),
  party_id: z.string(),
  party_name: z.string(),
  role: z.enum(['manager', 'player', 'observer']),
  message: z.string(),
  status: z.enum(['pending', 'accepted', 'declined', 'revoked']),
  invited_user: z.object({ id: z.string(), username: z.string() }),
  invited_by: z.object({ id: z.string(), username: z.string() }),
  created_at: z.string(),
});
export type PartyInvitation = z.infer<typeof invitationSchema>;

export const patronageCreateBodySchema = z.object({
  beneficiary_id: entityId('Choose a member to sponsor'),
  party_id: entityId('Choose a party'),
  granted_tier: text().max(64).optional(),
});
export type PatronageCreateBody = z.infer<typeof patronageCreateBodySchema>;

export const eligibleMemberSchema = z.object({
  user_id: z.string(),
  username: z.string(),
  role: z.enum(partyRoles),
  /**
   * The plans the caller may grant them, lowest first: paid, above their own plan (at or below it a grant
   * changes nothing) and up to the caller's. Empty when their own plan is the caller's or better. Their
   * plan itself is not told: a plan is account and billing information.
   */
  grantable_tiers: z.array(z.enum(tierIdentifiers)),
  sponsored: z.boolean(),
  /** Whether the sponsorship is the caller's own: only its patron (or its beneficiary) may end it. */
  sponsored_by_you: z.boolean(),
  /** The caller's own sponsorship of them; null when nobody sponsors them, or another member does. */
  patronage_id: z.string().nullable(),
  /** The plan the caller's sponsorship grants (up to their own); null when it is not the caller's. */
  granted_tier: z.string().nullable(),
});
export type EligibleMember = z.infer<typeof eligibleMemberSchema>;
