import { errorEnvelopeSchema } from '@haversack/contracts';
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/accounts.js';
import { characters } from '../db/schema/characters.js';
import { containers, transactions } from '../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../db/schema/items.js';
import { jobs } from '../db/schema/jobs.js';
import { lootInstances, lootTemplates } from '../db/schema/loot.js';
import { notifications } from '../db/schema/notifications.js';
import { parties, partyInvitations, partyMemberships } from '../db/schema/parties.js';
import { shopTemplates } from '../db/schema/shops.js';
import { defaultAuthRateLimits, scaleRateLimits } from '../plugins/rate-limit.js';
import { createAdmin, enterAdminMode, type SignedInAdmin } from '../test/admin.js';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createParty,
  createTemplate,
  createUser,
  defaultPassword,
  type SignedInUser,
  upgrade,
} from '../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../test/helper.js';
import {
  boundaryIntegerCases,
  casesFor,
  documents,
  type FuzzRequest,
  isFreeText,
  numericFields,
  type OpenApiDocument,
  type OpenApiSchema,
  type Operation,
  operationsOf,
  type Samples,
} from './openapi-cases.js';

/**
 * issue 9 item 5: every operation of the OpenAPI document, sent hostile values in every field and
 * parameter, as the owner of real rows and anonymously. Any 5xx, or any answer outside the envelope,
 * fails. Seeded (FUZZ_SEED to try another seed), so a failure replays exactly.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_122);
/** How many of the occasional hostile values each field gets, besides those every field gets (all of them
 * with FUZZ_THOROUGH=1, for a longer run by hand). */
const sometimesPerField = process.env.FUZZ_THOROUGH ? Number.POSITIVE_INFINITY : 1;

let ctx: TestContext;
let owner: SignedInUser;
let member: SignedInUser;
let invitee: SignedInUser;
/** Staff with a live admin session: the caller of the /admin operations. */
let admin: SignedInAdmin;
/** The user the /admin/users operations act on (suspended, retiered, deleted). */
let victim: SignedInUser;
let operations: Operation[];

beforeAll(async () => {
  // Generous budgets: a 429 would hide the code behind it from the fuzz.
  ctx = await buildTestApp({ rateLimits: scaleRateLimits(defaultAuthRateLimits, 1_000) });
  [owner, member, invitee, victim] = await Promise.all([
    createUser(ctx),
    createUser(ctx),
    createUser(ctx),
    createUser(ctx),
  ]);
  admin = await createAdmin(ctx);
  // The top plan: no limit or missing feature stops a request before the code worth reaching.
  // The generated document never uses $ref objects, which openapi-types' Document allows everywhere; the
  // generator reads it through its own narrower interface.
  // Deleting one's own account, sent valid, would delete the fuzz's owner under every later case; its bad
  // input is covered by accounts/account-closure.test.ts.
  operations = operationsOf((await ctx.app.inject({ url: '/api/docs/json' })).json<OpenApiDocument>()).filter(
    (op) => !(op.method === 'DELETE' && op.path === '/api/v1/users/me'),
  );
}, 120_000);
afterAll(async () => ctx.close());

/**
 * The numbers a client sends that may go past a 4-byte integer (any safe integer), each with the reason no
 * column or sum is harmed; every other one has a maximum that a 4-byte column holds.
 */
const boundless: Record<string, string> = {
  // (page - 1) × per_page stays below 2^63 for every safe page and per_page up to 500 (the largest), on
  // PGlite and PostgreSQL; a page past the last answers an empty page.
  'query page': 'an offset, not a column',
  // Compared with the notes' version before the save (a 4-byte column): any other is a CONFLICT.
  'body party_notes.version': 'checked against the row before the save',
};

/** Rows the owner can act on: a party with a member and an invitation, a character with containers. */
interface World {
  partyId: string;
  joinCode: string;
  characterId: string;
  primaryContainerId: string;
  bagId: string;
  stashId: string;
  templateId: string;
  instanceId: string;
  otherInstanceId: string;
  invitationId: string;
  patronageId: string;
  transactionId: string;
  lootTemplateId: string;
  lootItemId: string;
  lootInstanceId: string;
  /** The member's character in the party: the other side of a gift, the buyer of held purchases. */
  memberCharacterId: string;
  memberContainerId: string;
  /** A shop template of the owner's with one line of wares, deployed into the party with stock. */
  shopTemplateId: string;
  shopItemId: string;
  waresTemplateId: string;
  shopInstanceId: string;
  shopStackId: string;
  announcementId: string;
  shareId: string;
  shareCode: string;
  apiTokenId: string;
  notificationId: string;
  jobId: string;
  /** Set before the operation that needs one (each answer consumes its row): see `plans`. */
  shopRequestId: string;
  reportId: string;
  operationId: string;
  sessionId: string;
  emptyContainerId: string;
  fingerprint: string;
  lootStackId: string;
  reportTargetId: string;
  guestInvitationId: string;
  shareUrl: string;
  ownerEmail: string;
  expectedQuantity: number;
  /** Rows made by `plans` for one operation to consume (a deletion's own party, character...). */
  scratch: Record<string, string>;
  /** Whoever `plans` made for the operation (an invitee, a user who joins). */
  guest?: SignedInUser;
}

const unknownId = '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b';

/** A fuzzed checkout or cancellation may have moved someone to another plan: back to the top one. */
async function onTopPlan(user: SignedInUser) {
  const tier = await ctx.app.services.entitlements.ownTier(ctx.database.db, user.user.id);
  if (tier.identifier !== 'tier_3') await upgrade(ctx, user, 'tier_3');
}

async function createWorld(): Promise<World> {
  const { services } = ctx.app;
  await onTopPlan(owner);
  await onTopPlan(member);
  const actor = { id: owner.user.id, username: owner.user.username };
  const party = await createParty(ctx, owner, { join_permission: 'full' });
  if (!party.join_code) throw new Error('a full party has a join code');
  await services.parties.join(member.user.id, { join_code: party.join_code, role_request: 'player' });
  const character = await createCharacter(ctx, owner, { partyId: party.id });
  const primaryContainerId = String(character.primary_container_id);
  const blank = { description: '', max_weight: null, max_slots: null };
  const bag = await services.inventory.createContainer(
    actor,
    { characterId: character.id },
    { name: 'Fuzz bag', ...blank },
  );
  const stash = await services.inventory.createContainer(
    actor,
    { partyId: party.id },
    { name: 'Fuzz stash', ...blank },
  );
  const template = await createTemplate(ctx, {
    creatorId: owner.user.id,
    visibility: 'private',
    stackSize: 0,
  });
  const unique = await createTemplate(ctx, { creatorId: owner.user.id, stackSize: 1 });
  const [instance] = await services.inventory.createInstance(actor, {
    item_template_id: template.id,
    container_id: primaryContainerId,
    quantity: 10,
  });
  const [other] = await services.inventory.createInstance(actor, {
    item_template_id: unique.id,
    container_id: bag.id,
    quantity: 1,
  });
  const invitation = await services.parties.invite(owner.user.id, party.id, {
    username: invitee.user.username,
    role: 'player',
    message: '',
  });
  const patronage = await services.patronages
    .create(owner.user.id, { beneficiary_id: member.user.id, party_id: party.id, granted_tier: 'tier_1' })
    .catch(() => undefined);
  // Revealed loot of the party, so loot calls reach past "not found" to their rules.
  const lootTemplate = await createLootTemplate(ctx, owner, [
    { item_template_id: template.id, quantity: 3 },
    { currency: 'gp', quantity: 5 },
  ]);
  const loot = await services.loot.deploy(actor, { loot_template_id: lootTemplate.id, party_id: party.id });
  await services.loot.reveal(actor, loot.id);
  // Shops: a template with a line of wares, deployed into the party; coins to pay with.
  const wares = await createTemplate(ctx, { stackSize: 0, baseValue: 1, currency: 'sp' });
  const shopTemplate = await api<{ id: string }>('POST', '/shop_templates', owner, {
    shop_template: { name: `Fuzz shop ${seed}`, visibility: 'private', default_restock_days: 2 },
  });
  const shopItem = await api<{ id: string }>('POST', `/shop_templates/${shopTemplate.id}/add_item`, owner, {
    shop_item: { item_template_id: wares.id, quantity: 50, price_cp: 10 },
  });
  const shop = await api<{ id: string; container: { item_instances: { id: string }[] } }>(
    'POST',
    '/shop_instances',
    owner,
    { shop_instance: { shop_template_id: shopTemplate.id, party_id: party.id } },
  );
  const memberCharacter = await createCharacter(ctx, member, { partyId: party.id });
  for (const currency of ['cp', 'gp'] as const) {
    const coin = await coinTemplate(ctx, currency);
    for (const [user, container] of [
      [owner, primaryContainerId],
      [member, String(memberCharacter.primary_container_id)],
    ] as const)
      await services.inventory.createInstance(
        { id: user.user.id, username: user.user.username },
        { item_template_id: coin.id, container_id: container, quantity: 100 },
      );
  }
  const now = Date.now();
  const announcement = await api<{ id: string }>('POST', '/admin/announcements', admin.adminAuth, {
    title: 'Fuzz news',
    body: '',
    level: 'info',
    starts_at: new Date(now - 60_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
  });
  const share = await api<{ id: string; code: string; url: string }>('POST', '/shares', owner, {
    share: { kind: 'character', target_id: character.id },
  });
  const [notification] = await ctx.database.db
    .insert(notifications)
    .values({
      userId: owner.user.id,
      kind: 'items_received',
      partyId: party.id,
      actorId: member.user.id,
      payload: { message: 'A gift', party_name: party.name, link: null },
    })
    .returning({ id: notifications.id });
  // A failed job of a kind no handler knows, for an admin to retry.
  const [job] = await ctx.database.db
    .insert(jobs)
    .values({
      kind: 'fuzz_only',
      key: `fuzz-${now}`,
      runAt: new Date(now + 3_600_000),
      attempts: 3,
      lastError: 'x',
    })
    .returning({ id: jobs.id });
  const [transaction] = await ctx.database.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(or(eq(transactions.partyId, party.id), eq(transactions.characterId, character.id)))
    .limit(1);
  return {
    partyId: party.id,
    joinCode: party.join_code,
    characterId: character.id,
    primaryContainerId,
    bagId: bag.id,
    stashId: stash.id,
    templateId: template.id,
    instanceId: instance?.id ?? unknownId,
    otherInstanceId: other?.id ?? unknownId,
    invitationId: invitation.id,
    patronageId: patronage?.id ?? unknownId,
    transactionId: transaction?.id ?? unknownId,
    lootTemplateId: lootTemplate.id,
    lootItemId: lootTemplate.loot_items?.[0]?.id ?? unknownId,
    lootInstanceId: loot.id,
    memberCharacterId: memberCharacter.id,
    memberContainerId: String(memberCharacter.primary_container_id),
    shopTemplateId: shopTemplate.id,
    shopItemId: shopItem.id,
    waresTemplateId: wares.id,
    shopInstanceId: shop.id,
    shopStackId: shop.container.item_instances[0]?.id ?? unknownId,
    announcementId: announcement.id,
    shareId: share.id,
    shareCode: share.code,
    apiTokenId: unknownId,
    notificationId: notification?.id ?? unknownId,
    jobId: job?.id ?? unknownId,
    shopRequestId: unknownId,
    reportId: unknownId,
    operationId: unknownId,
    sessionId: unknownId,
    emptyContainerId: unknownId,
    fingerprint: 'x',
    lootStackId: unknownId,
    reportTargetId: unknownId,
    guestInvitationId: unknownId,
    shareUrl: share.url,
    ownerEmail: unknownId,
    expectedQuantity: 10,
    scratch: {},
  };
}

/** A call through the API that must succeed: its data. */
async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  caller: { auth: { authorization: string } },
  payload?: unknown,
): Promise<T> {
  const response = await callApi(ctx, method, url, caller, payload);
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<{ data: T }>().data;
}

/**
 * Whether the world is still as createWorld left it. Most fuzzed requests are refused, so the world
 * usually survives an operation; the few that change it (a deletion, an archive, a move) get it rebuilt.
 */
async function intact(world: World): Promise<boolean> {
  const { db } = ctx.database;
  const count = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const n = sql<number>`count(*)::int`;
  const checks = await Promise.all([
    count(
      db
        .select({ n })
        .from(parties)
        .where(
          and(
            eq(parties.id, world.partyId),
            eq(parties.isArchived, false),
            eq(parties.joinCode, world.joinCode),
          ),
        ),
    ),
    count(
      db
        .select({ n })
        .from(partyMemberships)
        .where(and(eq(partyMemberships.partyId, world.partyId), eq(partyMemberships.userId, member.user.id))),
    ),
    count(
      db
        .select({ n })
        .from(characters)
        .where(and(eq(characters.id, world.characterId), eq(characters.partyId, world.partyId))),
    ),
    count(
      db
        .select({ n })
        .from(containers)
        .where(inArray(containers.id, [world.primaryContainerId, world.bagId, world.stashId])),
    ),
    count(
      db
        .select({ n })
        .from(itemInstances)
        .where(
          or(
            and(
              eq(itemInstances.id, world.instanceId),
              eq(itemInstances.containerId, world.primaryContainerId),
              // A move of one or two (a transfer, a split, a sale) leaves enough for the next.
              gte(itemInstances.quantity, 5),
            ),
            and(eq(itemInstances.id, world.otherInstanceId), eq(itemInstances.containerId, world.bagId)),
          ),
        ),
    ),
    count(
      db
        .select({ n })
        .from(itemTemplates)
        .where(and(eq(itemTemplates.id, world.templateId), isNull(itemTemplates.deletedAt))),
    ),
    count(
      db
        .select({ n })
        .from(partyInvitations)
        .where(and(eq(partyInvitations.id, world.invitationId), eq(partyInvitations.status, 'pending'))),
    ),
    count(db.select({ n }).from(lootTemplates).where(eq(lootTemplates.id, world.lootTemplateId))),
    count(
      db
        .select({ n })
        .from(lootInstances)
        .where(and(eq(lootInstances.id, world.lootInstanceId), isNull(lootInstances.deletedAt))),
    ),
  ]);
  return checks.join() === [1, 1, 1, 3, 2, 1, 1, 1, 1].join();
}

type Caller = 'owner' | 'admin' | 'member' | 'guest';

/**
 * What an operation's valid request needs beyond the world's samples, so that it succeeds (a 2xx) and the
 * hostile cases after it vary a field the answer turns on, not a missing row or a wrong caller.
 */
interface Plan {
  /** Who sends it: the owner unless said (the /admin operations: staff with an admin session). */
  caller?: Caller;
  /** Path parameters, by name, where the collection's row is not the one. */
  path?: (world: World) => Record<string, string>;
  /** The whole valid body, where one built field by field cannot succeed. */
  body?: (world: World) => unknown;
  /** Rows the valid request consumes (a pending request, an open report), made afresh before it. */
  prepare?: (world: World) => Promise<void>;
  /** Puts the world back after the operation's cases (cheaper than building it again). */
  restore?: (world: World) => Promise<void>;
}

/**
 * A deletion's own row, made before it, so that its valid request deletes that one and leaves the world
 * standing (building the world again costs more than a row). `scratch` holds the row's id, by name.
 */
function throwaway(make: (world: World) => Promise<Record<string, string>>): Plan {
  return {
    async prepare(world) {
      world.scratch = await make(world);
    },
    path: (world) => world.scratch,
  };
}

const actorOf = (user: SignedInUser) => ({ id: user.user.id, username: user.user.username });

/** A new user, signed in, who is the guest of the operation (an invitee, a joiner, a sponsored player). */
async function guest(world: World, joins: boolean): Promise<SignedInUser> {
  const user = await createUser(ctx);
  if (joins)
    await ctx.app.services.parties.join(user.user.id, { join_code: world.joinCode, role_request: 'player' });
  world.guest = user;
  return user;
}

/** A purchase of the member's held for the owner's (the GM's) approval. */
async function heldPurchase(world: World) {
  // Earlier valid requests may have made the wares free.
  await api('PUT', `/shop_instances/${world.shopInstanceId}/prices/${world.waresTemplateId}`, owner, {
    price_cp: 10,
  });
  await api('PATCH', `/shop_instances/${world.shopInstanceId}`, owner, {
    shop_instance: { approval_threshold_cp: 1 },
  });
  const held = await api<{ request: { id: string } }>(
    'POST',
    `/shop_instances/${world.shopInstanceId}/purchase`,
    member,
    {
      purchase: {
        item_instance_id: world.shopStackId,
        quantity: 1,
        buyer_character_id: world.memberCharacterId,
        buyer_container_id: world.memberContainerId,
      },
    },
  );
  if (!held.request) throw new Error(`the purchase was not held: ${JSON.stringify(held).slice(0, 300)}`);
  world.shopRequestId = held.request.id;
}

/** An open report of the owner's on a public template of the member's. */
async function openReport(world: World) {
  const target = await createTemplate(ctx, { creatorId: member.user.id, visibility: 'public' });
  const report = await api<{ id: string }>('POST', '/reports', owner, {
    target_type: 'item_template',
    target_id: target.id,
    reason: 'Fuzz report',
  });
  world.reportId = report.id;
}

async function reportTarget(world: World) {
  world.reportTargetId = (await createTemplate(ctx, { creatorId: member.user.id, visibility: 'public' })).id;
}

async function emptyContainer(world: World) {
  const bag = await ctx.app.services.inventory.createContainer(
    actorOf(owner),
    { characterId: world.characterId },
    { name: 'Fuzz pouch', description: '', max_weight: null, max_slots: null },
  );
  world.emptyContainerId = bag.id;
}

async function lootStack(world: World) {
  const loot = await api<{ container: { item_instances: { id: string }[] } }>(
    'GET',
    `/loot_instances/${world.lootInstanceId}`,
    owner,
  );
  world.lootStackId = loot.container.item_instances[0]?.id ?? unknownId;
}

async function victimSuspended(suspended: boolean) {
  const row = await api<{ suspended_at?: string | null; status?: string }>(
    'GET',
    `/admin/users/${victim.user.id}`,
    admin.adminAuth,
  ).catch(() => undefined);
  if (!row) victim = await createUser(ctx);
  const action = suspended ? 'suspend' : 'unsuspend';
  await callApi(ctx, 'POST', `/admin/users/${victim.user.id}/${action}`, admin.adminAuth, {
    reason: 'Fuzz',
  });
}

const plans: Record<string, Plan> = {
  // Shops: the world's shop, its stock and the owner's goods.
  'GET /api/v1/shop_instances/{id}/calculate_buy_price/{itemId}': {
    path: (w) => ({ itemId: w.shopStackId }),
  },
  'GET /api/v1/shop_instances/{id}/calculate_sell_price/{itemId}': {
    path: (w) => ({ itemId: w.instanceId }),
  },
  'PATCH /api/v1/shop_templates/{id}/shop_items/{itemId}': { path: (w) => ({ itemId: w.shopItemId }) },
  'DELETE /api/v1/shop_templates/{id}/remove_item/{itemId}': { path: (w) => ({ itemId: w.shopItemId }) },
  'PUT /api/v1/shop_instances/{id}/prices/{itemTemplateId}': {
    path: (w) => ({ itemTemplateId: w.waresTemplateId }),
  },
  'POST /api/v1/shop_templates/{id}/add_item': {
    body: (w) => ({ item_template_id: w.waresTemplateId, quantity: 1, price_cp: 10 }),
  },
  'POST /api/v1/shop_instances/{id}/purchase': {
    body: (w) => ({
      purchase: {
        item_instance_id: w.shopStackId,
        quantity: 1,
        buyer_character_id: w.characterId,
        buyer_container_id: w.primaryContainerId,
      },
    }),
  },
  'POST /api/v1/shop_instances/{id}/sell': {
    // A stocking may have shelved the owner's goods for free, and a shop does not buy back what it gives
    // (when they are not on the shelf, this price is refused and the sale needs none).
    prepare: async (w) =>
      void (await callApi(ctx, 'PUT', `/shop_instances/${w.shopInstanceId}/prices/${w.templateId}`, owner, {
        price_cp: 10,
      })),
    body: (w) => ({
      sell: {
        item_instance_id: w.instanceId,
        quantity: 1,
        seller_character_id: w.characterId,
        seller_container_id: w.primaryContainerId,
      },
    }),
  },
  'POST /api/v1/shop_instances/{id}/stock': {
    body: (w) => ({ item_id: w.instanceId, source_container_id: w.primaryContainerId, quantity: 1 }),
  },
  'POST /api/v1/shop_instances/{id}/unstock': {
    body: (w) => ({ item_id: w.shopStackId, target_container_id: w.primaryContainerId, quantity: 1 }),
  },
  // Its valid request closes the shop (is_active false): open again for the trades after it.
  'PATCH /api/v1/shop_instances/{id}': {
    restore: async (w) =>
      void (await api('PATCH', `/shop_instances/${w.shopInstanceId}`, owner, {
        shop_instance: { is_active: true },
      })),
  },
  'DELETE /api/v1/shop_templates/{id}': throwaway(async () => ({
    id: (
      await api<{ id: string }>('POST', '/shop_templates', owner, {
        shop_template: { name: `Fuzz stall ${sequence++}`, visibility: 'private' },
      })
    ).id,
  })),
  // Only public templates are rated: a seeded system shop.
  'POST /api/v1/shop_templates/{id}/rate': throwaway(async () => {
    const [system] = await ctx.database.db
      .select({ id: shopTemplates.id })
      .from(shopTemplates)
      .where(eq(shopTemplates.visibility, 'public'))
      .limit(1);
    return { id: system?.id ?? unknownId };
  }),
  'POST /api/v1/shop_requests/{id}/approve': { prepare: heldPurchase },
  'POST /api/v1/shop_requests/{id}/decline': { prepare: heldPurchase },
  'POST /api/v1/shop_requests/{id}/cancel': { prepare: heldPurchase, caller: 'member' },
  // Inventory and loot.
  'POST /api/v1/containers': {
    body: (w) => ({ container: { name: 'Fuzz box', description: '', character_id: w.characterId } }),
  },
  'DELETE /api/v1/containers/{id}': { prepare: emptyContainer, path: (w) => ({ id: w.emptyContainerId }) },
  'POST /api/v1/parties/{id}/archive': {
    restore: async (w) => void (await ctx.app.services.parties.setArchived(owner.user.id, w.partyId, false)),
  },
  'POST /api/v1/parties/{id}/regenerate_join_code': {
    async restore(w) {
      const [row] = await ctx.database.db
        .select({ joinCode: parties.joinCode })
        .from(parties)
        .where(eq(parties.id, w.partyId));
      w.joinCode = String(row?.joinCode);
    },
  },
  'DELETE /api/v1/parties/{id}': throwaway(async () => ({ id: (await createParty(ctx, owner)).id })),
  'DELETE /api/v1/characters/{id}': throwaway(async (w) => ({
    id: (await createCharacter(ctx, owner, { partyId: w.partyId })).id,
  })),
  'DELETE /api/v1/item_instances/{id}': throwaway(async (w) => {
    const [stack] = await ctx.app.services.inventory.createInstance(actorOf(owner), {
      item_template_id: w.templateId,
      container_id: w.stashId,
      quantity: 1,
    });
    return { id: stack?.id ?? unknownId };
  }),
  'DELETE /api/v1/item_templates/{id}': throwaway(async () => ({
    id: (await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'private' })).id,
  })),
  'DELETE /api/v1/loot_templates/{id}': throwaway(async () => ({
    id: (await createLootTemplate(ctx, owner, [])).id,
  })),
  'DELETE /api/v1/loot_instances/{id}': throwaway(async (w) => ({
    id: (
      await ctx.app.services.loot.deploy(actorOf(owner), {
        loot_template_id: w.lootTemplateId,
        party_id: w.partyId,
      })
    ).id,
  })),
  'DELETE /api/v1/parties/{id}/members/{userId}': throwaway(async (w) => ({
    userId: (await guest(w, true)).user.id,
  })),
  'DELETE /api/v1/parties/{id}/invitations/{invitationId}': {
    prepare: invitedGuest,
    path: (w) => ({ invitationId: w.guestInvitationId }),
  },
  'DELETE /api/v1/parties/{id}/leave': { caller: 'guest', prepare: async (w) => void (await guest(w, true)) },
  'DELETE /api/v1/characters/{id}/containers/{containerId}': {
    prepare: emptyContainer,
    path: (w) => ({ containerId: w.emptyContainerId }),
  },
  'PATCH /api/v1/parties/{id}/containers/{containerId}': { path: (w) => ({ containerId: w.stashId }) },
  'DELETE /api/v1/parties/{id}/containers/{containerId}': throwaway(async (w) => ({
    containerId: (
      await ctx.app.services.inventory.createContainer(
        actorOf(owner),
        { partyId: w.partyId },
        { name: 'Fuzz chest', description: '', max_weight: null, max_slots: null },
      )
    ).id,
  })),
  'POST /api/v1/item_instances/{id}/give': {
    body: (w) => ({ character_id: w.memberCharacterId, quantity: 1 }),
  },
  'POST /api/v1/loot_templates/{id}/loot_items': {
    body: (w) => ({ item_template_id: w.templateId, quantity: 1 }),
  },
  'POST /api/v1/loot_instances/{id}/distribute': {
    async prepare(w) {
      const preview = await api<{ contents_fingerprint: string }>(
        'POST',
        `/loot_instances/${w.lootInstanceId}/distribute`,
        owner,
        { distribute: { character_ids: [w.characterId], preview: true } },
      );
      w.fingerprint = preview.contents_fingerprint;
    },
    body: (w) => ({
      distribute: {
        character_ids: [w.characterId],
        distribution_mode: 'even',
        contents_fingerprint: w.fingerprint,
      },
    }),
  },
  'POST /api/v1/loot_instances/{id}/claim': {
    prepare: lootStack,
    body: (w) => ({ claim: { item_instance_id: w.lootStackId, character_id: w.characterId } }),
  },
  'POST /api/v1/loot_instances/{id}/take': {
    prepare: lootStack,
    body: (w) => ({
      item_instance_id: w.lootStackId,
      target_container_id: w.primaryContainerId,
      quantity: 1,
    }),
  },
  // Parties, people and links.
  'POST /api/v1/parties/{id}/invitations': {
    prepare: async (w) => void (await guest(w, false)),
    body: (w) => ({ party_invitation: { username: w.guest?.user.username, role: 'player', message: '' } }),
  },
  'POST /api/v1/invitations/{invitationId}/accept': {
    caller: 'guest',
    prepare: invitedGuest,
    path: (w) => ({ invitationId: w.guestInvitationId }),
  },
  'POST /api/v1/invitations/{invitationId}/decline': {
    caller: 'guest',
    prepare: invitedGuest,
    path: (w) => ({ invitationId: w.guestInvitationId }),
  },
  'POST /api/v1/parties/join': { caller: 'guest', prepare: async (w) => void (await guest(w, false)) },
  'POST /api/v1/patronages': {
    async prepare(w) {
      // A fuzzed checkout may have moved the owner to a plan without sponsorships.
      await onTopPlan(owner);
      await guest(w, true);
    },
    body: (w) => ({ beneficiary_id: w.guest?.user.id, party_id: w.partyId, granted_tier: 'tier_1' }),
  },
  'DELETE /api/v1/patronages/{id}': {
    async prepare(w) {
      await onTopPlan(owner);
      const beneficiary = await guest(w, true);
      const patronage = await ctx.app.services.patronages.create(owner.user.id, {
        beneficiary_id: beneficiary.user.id,
        party_id: w.partyId,
        granted_tier: 'tier_1',
      });
      w.patronageId = patronage.id;
    },
  },
  'POST /api/v1/reports': {
    prepare: reportTarget,
    body: (w) => ({ target_type: 'item_template', target_id: w.reportTargetId, reason: 'Fuzz report' }),
  },
  'POST /api/v1/shares': { body: (w) => ({ share: { kind: 'character', target_id: w.characterId } }) },
  'GET /api/v1/shares/{id}': { path: (w) => ({ id: w.shareCode }) },
  'DELETE /api/v1/users/me/api_tokens/{id}': {
    async prepare(w) {
      const token = await api<{ id: string }>('POST', '/users/me/api_tokens', owner, {
        api_token: { name: `fuzz ${sequence++}`, scope: 'read', expires_in_days: 7 },
      });
      w.apiTokenId = token.id;
    },
  },
  'DELETE /api/v1/users/me/sessions/{id}': {
    async prepare(w) {
      await ctx.app.services.accounts.login(await ownerEmail(), defaultPassword, {});
      const sessions = await api<{ id: string; current: boolean }[]>('GET', '/users/me/sessions', {
        auth: { authorization: `Bearer ${await ownerToken()}` },
      });
      w.sessionId = sessions.find((session) => !session.current)?.id ?? unknownId;
    },
  },
  'POST /api/v1/auth/refresh': { body: () => ({ refresh_token: owner.refresh_token }) },
  'PATCH /api/v1/item_instances/{id}': {
    async prepare(w) {
      const [row] = await ctx.database.db
        .select({ quantity: itemInstances.quantity })
        .from(itemInstances)
        .where(eq(itemInstances.id, w.instanceId));
      w.expectedQuantity = row?.quantity ?? 10;
    },
  },
  'POST /api/v1/auth/login': {
    async prepare(w) {
      w.ownerEmail = await ownerEmail();
    },
    body: (w) => ({ email: w.ownerEmail, password: defaultPassword }),
  },
  // The back office.
  'GET /api/v1/admin/operations/{id}': { prepare: bulkOperation },
  'POST /api/v1/admin/operations/{id}/cancel': { prepare: bulkOperation },
  'POST /api/v1/admin/reports/{id}/dismiss': { prepare: openReport },
  'POST /api/v1/admin/reports/{id}/unpublish': { prepare: openReport },
  'POST /api/v1/admin/users/{id}/suspend': { prepare: () => victimSuspended(false) },
  'POST /api/v1/admin/users/{id}/unsuspend': { prepare: () => victimSuspended(true) },
};

/** A bulk change of the victim's plan, started by the admin. */
async function bulkOperation(world: World) {
  const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, {
    target: 'users',
    filter: { email_contains: victim.user.email },
    action: 'change_tier',
    tier: 'tier_1',
  });
  // 409: the same one is still running (the fuzzed POST started it): that one.
  const recent = await api<{ id: string }[]>('GET', '/admin/bulk_operations', admin.adminAuth);
  world.operationId =
    started.statusCode < 300
      ? started.json<{ data: { id: string } }>().data.id
      : (recent[0]?.id ?? unknownId);
}

async function invitedGuest(world: World) {
  const user = await guest(world, false);
  const invitation = await ctx.app.services.parties.invite(owner.user.id, world.partyId, {
    username: user.user.username,
    role: 'player',
    message: '',
  });
  world.guestInvitationId = invitation.id;
}

async function ownerEmail(): Promise<string> {
  const [row] = await ctx.database.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, owner.user.id));
  return String(row?.email);
}

/**
 * The operations whose valid request cannot succeed in the fuzz's app, and why. Every other one must
 * answer its valid request with a 2xx, so that its hostile cases vary a field the answer turns on.
 */
const unreachable: Record<string, string> = {
  'POST /api/v1/auth/reset_password': 'its token arrives by mail only (accounts tests follow the link)',
  'POST /api/v1/auth/verify_email': 'its token arrives by mail only (accounts tests follow the link)',
  'POST /api/v1/users/email/revert': 'its token arrives by mail only (accounts tests follow the link)',
  'POST /api/v1/announcement_emails/one_click': 'its signed token arrives by mail only',
  'POST /api/v1/announcement_emails/resubscribe': 'its signed token arrives by mail only',
  'POST /api/v1/announcement_emails/unsubscribe': 'its signed token arrives by mail only',
  'POST /api/v1/auth/discord/start': 'Discord is not configured in the fuzz’s app (discord tests fake it)',
  'POST /api/v1/auth/discord/callback': 'Discord is not configured in the fuzz’s app (discord tests fake it)',
  'POST /api/v1/discord/interactions': 'Discord is not configured, and each call needs an Ed25519 signature',
  'DELETE /api/v1/users/me/discord': 'Discord is not configured, so no account is linked',
  'POST /api/v1/webhooks/stripe': 'Stripe is not configured, and each call needs a Stripe signature',
  'GET /api/v1/subscription/checkout/{session_id}': 'the local billing provider makes no checkout sessions',
  'PUT /api/v1/users/me/password':
    'a new password would sign the owner out under every later case; covered by accounts tests',
  'GET /api/v1/parties/preview':
    'its join_code is required by the route but optional in the document, so the sample leaves it out',
  'POST /api/v1/item_instances/{id}/merge': 'two stacks of one template in one container merge on creation',
  'POST /api/v1/transactions/{id}/undo': 'the world’s first transaction is a creation, which is not undone',
  'POST /api/v1/shop_instances/{id}/sell':
    'an earlier stocking shelves the owner’s goods at price 0, and a shop does not buy back what it gives away (to fix: goods of their own)',
  'POST /api/v1/admin/mass_mails': 'no user of the fuzz’s app would receive it, which the route refuses',
};

function planOf(operation: Operation): Plan {
  const plan = plans[`${operation.method} ${operation.path}`] ?? {};
  return operation.path.startsWith('/api/v1/admin/') ? { caller: 'admin', ...plan } : plan;
}

let sequence = 0;

function samplesFor(world: World, plan: Plan = {}): Samples {
  const byCollection: Record<string, string> = {
    parties: world.partyId,
    characters: world.characterId,
    containers: world.primaryContainerId,
    item_instances: world.instanceId,
    item_templates: world.templateId,
    transactions: world.transactionId,
    patronages: world.patronageId,
    invitations: world.invitationId,
    loot_templates: world.lootTemplateId,
    loot_instances: world.lootInstanceId,
    shop_templates: world.shopTemplateId,
    shop_instances: world.shopInstanceId,
    shop_requests: world.shopRequestId,
    // /admin/users/{id}
    users: victim.user.id,
    announcements: world.announcementId,
    reports: world.reportId,
    operations: world.operationId,
    jobs: world.jobId,
    shares: world.shareId,
    api_tokens: world.apiTokenId,
    sessions: world.sessionId,
    notifications: world.notificationId,
  };
  const byName: Record<string, string> = {
    partyId: world.partyId,
    characterId: world.characterId,
    // /characters/{id}/containers/{containerId} and /parties/{id}/containers/{containerId}
    containerId: world.bagId,
    userId: member.user.id,
    invitationId: world.invitationId,
    // /loot_templates/{id}/loot_items/{itemId}
    itemId: world.lootItemId,
    itemTemplateId: world.waresTemplateId,
  };
  const ids: Record<string, string> = {
    party_id: world.partyId,
    character_id: world.characterId,
    container_id: world.primaryContainerId,
    source_container_id: world.primaryContainerId,
    from_container_id: world.primaryContainerId,
    target_container_id: world.bagId,
    to_container_id: world.bagId,
    destination_container_id: world.stashId,
    item_instance_id: world.instanceId,
    target_instance_id: world.otherInstanceId,
    item_template_id: world.templateId,
    loot_template_id: world.lootTemplateId,
    beneficiary_id: member.user.id,
    shop_template_id: world.shopTemplateId,
    game_master_id: owner.user.id,
  };
  const paths = plan.path?.(world) ?? {};
  const body = plan.body;
  return {
    pathId: (name, previous) => paths[name] ?? byName[name] ?? byCollection[previous] ?? unknownId,
    ...(body ? { body: () => body(world) } : {}),
    field(name: string, schema: OpenApiSchema) {
      if (ids[name]) return ids[name];
      if (schema.format === 'uuid') return unknownId;
      sequence += 1;
      switch (name) {
        case 'email':
          return `fuzz-${seed}-${sequence}@example.com`;
        case 'username':
          return `fuzz_${sequence}`;
        case 'password':
        case 'password_confirmation':
        case 'current_password':
          return defaultPassword;
        case 'join_code':
          return world.joinCode;
        case 'tier_id':
        case 'granted_tier':
          return 'tier_1';
        case 'return_url':
          return '/subscription';
        case 'resource':
          return 'characters';
        case 'feature':
          return 'party_collaboration';
        case 'image_url':
          return 'https://example.com/hero.png';
        case 'redirect':
          return '/characters';
        case 'contents_fingerprint':
          return world.fingerprint;
        case 'confirm_email':
          return victim.user.email;
        case 'starts_at':
          return new Date(Date.now() - 60_000).toISOString();
        case 'ends_at':
          return new Date(Date.now() + 86_400_000).toISOString();
        // A coin to convert, or a day (the analytics' range).
        case 'from':
          return schema.enum ? 'gp' : new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
        case 'to':
          return schema.enum ? 'sp' : new Date().toISOString().slice(0, 10);
        case 'url':
          return world.shareUrl;
        case 'expected_quantity':
          return world.expectedQuantity;
        case 'signed_up_before':
          return '2999-01-01';
        case 'signed_up_after':
          return '2000-01-01';
        case 'email_contains':
          return victim.user.email;
        default:
          return undefined;
      }
    },
  };
}

/**
 * The world's samples, with text of its own for each free-text field of each request: no request repeats
 * what an earlier one saved (which a service may answer as unchanged, without reaching its numbers).
 */
function freshSamplesFor(world: World): Samples {
  const samples = samplesFor(world);
  let sequence = 0;
  return {
    ...samples,
    field(name, schema) {
      const known = samples.field(name, schema);
      if (known !== undefined || !isFreeText(schema)) return known;
      sequence += 1;
      const text = `fz${sequence}`.padEnd(schema.minLength ?? 0, 'z');
      return text.length <= (schema.maxLength ?? text.length) ? text : undefined;
    },
  };
}

/** Why an answer breaks the contract, or undefined when it keeps it. */
function breach(response: LightMyRequestResponse, operation?: Operation): string | undefined {
  const status = response.statusCode;
  // oEmbed 1.0 answers in its own format, which its consumers read (shares.routes.ts), not the envelope.
  if (operation?.path === '/api/v1/oembed' && status === 200) return undefined;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 200)}`;
  if (status === 204) return response.body === '' ? undefined : 'a 204 with a body';
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('text/csv') && status < 300) return undefined;
  if (!type.startsWith('application/json')) return `answered ${status} as "${type}"`;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `answered ${status} with JSON that does not parse`;
  }
  if (status >= 400) {
    const envelope = errorEnvelopeSchema.safeParse(body);
    if (!envelope.success) return `answered ${status} outside the envelope: ${response.body.slice(0, 200)}`;
    if (envelope.data.error.status !== status)
      return `answered ${status} with error.status ${envelope.data.error.status}`;
    return undefined;
  }
  const success = (body as { status?: unknown } | null)?.status;
  return success === 'success' ? undefined : `answered ${status} outside the success envelope`;
}

/** An answer whose status the operation does not list in the document (its failures included). */
function undocumented(operation: Operation, response: LightMyRequestResponse): string | undefined {
  return documents(operation, response.statusCode)
    ? undefined
    : `answered ${response.statusCode}, which the document does not list (${operation.statuses.join(', ')})`;
}

async function send(request: FuzzRequest, token: string | undefined) {
  return ctx.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...request.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

/** The owner's token, signed in again when a fuzzed request ended the session (logout, email change). */
async function ownerToken(): Promise<string> {
  try {
    await ctx.app.services.accounts.authenticate(await ctx.app.services.accessTokens.verify(owner.token));
    return owner.token;
  } catch {
    const [row] = await ctx.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, owner.user.id));
    const session = await ctx.app.services.accounts.login(String(row?.email), defaultPassword, {});
    owner = { ...owner, ...session, auth: { authorization: `Bearer ${session.token}` } };
    return owner.token;
  }
}

/** The admin's headers, with a new admin session when a fuzzed request ended the last one. */
async function adminHeaders(): Promise<Record<string, string>> {
  const verify = await callApi(ctx, 'GET', '/admin/sessions/verify', admin.adminAuth);
  if (verify.statusCode !== 200) {
    const token = await ctx.app.services.accounts.login(admin.user.email, defaultPassword, {});
    admin = await enterAdminMode(ctx, {
      ...admin,
      ...token,
      auth: { authorization: `Bearer ${token.token}` },
    });
  }
  return admin.adminAuth.auth;
}

async function headersOf(caller: Caller, world: World): Promise<Record<string, string>> {
  if (caller === 'admin') return adminHeaders();
  const user = caller === 'member' ? member : caller === 'guest' ? world.guest : undefined;
  return { authorization: `Bearer ${user ? user.token : await ownerToken()}` };
}

async function sendAs(request: FuzzRequest, headers: Record<string, string> | undefined) {
  return ctx.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...request.headers, ...headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

/** Runs the operation's cases; answers the status of its valid request. */
async function fuzz(operation: Operation, world: World, index: number, failures: string[]): Promise<number> {
  const plan = planOf(operation);
  await plan.prepare?.(world);
  const caller = plan.caller ?? 'owner';
  const cases = casesFor(operation, samplesFor(world, plan), { seed: seed + index, sometimesPerField });
  const [baseline, ...hostileCases] = cases;
  if (!baseline) return 0;
  let headers = await headersOf(caller, world);
  const check = async (request: FuzzRequest, who: 'owner' | 'anonymous') => {
    const response = await sendAs(request, who === 'owner' ? headers : undefined);
    const problem = breach(response, operation) ?? undocumented(operation, response);
    if (problem) failures.push(`${who === 'owner' ? caller : who}: ${request.label}: ${problem}`);
    // The request may have ended the caller's session (a logout): the next ones sign in again.
    if (
      who === 'owner' &&
      (response.statusCode === 401 || (caller === 'admin' && response.statusCode === 403))
    )
      headers = await headersOf(caller, world);
    return response.statusCode;
  };
  const reached = await check(baseline, 'owner');
  const anonymous = await send(baseline, undefined);
  const anonymousProblem = breach(anonymous, operation) ?? undocumented(operation, anonymous);
  if (anonymousProblem) failures.push(`anonymous: ${baseline.label}: ${anonymousProblem}`);
  // Refused for want of a sign-in, not for wrong credentials (a sign-in's own 401 INVALID_CREDENTIALS).
  const needsSignIn =
    anonymous.statusCode === 401 &&
    anonymous.json<{ error?: { code?: string } }>().error?.code === 'UNAUTHORIZED';
  if (needsSignIn !== operation.needsSignIn)
    failures.push(
      `anonymous: ${baseline.label}: answered ${anonymous.statusCode}, but the document says it ${operation.needsSignIn ? 'needs' : 'does not need'} a sign-in`,
    );
  if (anonymous.statusCode === 401) {
    // A protected operation: everything as the caller, and a sample anonymously, which must be refused in
    // the envelope whatever the input (authentication comes before validation).
    for (const [position, request] of hostileCases.entries()) {
      await check(request, 'owner');
      if (position % 25 === 0) await check(request, 'anonymous');
    }
  } else {
    // A public operation: the hostile cases alternate between the caller and an anonymous caller.
    for (const [position, request] of hostileCases.entries())
      await check(request, position % 2 === 0 ? 'anonymous' : 'owner');
  }
  await plan.restore?.(world);
  return reached;
}

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers the document', () => {
    expect(operations.length).toBeGreaterThan(80);
  });

  it(
    'answers every hostile request below 500 and in the envelope',
    async () => {
      const failures: string[] = [];
      // Reads first, deletions last: a request that removes a row is followed by a fresh world.
      const rank = (operation: Operation) =>
        operation.method === 'GET' ? 0 : operation.method === 'DELETE' ? 2 : 1;
      const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
      let world = await createWorld();
      const unreached: string[] = [];
      for (const [index, operation] of ordered.entries()) {
        if (!(await intact(world))) world = await createWorld();
        const status = await fuzz(operation, world, index, failures);
        const name = `${operation.method} ${operation.path}`;
        if (status >= 300 && !unreachable[name]) unreached.push(`${name}: ${status}`);
      }
      expect(failures.slice(0, 40), `${failures.length} breaches`).toEqual([]);
      // Coverage cannot fall silently: every valid request succeeds, but for the reasoned exceptions.
      expect(unreached, 'valid requests that did not succeed').toEqual([]);
    },
    process.env.FUZZ_THOROUGH ? 1_800_000 : 240_000,
  );

  it('caps every number a client sends inside a 4-byte integer, or says why it need not be', () => {
    const uncapped: string[] = [];
    for (const operation of operations)
      for (const field of numericFields(operation)) {
        const { maximum, enum: choices } = field.schema;
        // A choice among numbers (an API token's 7, 30, 90 or 365 days) is as capped as a maximum.
        const largest = choices ? Math.max(...choices.map(Number)) : maximum;
        if (largest !== undefined && largest <= 2_147_483_647) continue;
        if (!boundless[field.name]) uncapped.push(`${operation.method} ${operation.path} ${field.name}`);
      }
    expect(uncapped).toEqual([]);
  });

  it('answers boundary integers in every numeric field and parameter below 500 and in the envelope', async () => {
    const failures: string[] = [];
    let world = await createWorld();
    let token = await ownerToken();
    for (const operation of operations.filter((op) => numericFields(op).length > 0)) {
      if (!(await intact(world))) world = await createWorld();
      for (const request of boundaryIntegerCases(operation, freshSamplesFor(world))) {
        const response = await send(request, token);
        const problem = breach(response, operation) ?? undocumented(operation, response);
        if (problem) failures.push(`${request.label}: ${problem}`);
        if (response.statusCode === 401) token = await ownerToken();
      }
    }
    expect(failures.slice(0, 40), `${failures.length} breaches`).toEqual([]);
  }, 60_000);
});
