import { randomBytes } from 'node:crypto';
import type { AuthSession, PartyForm } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { itemTemplates } from '../db/schema/items.js';
import type { TestContext } from './helper.js';

export const defaultPassword = 'Adventure1';

export interface UserOverrides {
  email?: string;
  username?: string;
  password?: string;
}

export interface SignedInUser extends AuthSession {
  password: string;
  auth: { authorization: string };
}

/** Registers a user through the service (as the API would) and returns their session. */
export async function createUser(ctx: TestContext, overrides: UserOverrides = {}): Promise<SignedInUser> {
  const suffix = randomBytes(4).toString('hex');
  const password = overrides.password ?? defaultPassword;
  const session = await ctx.app.services.accounts.register(
    {
      email: overrides.email ?? `player-${suffix}@example.com`,
      username: overrides.username ?? `player_${suffix}`,
      password,
      password_confirmation: password,
    },
    {},
  );
  // Its verification mail is a job this process sends after the answer: done before the test goes on, so
  // that a test counting the jobs it runs counts its own.
  await ctx.app.services.jobs.settled();
  return { ...session, password, auth: { authorization: `Bearer ${session.token}` } };
}

/** Puts a user on a paid plan through the local billing provider. */
export async function upgrade(ctx: TestContext, user: SignedInUser, tier: 'tier_1' | 'tier_2' | 'tier_3') {
  await ctx.app.services.subscriptions.checkout(
    { id: user.user.id, email: user.user.email },
    { tier_id: tier },
  );
}

export async function createParty(ctx: TestContext, gm: SignedInUser, overrides: Partial<PartyForm> = {}) {
  return ctx.app.services.parties.create(gm.user.id, {
    name: `Party ${randomBytes(3).toString('hex')}`,
    description: '',
    game_system: 'D&D 5e',
    setting: '',
    join_permission: 'full',
    encumbrance_style: 'both',
    item_conjuring: 'free',
    is_public: false,
    ...overrides,
  });
}

/** A new user who joined the party with the given role (the party must allow joining by code). */
export async function createMember(
  ctx: TestContext,
  party: { id: string; join_code: string | null },
  role: 'manager' | 'player' | 'observer' | 'gm',
  overrides: UserOverrides = {},
): Promise<SignedInUser> {
  const user = await createUser(ctx, overrides);
  if (!party.join_code) throw new Error('createMember needs a party with a join code');
  await ctx.app.services.parties.join(user.user.id, { join_code: party.join_code, role_request: role });
  return user;
}

export interface TemplateOverrides {
  name?: string;
  description?: string;
  weight?: number;
  baseValue?: number;
  currency?: 'cp' | 'sp' | 'ep' | 'gp' | 'pp';
  stackSize?: number;
  visibility?: 'private' | 'unlisted' | 'public';
  creatorId?: string | null;
  tags?: string[];
  metadata?: Record<string, unknown>;
}

/** An item template straight in the table (the items module's API has its own tests). */
export async function createTemplate(ctx: TestContext, overrides: TemplateOverrides = {}) {
  const [row] = await ctx.database.db
    .insert(itemTemplates)
    .values({
      name: overrides.name ?? `Thing ${randomBytes(3).toString('hex')}`,
      description: overrides.description ?? '',
      weight: overrides.weight ?? 1,
      baseValue: overrides.baseValue ?? 1,
      currency: overrides.currency ?? 'gp',
      stackSize: overrides.stackSize ?? 1,
      visibility: overrides.visibility ?? 'public',
      creatorId: overrides.creatorId ?? null,
      tags: overrides.tags ?? [],
      metadata: overrides.metadata ?? {},
    })
    .returning();
  if (!row) throw new Error('template insert returned nothing');
  return row;
}

/** The seeded coin template of a denomination (created if the catalogue seed is absent). */
export async function coinTemplate(ctx: TestContext, currency: 'cp' | 'sp' | 'ep' | 'gp' | 'pp') {
  const names = {
    cp: 'Copper piece',
    sp: 'Silver piece',
    ep: 'Electrum piece',
    gp: 'Gold piece',
    pp: 'Platinum piece',
  };
  await ctx.database.db
    .insert(itemTemplates)
    .values({
      name: names[currency],
      weight: 0.02,
      baseValue: 1,
      currency,
      stackSize: 0,
      visibility: 'public',
      tags: ['currency'],
      systemKey: `coin:${currency}`,
    })
    .onConflictDoNothing();
  const [row] = await ctx.database.db
    .select()
    .from(itemTemplates)
    .where(eq(itemTemplates.systemKey, `coin:${currency}`));
  if (!row) throw new Error(`no ${currency} coin`);
  return row;
}

/** A character of the user with its primary container; upgrades the user when needed. */
export async function createCharacter(
  ctx: TestContext,
  user: SignedInUser,
  overrides: { name?: string; partyId?: string; maxWeight?: number | null; maxSlots?: number | null } = {},
) {
  const check = await ctx.app.services.entitlements.checkLimit(ctx.database.db, user.user.id, 'characters');
  if (!check.allowed) await upgrade(ctx, user, 'tier_3');
  return ctx.app.services.characters.create(
    { id: user.user.id, username: user.user.username },
    {
      name: overrides.name ?? `Hero ${randomBytes(2).toString('hex')}`,
      race: '',
      character_class: '',
      level: 1,
      notes: '',
      image_url: '',
      max_weight: overrides.maxWeight === undefined ? 50 : overrides.maxWeight,
      max_slots: overrides.maxSlots === undefined ? 20 : overrides.maxSlots,
      ...(overrides.partyId ? { party_id: overrides.partyId } : {}),
    },
  );
}

export type LootLine =
  | { item_template_id: string; quantity: number }
  | { currency: 'cp' | 'sp' | 'ep' | 'gp' | 'pp'; quantity: number };

/** A loot template of the user with the given lines; upgrades the user when their plan allows none. */
export async function createLootTemplate(
  ctx: TestContext,
  owner: SignedInUser,
  lines: LootLine[],
  overrides: { name?: string; visibility?: 'private' | 'unlisted' | 'public' } = {},
) {
  const check = await ctx.app.services.entitlements.checkLimit(
    ctx.database.db,
    owner.user.id,
    'loot_templates',
  );
  if (!check.allowed) await upgrade(ctx, owner, 'tier_3');
  const actor = { id: owner.user.id, username: owner.user.username };
  const template = await ctx.app.services.loot.createTemplate(actor, {
    name: overrides.name ?? `Loot ${randomBytes(3).toString('hex')}`,
    description: '',
    source_type: 'custom',
    source: '',
    tag_list: [],
    visibility: overrides.visibility ?? 'private',
  });
  for (const line of lines) await ctx.app.services.loot.addItem(actor, template.id, line);
  return ctx.app.services.loot.getTemplate(owner.user.id, template.id);
}

/** Deploys a loot template into the GM's party (hidden, as every deployment starts). */
export async function deployLoot(
  ctx: TestContext,
  gm: SignedInUser,
  partyId: string,
  templateId: string,
  overrides: { name?: string; reveal?: boolean } = {},
) {
  const actor = { id: gm.user.id, username: gm.user.username };
  const loot = await ctx.app.services.loot.deploy(actor, {
    loot_template_id: templateId,
    party_id: partyId,
    ...(overrides.name ? { name: overrides.name } : {}),
  });
  return overrides.reveal ? ctx.app.services.loot.reveal(actor, loot.id) : loot;
}
