import {
  type FeatureKey,
  featureKeys,
  limitExceededMessage,
  limitKeys,
  liveFeatureKeys,
  liveLimitKeys,
  liveUsageResources,
  subscriptionMessages,
  usageResources,
} from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';

interface Body {
  status: string;
  data: Record<string, unknown> & {
    subscription?: Record<string, unknown>;
    tier?: Record<string, unknown>;
    usage?: Record<string, { used: number; limit: number | null }>;
  };
  meta?: Record<string, unknown>;
  message?: string;
  error: { code: string; message: string; details?: Record<string, unknown>[] };
}

let ctx: TestContext;
let clockOffsetMs = 0;

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => ctx.close());

const get = async (url: string, user?: SignedInUser) =>
  ctx.app.inject({ url, ...(user ? { headers: user.auth } : {}) });
const post = async (url: string, user: SignedInUser | undefined, payload?: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url,
    ...(user ? { headers: user.auth } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const body = (response: { json(): unknown }) => response.json() as Body;

/** Every feature, limit and usage key that is not live here: AI, the API, branding, support. */
const unbuilt: string[] = [
  ...featureKeys.filter((key) => !liveFeatureKeys.includes(key)),
  ...limitKeys.filter((key) => !liveLimitKeys.includes(key)),
  ...usageResources.filter((key) => !liveUsageResources.includes(key)),
];
/** How a plan description would mention a feature that is not live. */
const featureWords: Partial<Record<FeatureKey, RegExp>> = {
  loot_distribution: /\bloot/i,
  ai_tools: /\bAI\b/,
  api_access: /\bAPI\b/,
  custom_branding: /branding/i,
  premium_support: /support/i,
};

describe('tiers', () => {
  it('lists the four seeded plans in rank order, publicly', async () => {
    const response = await get('/api/v1/subscription/tiers');
    expect(response.statusCode).toBe(200);
    const tiers = body(response).data as unknown as {
      identifier: string;
      price: number;
      limits: Record<string, unknown>;
    }[];
    expect(tiers.map((t) => t.identifier)).toEqual(['tier_free', 'tier_1', 'tier_2', 'tier_3']);
    expect(tiers.map((t) => t.price)).toEqual([0, 5, 10, 20]);
    expect(tiers[0]?.limits).toMatchObject({ characters: 1, item_templates: null, shop_templates: 0 });
    expect(tiers[3]?.limits).toMatchObject({ characters: null, shop_deployments_monthly: null });
    expect(body(response).meta).toEqual({ billing_provider: 'local' });
  });

  it('describes the Free plan as its limits are: one party run and one more joined', async () => {
    const tiers = body(await get('/api/v1/subscription/tiers')).data as unknown as {
      identifier: string;
      description: string;
      limits: Record<string, number | null>;
    }[];
    const free = tiers.find((tier) => tier.identifier === 'tier_free');
    expect(free?.limits).toMatchObject({ characters: 1, parties_can_create: 1, parties_can_join: 1 });
    expect(free?.description).toBe(
      'One character, one party you run and one more you join, and your own inventory.',
    );
  });

  it('sells only what is live on this server: no unbuilt feature or limit in any plan', async () => {
    const tiers = body(await get('/api/v1/subscription/tiers')).data as unknown as {
      description: string;
      limits: Record<string, unknown>;
      features: Record<string, boolean>;
    }[];
    for (const tier of tiers) {
      expect(Object.keys(tier.limits).sort()).toEqual([...liveLimitKeys].sort());
      expect(Object.keys(tier.features).sort()).toEqual([...liveFeatureKeys].sort());
      for (const key of unbuilt) {
        expect(tier.limits).not.toHaveProperty(key);
        expect(tier.features).not.toHaveProperty(key);
      }
      for (const [feature, word] of Object.entries(featureWords)) {
        if (!liveFeatureKeys.includes(feature as FeatureKey)) expect(tier.description).not.toMatch(word);
      }
    }
    // The live set is what this server has built; AI, the API, branding and support are not yet.
    expect(liveFeatureKeys).toEqual(
      expect.arrayContaining([
        'party_collaboration',
        'patronage_system',
        'shops_deployment',
        'loot_distribution',
      ]),
    );
    expect(liveLimitKeys).toEqual(
      expect.arrayContaining([
        'shop_templates',
        'shop_instances',
        'shop_deployments_monthly',
        'loot_templates',
        'loot_instances',
        'loot_deployments_monthly',
      ]),
    );
    expect(liveFeatureKeys).not.toContain('ai_tools');
    // The plans say what is sold: loot is named once it is live.
    expect(tiers.find((tier) => tier.description.match(/\bloot\b/i))).toBeDefined();
  });

  it('presents only live limits, features and usage in the plan, the comparison and the effective tier', async () => {
    const user = await createUser(ctx);
    const current = body(await get('/api/v1/subscription/current', user)).data;
    const usage = body(await get('/api/v1/subscription/usage', user)).data;
    const compared = body(await get('/api/v1/subscription/compare?current=tier_free&target=tier_3', user))
      .data as unknown as {
      current: { limits: Record<string, unknown>; features: Record<string, unknown> };
      target: { limits: Record<string, unknown>; features: Record<string, unknown> };
      limits: { key: string }[];
      features: { key: string }[];
    };
    const effective = body(await get('/api/v1/subscription/effective_tier', user)).data as unknown as {
      tier: { limits: Record<string, unknown>; features: Record<string, unknown> };
    };
    const presented = [
      Object.keys(current.tier?.limits as object),
      Object.keys(current.tier?.features as object),
      Object.keys(current.usage ?? {}),
      Object.keys(usage),
      Object.keys(compared.current.limits),
      Object.keys(compared.target.features),
      compared.limits.map((row) => row.key),
      compared.features.map((row) => row.key),
      Object.keys(effective.tier.limits),
      Object.keys(effective.tier.features),
    ].flat();
    for (const key of unbuilt) expect(presented).not.toContain(key);
    expect(compared.limits.map((row) => row.key)).toEqual(liveLimitKeys);
    expect(compared.features.map((row) => row.key)).toEqual(liveFeatureKeys);
    expect(Object.keys(usage).sort()).toEqual([...liveUsageResources].sort());
  });

  it('still enforces the unbuilt entitlements the plans carry', async () => {
    const user = await createUser(ctx);
    const check = await post('/api/v1/subscription/check_limit', user, { resource: 'ai_uses_monthly' });
    expect(body(check).data).toMatchObject({ allowed: true, limit: 5, used: 0 });
    const loot = await post('/api/v1/subscription/check_limit', user, { resource: 'loot_templates' });
    expect(body(loot).data).toMatchObject({ allowed: false, limit: 0 });
  });
});

describe('current subscription', () => {
  it('puts every new user on the Free plan with usage for every resource', async () => {
    const user = await createUser(ctx);
    expect(user.user).toMatchObject({ tier: 'tier_free', subscription_status: 'active' });
    const response = await get('/api/v1/subscription/current', user);
    expect(response.statusCode).toBe(200);
    const { data } = body(response);
    expect(data.subscription).toMatchObject({
      tier: 'tier_free',
      status: 'active',
      cancel_at_period_end: false,
    });
    expect(data.tier).toMatchObject({ identifier: 'tier_free', name: 'Free' });
    expect(data.usage?.characters).toEqual({ used: 0, limit: 1 });
    expect(data.usage?.item_templates).toEqual({ used: 0, limit: null });
    expect(data.patronages).toEqual({ granted: [], received: [] });
  });

  it('requires sign-in for everything but the tiers', async () => {
    for (const url of [
      '/api/v1/subscription/current',
      '/api/v1/subscription/usage',
      '/api/v1/subscription/usage/inventory',
    ]) {
      expect((await get(url)).statusCode).toBe(401);
    }
    expect((await post('/api/v1/subscription/checkout', undefined, { tier_id: 'tier_1' })).statusCode).toBe(
      401,
    );
  });

  it('reports monthly inventory usage', async () => {
    const user = await createUser(ctx);
    const response = await get('/api/v1/subscription/usage/inventory', user);
    expect(body(response).data).toEqual({
      personal: { used: 0, limit: 100 },
      party: { used: 0, limit: 200 },
    });
  });
});

describe('checks', () => {
  it('checks limits with a count and refuses unknown resources', async () => {
    const user = await createUser(ctx);
    const one = await post('/api/v1/subscription/check_limit', user, { resource: 'characters' });
    expect(body(one).data).toMatchObject({ allowed: true, limit: 1, used: 0, remaining: 1 });
    const two = await post('/api/v1/subscription/check_limit', user, { resource: 'characters', count: 2 });
    expect(body(two).data).toMatchObject({
      allowed: false,
      message: 'Your Free plan allows 1 character. Upgrade to create more.',
    });
    const unknown = await post('/api/v1/subscription/check_limit', user, { resource: 'dragons' });
    expect(unknown.statusCode).toBe(422);
    const zero = await post('/api/v1/subscription/check_limit', user, { resource: 'characters', count: 0 });
    expect(zero.statusCode).toBe(422);
  });

  it('answers allowed false, never an error, for any feature problem', async () => {
    const user = await createUser(ctx);
    expect(
      body(await post('/api/v1/subscription/check_feature', user, { feature: 'party_view_access' })).data
        .allowed,
    ).toBe(true);
    expect(
      body(await post('/api/v1/subscription/check_feature', user, { feature: 'ai_tools' })).data.allowed,
    ).toBe(false);
    for (const payload of [
      { feature: 'nope' },
      { feature: 42 },
      {},
      { feature: 'ai_tools', party_id: ['x'] },
    ]) {
      const response = await post('/api/v1/subscription/check_feature', user, payload);
      expect(response.statusCode).toBe(200);
      expect(body(response).data.allowed).toBe(false);
    }
  });

  it('compares the current plan with the next one by default, or any two', async () => {
    const user = await createUser(ctx);
    const byDefault = body(await get('/api/v1/subscription/compare', user)).data as unknown as {
      current: { identifier: string };
      target: { identifier: string };
      limits: { key: string; current: number | null; target: number | null }[];
      features: { key: string; current: boolean; target: boolean }[];
    };
    expect([byDefault.current.identifier, byDefault.target.identifier]).toEqual(['tier_free', 'tier_1']);
    expect(byDefault.limits).toContainEqual({ key: 'characters', current: 1, target: 5 });
    expect(byDefault.features).toContainEqual({ key: 'shops_deployment', current: false, target: true });
    const chosen = body(await get('/api/v1/subscription/compare?current=tier_1&target=tier_3', user))
      .data as unknown as {
      limits: { key: string; target: number | null }[];
    };
    expect(chosen.limits).toContainEqual({ key: 'characters', current: 5, target: null });
    expect((await get('/api/v1/subscription/compare?target=tier_9', user)).statusCode).toBe(422);
  });

  it('answers the effective tier', async () => {
    const user = await createUser(ctx);
    const response = body(await get('/api/v1/subscription/effective_tier', user));
    expect(response.data).toMatchObject({ tier: { identifier: 'tier_free' }, source: 'subscription' });
    expect((await get('/api/v1/subscription/effective_tier?party_id=whatever', user)).statusCode).toBe(422);
  });

  it('answers 404 for a party the user is not in, as other party calls do (review finding 6)', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const outsider = await createUser(ctx);
    const member = await createMember(ctx, party, 'player');
    for (const partyId of [party.id, crypto.randomUUID()]) {
      const refused = await get(`/api/v1/subscription/effective_tier?party_id=${partyId}`, outsider);
      expect(refused.statusCode).toBe(404);
      expect(body(refused).error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Party not found.' });
    }
    for (const user of [gm, member]) {
      const answered = await get(`/api/v1/subscription/effective_tier?party_id=${party.id}`, user);
      expect(answered.statusCode).toBe(200);
    }
  });

  it('takes the party of a character_id, whose patronage then applies (spec/01 §7)', async () => {
    const patron = await createUser(ctx);
    await upgrade(ctx, patron, 'tier_2');
    const party = await createParty(ctx, patron);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    const granted = await post('/api/v1/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(granted.statusCode).toBe(201);
    const effective = (query: string, user = player) =>
      get(`/api/v1/subscription/effective_tier?${query}`, user);
    const feature = (payload: Record<string, unknown>, user = player) =>
      post('/api/v1/subscription/check_feature', user, { feature: 'party_collaboration', ...payload });

    expect(body(await effective(`character_id=${hero.id}`)).data).toMatchObject({
      tier: { identifier: 'tier_2' },
      source: 'patronage',
    });
    expect(body(await feature({ character_id: hero.id })).data).toEqual({
      allowed: true,
      feature: 'party_collaboration',
    });
    // Without a party the player's own Free plan applies.
    expect(body(await effective('')).data).toMatchObject({ tier: { identifier: 'tier_free' } });
    expect(body(await feature({})).data.allowed).toBe(false);

    // A character in no party: the caller's own plan.
    const loner = await createUser(ctx);
    const solo = await createCharacter(ctx, loner);
    expect(body(await effective(`character_id=${solo.id}`, loner)).data).toMatchObject({
      tier: { identifier: 'tier_free' },
      source: 'subscription',
    });

    // A character the caller may not see is not found (false for check_feature); a party that
    // disagrees with the character's is refused.
    const stranger = await createUser(ctx);
    expect((await effective(`character_id=${hero.id}`, stranger)).statusCode).toBe(404);
    expect((await effective(`character_id=${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect(body(await feature({ character_id: hero.id }, stranger)).data.allowed).toBe(false);
    const mismatch = await effective(`character_id=${hero.id}&party_id=${crypto.randomUUID()}`);
    expect(mismatch.statusCode).toBe(422);
    expect(body(mismatch).error.details).toEqual([
      { field: 'character_id', message: 'The character is not in this party.' },
    ]);
    expect(body(await feature({ character_id: hero.id, party_id: crypto.randomUUID() })).data.allowed).toBe(
      false,
    );
    expect(body(await feature({ character_id: 'not-an-id' })).data.allowed).toBe(false);
    expect((await effective('character_id=not-an-id')).statusCode).toBe(422);
  });

  it('answers API access and patronage on the own plan even in a party where a sponsor grants Hero', async () => {
    const patron = await createUser(ctx);
    await upgrade(ctx, patron, 'tier_2');
    const party = await createParty(ctx, patron);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    expect(
      (await post('/api/v1/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id }))
        .statusCode,
    ).toBe(201);
    const allowed = async (feature: FeatureKey, context: Record<string, unknown>) =>
      body(await post('/api/v1/subscription/check_feature', player, { feature, ...context })).data.allowed;

    for (const context of [{ party_id: party.id }, { character_id: hero.id }]) {
      // The sponsor's Hero plan applies in the party...
      expect(await allowed('party_collaboration', context)).toBe(true);
      // ...but not to what follows the player's own Free plan, as the actions themselves do.
      expect(await allowed('patronage_system', context)).toBe(false);
      expect(await allowed('api_access', context)).toBe(false);
    }
    const other = await createMember(ctx, party, 'player');
    const sponsoring = await post('/api/v1/patronages', player, {
      beneficiary_id: other.user.id,
      party_id: party.id,
    });
    expect(sponsoring.statusCode).toBe(403);
    expect(body(sponsoring).error.code).toBe('FEATURE_NOT_AVAILABLE');

    // A Hero of their own has both, in the party or not.
    await upgrade(ctx, player, 'tier_2');
    expect(await allowed('patronage_system', { party_id: party.id })).toBe(true);
    expect(await allowed('api_access', { party_id: party.id })).toBe(true);
  });
});

describe('upgrade, cancel and reactivate with local billing', () => {
  it('upgrades at once by identifier or id and says no payment is taken', async () => {
    const user = await createUser(ctx);
    const response = await post('/api/v1/subscription/checkout', user, {
      tier_id: 'tier_2',
      return_url: '/subscription/success',
    });
    expect(response.statusCode).toBe(200);
    const { data, message } = body(response);
    expect(message).toBe('Local billing: no payment is taken');
    expect(String(data.session_id)).toMatch(/^local_/);
    // A path on this app, not APP_URL's origin: the browser stays on the address it uses, with its session.
    expect(data.checkout_url).toBe(`/subscription/success?session_id=${data.session_id}`);
    const absolute = await post('/api/v1/subscription/checkout', await createUser(ctx), {
      tier_id: 'tier_1',
      return_url: 'http://haversack.test/subscription/success?from=plans',
    });
    expect(body(absolute).data.checkout_url).toMatch(
      /^\/subscription\/success\?from=plans&session_id=local_/,
    );
    const current = body(await get('/api/v1/subscription/current', user)).data;
    expect(current.subscription).toMatchObject({ tier: 'tier_2', status: 'active', provider: 'local' });
    expect(current.usage?.characters).toEqual({ used: 0, limit: 20 });
    const me = body(await get('/api/v1/auth/me', user)).data.user as Record<string, unknown>;
    expect(me).toMatchObject({ tier: 'tier_2' });
    expect(me.tier_upgraded_at).not.toBeNull();

    const tiers = body(await get('/api/v1/subscription/tiers')).data as unknown as {
      id: string;
      identifier: string;
    }[];
    const legendId = tiers.find((t) => t.identifier === 'tier_3')?.id;
    await post('/api/v1/subscription/checkout', user, { tier_id: legendId });
    expect(body(await get('/api/v1/subscription/current', user)).data.subscription).toMatchObject({
      tier: 'tier_3',
    });
  });

  // Review: the success page thanked for, and showed, any reference put in its address.
  it('answers a checkout by its reference only to the user it was issued to', async () => {
    const user = await createUser(ctx);
    const started = await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    const sessionId = String(body(started).data.session_id);
    const found = await get(`/api/v1/subscription/checkout/${sessionId}`, user);
    expect(found.statusCode, found.body).toBe(200);
    expect(body(found).data).toMatchObject({ session_id: sessionId });

    const other = await createUser(ctx);
    const foreign = await get(`/api/v1/subscription/checkout/${sessionId}`, other);
    expect(foreign.statusCode).toBe(404);
    expect(body(foreign).error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: subscriptionMessages.checkoutNotFound,
    });
    const madeUp = await get(`/api/v1/subscription/checkout/local_${'0'.repeat(24)}`, user);
    expect(madeUp.statusCode).toBe(404);
    expect((await get(`/api/v1/subscription/checkout/${sessionId}`)).statusCode).toBe(401);
    // Longer than any provider's reference: no route takes it.
    expect((await get(`/api/v1/subscription/checkout/${'a'.repeat(300)}`, user)).statusCode).toBe(404);
  });

  it('refuses unknown plans, the free plan, the same plan and foreign return addresses', async () => {
    const user = await createUser(ctx);
    expect((await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_99' })).statusCode).toBe(422);
    expect((await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_free' })).statusCode).toBe(
      422,
    );
    expect((await post('/api/v1/subscription/checkout', user, {})).statusCode).toBe(422);
    const evil = await post('/api/v1/subscription/checkout', user, {
      tier_id: 'tier_1',
      return_url: 'https://evil.test/x',
    });
    expect(evil.statusCode).toBe(422);
    expect(body(evil).error.details?.[0]).toMatchObject({ field: 'return_url' });
    expect(body(await get('/api/v1/subscription/current', user)).data.subscription).toMatchObject({
      tier: 'tier_free',
    });
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    const again = await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    expect(again.statusCode).toBe(409);
  });

  it('accepts only return pages of this app, refusing every hostile form with 422 (review finding 3)', async () => {
    const user = await createUser(ctx);
    const hostile = [
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      '/%2f/evil.example',
      '/%5Cevil.example',
      '/%252F%252Fevil.example',
      '/\t/evil.example',
      '/',
      'https://evil.example/x',
      'http://haversack.test.evil.example/x',
      'http://haversack.test@evil.example/x',
      'http://haversack.test//evil.example',
      'http://haversack.test/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'data:text/html,hi',
      'evil.example',
      '%2F%2Fevil.example',
    ];
    for (const returnUrl of hostile) {
      for (const [url, payload] of [
        ['/api/v1/subscription/checkout', { tier_id: 'tier_1', return_url: returnUrl }],
        ['/api/v1/subscription/billing_portal', { return_url: returnUrl }],
      ] as const) {
        const response = await post(url, user, payload);
        expect(response.statusCode, `${url} ${returnUrl}: ${response.body}`).toBe(422);
        expect(body(response).error.details?.[0]).toMatchObject({ field: 'return_url' });
      }
    }
    expect(body(await get('/api/v1/subscription/current', user)).data.subscription).toMatchObject({
      tier: 'tier_free',
    });
    const fine = await post('/api/v1/subscription/checkout', user, {
      tier_id: 'tier_1',
      return_url: '/subscription/success?from=%2F%2Fplans#top',
    });
    expect(fine.statusCode).toBe(200);
    expect(body(fine).data.checkout_url).toMatch(
      /^\/subscription\/success\?from=%2F%2Fplans&session_id=local_\w+#top$/,
    );
  });

  it('applies concurrent checkouts of one user, never answering 404 (review finding 2; PostgreSQL)', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser(ctx)));
    const responses = await Promise.all(
      users.flatMap((user) => [
        post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' }),
        post('/api/v1/subscription/checkout', user, { tier_id: 'tier_2' }),
      ]),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    for (const user of users) {
      const tier = body(await get('/api/v1/subscription/current', user)).data.subscription?.tier;
      expect(['tier_1', 'tier_2']).toContain(tier);
    }
  });

  it('cancels at period end keeping the plan until then, reactivates, and lapses to Free after the end', async () => {
    const user = await createUser(ctx);
    expect((await post('/api/v1/subscription/cancel', user, { reason: 'x' })).statusCode).toBe(400);
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });

    const cancelled = await post('/api/v1/subscription/cancel', user, {
      reason: 'Campaign ended',
      cancel_at_period_end: true,
    });
    expect(cancelled.statusCode).toBe(200);
    const subscription = body(cancelled).data as Record<string, unknown>;
    expect(subscription).toMatchObject({
      tier: 'tier_1',
      cancel_at_period_end: true,
      cancel_reason: 'Campaign ended',
    });
    expect(Date.parse(String(subscription.current_period_end))).toBeGreaterThan(Date.now());

    // A second cancel is refused as a second reactivate is, and leaves the cancellation as it was.
    const before = body(await get('/api/v1/subscription/current', user)).data.subscription;
    clockOffsetMs = 60_000;
    const again = await post('/api/v1/subscription/cancel', user, {
      reason: 'Changed my mind twice',
      cancel_at_period_end: true,
    });
    clockOffsetMs = 0;
    expect(again.statusCode).toBe(400);
    expect(body(again).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: subscriptionMessages.alreadyCancelled,
    });
    expect(body(await get('/api/v1/subscription/current', user)).data.subscription).toEqual(before);

    const reactivated = await post('/api/v1/subscription/reactivate', user);
    expect(body(reactivated).data).toMatchObject({
      tier: 'tier_1',
      cancel_at_period_end: false,
      cancel_reason: null,
    });
    expect((await post('/api/v1/subscription/reactivate', user)).statusCode).toBe(400);

    await post('/api/v1/subscription/cancel', user, { reason: 'Really', cancel_at_period_end: true });
    clockOffsetMs = 32 * 24 * 3600_000;
    try {
      const lapsed = body(await get('/api/v1/subscription/current', user)).data;
      expect(lapsed.subscription).toMatchObject({ tier: 'tier_free', status: 'cancelled' });
      expect(lapsed.usage?.characters?.limit).toBe(1);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('cancels immediately when asked', async () => {
    const user = await createUser(ctx);
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    const response = await post('/api/v1/subscription/cancel', user, {
      reason: 'Now',
      cancel_at_period_end: false,
    });
    expect(body(response).data).toMatchObject({ tier: 'tier_free', status: 'cancelled' });
  });

  // Review: ending a pending cancellation at once, with no new reason, erased the reason given first.
  it('keeps the reason of a pending cancellation that is then made immediate without one', async () => {
    const user = await createUser(ctx);
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    await post('/api/v1/subscription/cancel', user, { reason: 'Too dear', cancel_at_period_end: true });
    const now = await post('/api/v1/subscription/cancel', user, { cancel_at_period_end: false });
    expect(now.statusCode, now.body).toBe(200);
    expect(body(now).data).toMatchObject({ tier: 'tier_free', cancel_reason: 'Too dear' });

    // A new reason given with the immediate cancel replaces it.
    const other = await createUser(ctx);
    await post('/api/v1/subscription/checkout', other, { tier_id: 'tier_1' });
    await post('/api/v1/subscription/cancel', other, { reason: 'Too dear', cancel_at_period_end: true });
    const replaced = await post('/api/v1/subscription/cancel', other, {
      reason: 'Group disbanded',
      cancel_at_period_end: false,
    });
    expect(body(replaced).data).toMatchObject({ cancel_reason: 'Group disbanded' });
  });

  it('ends a plan staff gave at once when its holder cancels it, since it has no period to run out', async () => {
    const user = await createUser(ctx);
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.subscriptions.grantTier(tx, user.user.id, 'tier_3'),
    );
    const granted = body(await get('/api/v1/subscription/current', user)).data.subscription;
    expect(granted).toMatchObject({ tier: 'tier_3', provider: null, current_period_end: null });
    const response = await post('/api/v1/subscription/cancel', user, { cancel_at_period_end: true });
    expect(response.statusCode).toBe(200);
    expect(body(response).data).toMatchObject({ tier: 'tier_free', cancel_at_period_end: false });
    expect(body(response).message).toBe('Your subscription has ended. You are on the Free plan.');
    expect(body(await get('/api/v1/subscription/current', user)).data.subscription).toMatchObject({
      tier: 'tier_free',
    });
  });

  it('renews a local subscription whose period has passed', async () => {
    const user = await createUser(ctx);
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' });
    clockOffsetMs = 40 * 24 * 3600_000;
    try {
      const renewed = body(await get('/api/v1/subscription/current', user)).data.subscription as Record<
        string,
        unknown
      >;
      expect(renewed).toMatchObject({ tier: 'tier_1', status: 'active' });
      expect(Date.parse(String(renewed.current_period_end))).toBeGreaterThan(Date.now() + clockOffsetMs);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('opens the local billing portal on this app', async () => {
    const user = await createUser(ctx);
    const response = await post('/api/v1/subscription/billing_portal', user, { return_url: '/subscription' });
    expect(body(response).data).toEqual({ portal_url: '/subscription?portal=local' });
  });
});

describe('limits under concurrency', () => {
  it('lets exactly the limit through when requests race for the last units', async () => {
    const { db } = ctx.database;
    await db.execute(
      sql`create table if not exists race_things (id serial primary key, user_id uuid not null)`,
    );
    const { entitlements } = ctx.app.services;
    // A stand-in resource owner: counts rows of a scratch table, as the characters module counts characters.
    entitlements.registerUsageCounter('characters', async (executor, userId) => {
      const result = await executor.execute(
        sql`select count(*)::int as n from race_things where user_id = ${userId}`,
      );
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    });
    const user = await createUser(ctx);
    await post('/api/v1/subscription/checkout', user, { tier_id: 'tier_1' }); // 5 characters
    const attempt = () =>
      db.transaction(async (tx) => {
        await entitlements.requireLimit(tx, user.user.id, 'characters');
        await tx.execute(sql`insert into race_things (user_id) values (${user.user.id})`);
      });
    const results = await Promise.allSettled(Array.from({ length: 12 }, attempt));
    const fulfilled = results.filter((r) => r.status === 'fulfilled').length;
    expect(fulfilled).toBe(5);
    const refusals = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason);
    expect(refusals.every((e) => e instanceof AppError && e.code === 'LIMIT_EXCEEDED')).toBe(true);
    const refusal = refusals[0] as AppError;
    expect(refusal.message).toBe(limitExceededMessage('Adventurer', 'characters', 5));
    expect(refusal.details?.[0]).toMatchObject({
      field: 'characters',
      resource: 'characters',
      limit: 5,
      used: 5,
    });
    const usage = body(await get('/api/v1/subscription/usage', user)).data as Record<string, unknown>;
    expect(usage.characters).toEqual({ used: 5, limit: 5 });
  });

  it('refuses a feature the plan lacks with FEATURE_NOT_AVAILABLE naming it', async () => {
    const user = await createUser(ctx);
    const error = await ctx.app.services.entitlements
      .requireFeature(ctx.database.db, user.user.id, 'shops_deployment')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE', status: 403 });
    expect((error as AppError).details?.[0]).toMatchObject({ feature: 'shops_deployment' });
  });
});
