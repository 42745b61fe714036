import { limitExceededMessage, partyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { subscriptions } from '../../db/schema/subscriptions.js';
import { createAdmin } from '../../test/admin.js';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  error: { code: string; message: string };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: SignedInUser, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: user.auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const body = (response: { json(): unknown }) => response.json() as Body;

async function setup() {
  const patron = await createUser(ctx);
  await upgrade(ctx, patron, 'tier_2');
  const party = await createParty(ctx, patron);
  const player = await createMember(ctx, party, 'player');
  return { patron, party, player };
}

describe('patronage', () => {
  it('raises the beneficiary’s tier inside that party only', async () => {
    const { patron, party, player } = await setup();
    const eligible = body(await call('GET', `/patronages/eligible/${party.id}`, patron)).data;
    // The plans the patron may grant them, not their own plan: above Free, up to the patron's Hero.
    expect(eligible).toEqual([
      expect.objectContaining({
        user_id: player.user.id,
        grantable_tiers: ['tier_1', 'tier_2'],
        sponsored: false,
      }),
    ]);
    expect(eligible[0]).not.toHaveProperty('own_tier');

    const created = await call('POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(created.statusCode).toBe(201);
    expect(body(created).data).toMatchObject({
      granted_tier: 'tier_2',
      active: true,
      party_name: party.name,
    });

    const inParty = body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, player)).data;
    expect(inParty).toMatchObject({ tier: { identifier: 'tier_2' }, source: 'patronage' });
    const outside = body(await call('GET', '/subscription/effective_tier', player)).data;
    expect(outside).toMatchObject({ tier: { identifier: 'tier_free' } });
    const feature = await call('POST', '/subscription/check_feature', player, {
      feature: 'shops_deployment',
      party_id: party.id,
    });
    expect(body(feature).data.allowed).toBe(true);
    const received = body(await call('GET', '/patronages/received', player)).data;
    expect(received).toHaveLength(1);
    const current = body(await call('GET', '/subscription/current', patron)).data as unknown as {
      patronages: { granted: unknown[] };
    };
    expect(current.patronages.granted).toHaveLength(1);
    // The patron's list says the sponsorship is theirs; another member's says it is someone else's.
    const mine = body(await call('GET', `/patronages/eligible/${party.id}`, patron)).data;
    expect(mine).toEqual([
      expect.objectContaining({ user_id: player.user.id, sponsored: true, sponsored_by_you: true }),
    ]);
    const other = await createMember(ctx, party, 'player');
    await upgrade(ctx, other, 'tier_3');
    const theirs = body(await call('GET', `/patronages/eligible/${party.id}`, other)).data;
    // Another patron learns that the member is taken, not by whom nor with what.
    expect(theirs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          user_id: player.user.id,
          sponsored: true,
          sponsored_by_you: false,
          patronage_id: null,
          granted_tier: null,
        }),
        // Hero or better already: nothing a Legend sponsor could grant lifts the patron past their plan.
        expect.objectContaining({ user_id: patron.user.id, grantable_tiers: ['tier_3'] }),
      ]),
    );
    expect(
      (await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id }))
        .statusCode,
    ).toBe(409);
  });

  it('needs patronage_system, a grant not above one’s own plan, and two members', async () => {
    const { patron, party, player } = await setup();
    const free = await createMember(ctx, party, 'player');
    expect(
      (await call('POST', '/patronages', free, { beneficiary_id: player.user.id, party_id: party.id }))
        .statusCode,
    ).toBe(403);
    const above = await call('POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
      granted_tier: 'tier_3',
    });
    expect(above.statusCode).toBe(422);
    const self = await call('POST', '/patronages', patron, {
      beneficiary_id: patron.user.id,
      party_id: party.id,
    });
    expect(self.statusCode).toBe(422);
    const outsider = await createUser(ctx);
    expect(
      (await call('POST', '/patronages', patron, { beneficiary_id: outsider.user.id, party_id: party.id }))
        .statusCode,
    ).toBe(422);
    const lower = await call('POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
      granted_tier: 'tier_1',
    });
    expect(body(lower).data).toMatchObject({ granted_tier: 'tier_1' });
    // The party's list names the plan granted, not the patron's own: the panel says what the member has.
    const listed = body(await call('GET', `/patronages/eligible/${party.id}`, patron)).data;
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: player.user.id, sponsored: true, granted_tier: 'tier_1' }),
        expect.objectContaining({ user_id: free.user.id, sponsored: false, granted_tier: null }),
      ]),
    );
  });

  it('lists the members only to a caller whose own plan has patronage, in the grant’s words', async () => {
    const { patron, party, player } = await setup();
    await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    const adventurer = await createMember(ctx, party, 'player');
    await upgrade(ctx, adventurer, 'tier_1');
    // The sponsored player has Hero in this party, but sponsoring follows their own plan.
    for (const [caller, plan] of [
      [player, 'Free'],
      [adventurer, 'Adventurer'],
    ] as const) {
      const refused = await call('GET', `/patronages/eligible/${party.id}`, caller);
      const granted = await call('POST', '/patronages', caller, {
        beneficiary_id: patron.user.id,
        party_id: party.id,
      });
      expect([refused.statusCode, granted.statusCode]).toEqual([403, 403]);
      expect(body(refused).error).toEqual(body(granted).error);
      expect(body(refused).error).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
      expect(body(refused).error.message).toContain(`not included in your ${plan} plan`);
    }
    // Outside the party it stays the 404 of a party one cannot see.
    const outsider = await createUser(ctx);
    await upgrade(ctx, outsider, 'tier_2');
    expect((await call('GET', `/patronages/eligible/${party.id}`, outsider)).statusCode).toBe(404);
  });

  it('refuses a grant no higher than the member’s own plan: it would change nothing', async () => {
    const { patron, party } = await setup();
    const hero = await createMember(ctx, party, 'player');
    await upgrade(ctx, hero, 'tier_2');
    for (const [granted_tier, name] of [
      ['tier_1', 'Adventurer'],
      ['tier_2', 'Hero'],
    ]) {
      const refused = await call('POST', '/patronages', patron, {
        beneficiary_id: hero.user.id,
        party_id: party.id,
        granted_tier,
      });
      expect(refused.statusCode).toBe(422);
      expect(body(refused).error.message).toContain(
        `${hero.user.username} already has ${name} or better: a sponsorship would change nothing.`,
      );
    }
    // The default grant is the patron's own plan, Hero here: refused as well.
    const byDefault = await call('POST', '/patronages', patron, {
      beneficiary_id: hero.user.id,
      party_id: party.id,
    });
    expect(byDefault.statusCode).toBe(422);
    expect(body(await call('GET', '/patronages/received', hero)).data).toHaveLength(0);
  });

  it('starts none in an archived party, and still lets a running one end there', async () => {
    const { patron, party, player } = await setup();
    const running = body(
      await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id }),
    ).data;
    const second = await createMember(ctx, party, 'player');
    expect((await call('POST', `/parties/${party.id}/archive`, patron)).statusCode).toBe(200);

    const refused = await call('POST', '/patronages', patron, {
      beneficiary_id: second.user.id,
      party_id: party.id,
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({ code: 'FORBIDDEN', message: partyMessages.archived });
    expect(body(await call('GET', '/patronages/received', second)).data).toHaveLength(0);
    expect(
      body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, second)).data,
    ).toMatchObject({ tier: { identifier: 'tier_free' } });
    // Someone outside the party still learns nothing of it, archived or not.
    const outsider = await createUser(ctx);
    await upgrade(ctx, outsider, 'tier_2');
    const hidden = await call('POST', '/patronages', outsider, {
      beneficiary_id: second.user.id,
      party_id: party.id,
    });
    expect(hidden.statusCode).toBe(404);

    // Ending one takes a benefit away, as leaving does, which an archived party allows.
    expect((await call('DELETE', `/patronages/${running.id}`, patron)).statusCode).toBe(204);
    expect(
      body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, player)).data,
    ).toMatchObject({ tier: { identifier: 'tier_free' } });

    expect((await call('POST', `/parties/${party.id}/unarchive`, patron)).statusCode).toBe(200);
    const again = await call('POST', '/patronages', patron, {
      beneficiary_id: second.user.id,
      party_id: party.id,
    });
    expect(again.statusCode).toBe(201);
  });

  it('ends when the beneficiary leaves, when revoked, and when the patron’s plan drops', async () => {
    const { patron, party, player } = await setup();
    await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    await call('DELETE', `/parties/${party.id}/leave`, player);
    expect(body(await call('GET', '/patronages/received', player)).data).toHaveLength(0);

    const second = await createMember(ctx, party, 'player');
    const granted = body(
      await call('POST', '/patronages', patron, { beneficiary_id: second.user.id, party_id: party.id }),
    ).data;
    const stranger = await createMember(ctx, party, 'observer');
    expect((await call('DELETE', `/patronages/${granted.id}`, stranger)).statusCode).toBe(403);
    // Someone outside the party learns nothing: the same 404 as an id that does not exist.
    const outsider = await createUser(ctx);
    const hidden = await call('DELETE', `/patronages/${granted.id}`, outsider);
    const unknown = await call('DELETE', `/patronages/${crypto.randomUUID()}`, outsider);
    expect([hidden.statusCode, hidden.json()]).toEqual([unknown.statusCode, unknown.json()]);
    expect(hidden.statusCode).toBe(404);
    expect((await call('DELETE', `/patronages/${granted.id}`, patron)).statusCode).toBe(204);
    expect(
      body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, second)).data,
    ).toMatchObject({
      tier: { identifier: 'tier_free' },
    });

    await call('POST', '/patronages', patron, { beneficiary_id: second.user.id, party_id: party.id });
    await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: false, reason: 'Downgrade' });
    expect(
      body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, second)).data,
    ).toMatchObject({
      tier: { identifier: 'tier_free' },
    });
    expect(body(await call('GET', '/patronages/received', second)).data).toHaveLength(0);
  });

  it('lists no grant the patron’s plan no longer reaches, even before anything else has checked it', async () => {
    const { patron, party, player } = await setup();
    await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: false, reason: 'Downgrade' });
    // Read first by the listings themselves: each ends the grant rather than show it as active.
    expect(body(await call('GET', '/patronages/received', player)).data).toHaveLength(0);
    expect(body(await call('GET', '/patronages', patron)).data).toHaveLength(0);
    const current = body(await call('GET', '/subscription/current', patron)).data as unknown as {
      patronages: { granted: unknown[] };
    };
    expect(current.patronages.granted).toHaveLength(0);
  });

  it('ends every grant when the patron moves to a plan without patronage, even one below the grants', async () => {
    const hero = await createUser(ctx);
    await upgrade(ctx, hero, 'tier_2');
    const party = await createParty(ctx, hero);
    const players = [await createMember(ctx, party, 'player'), await createMember(ctx, party, 'player')];
    for (const player of players) {
      const granted = await call('POST', '/patronages', hero, {
        beneficiary_id: player.user.id,
        party_id: party.id,
        granted_tier: 'tier_1',
      });
      expect(granted.statusCode).toBe(201);
    }
    // Hero to Adventurer: Adventurer still ranks as high as the grants, but has no patronage_system.
    await upgrade(ctx, hero, 'tier_1');
    const [first, second] = players as [SignedInUser, SignedInUser];
    expect(
      body(await call('GET', `/subscription/effective_tier?party_id=${party.id}`, first)).data,
    ).toMatchObject({ tier: { identifier: 'tier_free' } });
    expect(body(await call('GET', '/patronages/received', second)).data).toHaveLength(0);
    expect(body(await call('GET', '/patronages', hero)).data).toHaveLength(0);
  });

  it('reads the patron’s plan once for a listing of all their grants', async () => {
    const { patron, party, player } = await setup();
    const second = await createMember(ctx, party, 'player');
    const third = await createMember(ctx, party, 'player');
    for (const beneficiary of [player, second, third]) {
      await call('POST', '/patronages', patron, { beneficiary_id: beneficiary.user.id, party_id: party.id });
    }
    const ownTier = vi.spyOn(ctx.app.services.entitlements, 'ownTier');
    try {
      const granted = body(await call('GET', '/patronages', patron)).data;
      expect(granted).toHaveLength(3);
      expect(ownTier.mock.calls.filter(([, userId]) => userId === patron.user.id)).toHaveLength(1);
    } finally {
      ownTier.mockRestore();
    }
  });

  it('pauses while staff suspend the patron, and applies again once the suspension is lifted', async () => {
    const { patron, party, player } = await setup();
    const created = await call('POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(created.statusCode).toBe(201);
    const tierInParty = async () => {
      const answer = await call('GET', `/subscription/effective_tier?party_id=${party.id}`, player);
      return (answer.json() as { data: { tier: { identifier: string } } }).data.tier.identifier;
    };
    const received = async () => body(await call('GET', '/patronages/received', player)).data;
    const admin = await createAdmin(ctx);
    const suspended = await callApi(ctx, 'POST', `/admin/users/${patron.user.id}/suspend`, admin.adminAuth, {
      reason: 'chargeback',
    });
    expect(suspended.statusCode).toBe(200);
    expect(await tierInParty()).toBe('tier_free');
    expect(await received()).toEqual([]);

    const lifted = await callApi(ctx, 'POST', `/admin/users/${patron.user.id}/unsuspend`, admin.adminAuth);
    expect(lifted.statusCode).toBe(200);
    expect(await tierInParty()).toBe('tier_2');
    expect(await received()).toHaveLength(1);
  });

  it('lets a sponsored free player create more characters in the party', async () => {
    const { patron, party, player } = await setup();
    await call('POST', '/patronages', patron, { beneficiary_id: player.user.id, party_id: party.id });
    const check = await call('POST', '/subscription/check_limit', player, {
      resource: 'characters',
      count: 3,
      party_id: party.id,
    });
    expect(body(check).data).toMatchObject({ allowed: true, limit: 20 });
    const first = await call('POST', '/characters', player, {
      character: { name: 'Own', party_id: party.id },
    });
    const second = await call('POST', '/characters', player, {
      character: { name: 'Sponsored', party_id: party.id },
    });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const outside = await call('POST', '/characters', player, { character: { name: 'Elsewhere' } });
    expect(outside.statusCode).toBe(403);
    // Past the sponsor's allowance, the refusal names the sponsor's plan as theirs, not the player's.
    const sponsoredLimit = limitExceededMessage('Hero', 'characters', 20, true);
    expect(sponsoredLimit).toContain('Your sponsor’s Hero plan allows 20 characters in this party');
    const beyond = await call('POST', '/subscription/check_limit', player, {
      resource: 'characters',
      count: 19,
      party_id: party.id,
    });
    expect(body(beyond).data).toMatchObject({ allowed: false, message: sponsoredLimit });
    const refused = await ctx.app.services.entitlements
      .requireLimit(ctx.database.db, player.user.id, 'characters', 19, { partyId: party.id })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', message: sponsoredLimit });
    // Their own plan's refusal still says "your plan".
    expect(JSON.stringify(outside.json())).toContain('Your Free plan allows');
  });
});

describe('the other side of a sponsorship', () => {
  it('is told when it starts, when the patron ends it, and when the patron leaves the party', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const patron = await createMember(ctx, party, 'player');
    await upgrade(ctx, patron, 'tier_2');
    const player = await createMember(ctx, party, 'player');
    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    const told = () =>
      publish.mock.calls
        .flatMap(([batch]) => batch)
        .filter((e) => e.action === 'party_update' && e.partyId === party.id)
        .map((e) => [e.ids?.recipient_user_id, e.ids?.recipient_notice]);
    const sponsor = async () => {
      const created = await call('POST', '/patronages', patron, {
        beneficiary_id: player.user.id,
        party_id: party.id,
      });
      expect(created.statusCode).toBe(201);
      return String(body(created).data.id);
    };
    try {
      const first = await sponsor();
      expect((await call('DELETE', `/patronages/${first}`, patron)).statusCode).toBe(204);
      await sponsor();
      expect((await call('DELETE', `/parties/${party.id}/leave`, patron)).statusCode).toBe(204);
      const who = patron.user.username;
      expect(told()).toEqual([
        [player.user.id, `${who} now sponsors you in ${party.name}.`],
        [player.user.id, `${who} no longer sponsors you in ${party.name}: your own plan applies there now.`],
        [player.user.id, `${who} now sponsors you in ${party.name}.`],
        [
          player.user.id,
          `${who} left ${party.name}, and no longer sponsors you there: your own plan applies there now.`,
        ],
      ]);
      const inParty = body(
        await call('GET', `/subscription/effective_tier?party_id=${party.id}`, player),
      ).data;
      expect(inParty).toMatchObject({ tier: { identifier: 'tier_free' } });
    } finally {
      publish.mockRestore();
    }
  });
});

describe('a sponsorship the patron’s plan no longer covers', () => {
  async function sponsored() {
    const { patron, party, player } = await setup();
    const created = await call('POST', '/patronages', patron, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(created.statusCode).toBe(201);
    const publish = vi.spyOn(ctx.app.services.events, 'publish');
    const told = () =>
      publish.mock.calls
        .flatMap(([batch]) => batch)
        .filter((e) => e.action === 'party_update' && e.partyId === party.id)
        .map((e) => [e.ids?.recipient_user_id, e.ids?.recipient_notice]);
    const notice = `${patron.user.username}’s plan no longer covers your sponsorship in ${party.name}: your own plan applies there now.`;
    return { patron, party, player, told, notice, restore: () => publish.mockRestore() };
  }

  it('tells the beneficiary once the patron cancels at once', async () => {
    const { patron, player, told, notice, restore } = await sponsored();
    try {
      await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: false });
      expect(told()).toEqual([[player.user.id, notice]]);
    } finally {
      restore();
    }
  });

  // Review: only the beneficiaries were told; the patron, whose own change ended them, was not.
  it('tells the patron which sponsorships their plan change ended, in one notice', async () => {
    const { patron, party, player, restore } = await sponsored();
    restore();
    const gm = await createUser(ctx);
    const other = await createParty(ctx, gm);
    await ctx.app.services.parties.join(patron.user.id, {
      join_code: other.join_code ?? '',
      role_request: 'player',
    });
    const second = await createMember(ctx, other, 'player');
    const granted = await call('POST', '/patronages', patron, {
      beneficiary_id: second.user.id,
      party_id: other.id,
    });
    expect(granted.statusCode, granted.body).toBe(201);

    // Adventurer has no patronage: the switch down ends both.
    const switched = await call('POST', '/subscription/checkout', patron, { tier_id: 'tier_1' });
    expect(switched.statusCode, switched.body).toBe(200);
    const notices = body(await call('GET', '/notifications', patron)).data;
    const ended = [
      `${player.user.username} in ${party.name}`,
      `${second.user.username} in ${other.name}`,
    ].sort((a, b) => a.localeCompare(b));
    expect(notices).toEqual([
      expect.objectContaining({
        kind: 'sponsorship_ended',
        message: `Your plan no longer covers your sponsorships of ${ended[0]} and ${ended[1]}: they have ended.`,
        party_id: null,
        link: null,
      }),
    ]);
  });

  it('tells the patron of the one sponsorship cancelling at once ended, leading to its party', async () => {
    const { patron, party, player, restore } = await sponsored();
    restore();
    await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: false });
    expect(body(await call('GET', '/notifications', patron)).data).toEqual([
      expect.objectContaining({
        kind: 'sponsorship_ended',
        message: `Your plan no longer covers your sponsorship of ${player.user.username} in ${party.name}: it has ended.`,
        party_id: party.id,
        link: { kind: 'party', path: `/parties/${party.id}`, label: party.name },
      }),
    ]);
  });

  it('tells the beneficiary once when staff move the patron to Free', async () => {
    const { patron, player, told, notice, restore } = await sponsored();
    try {
      const admin = await createAdmin(ctx);
      const moved = await callApi(ctx, 'POST', `/admin/users/${patron.user.id}/tier`, admin.adminAuth, {
        tier_id: 'tier_free',
        reason: 'Refund',
      });
      expect(moved.statusCode).toBe(200);
      expect(told()).toEqual([[player.user.id, notice]]);
    } finally {
      restore();
    }
  });

  it('folds the same notice again into one card, as the started ones fold', async () => {
    const { patron, party, player, notice, restore } = await sponsored();
    restore();
    for (const round of [1, 2, 3]) {
      if (round > 1) {
        await upgrade(ctx, patron, 'tier_2');
        const again = await call('POST', '/patronages', patron, {
          beneficiary_id: player.user.id,
          party_id: party.id,
        });
        expect(again.statusCode).toBe(201);
      }
      await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: false });
    }
    await ctx.app.services.jobs.settled();
    const inbox = body(await call('GET', '/notifications', player)).data as unknown as {
      kind: string;
      message: string;
      repeat_count: number;
    }[];
    const ended = inbox.filter((n) => n.kind === 'sponsorship_ended');
    expect(ended.map((n) => [n.message, n.repeat_count])).toEqual([[notice, 3]]);
  });

  it('ends a grant whose period ran out when it is read, and tells the beneficiary once', async () => {
    const { patron, party, player, told, notice, restore } = await sponsored();
    try {
      await call('POST', '/subscription/cancel', patron, { cancel_at_period_end: true });
      expect(told()).toEqual([]);
      // The period closes with nobody there to see it: the next reading finds it out.
      await ctx.database.db
        .update(subscriptions)
        .set({ currentPeriodEnd: new Date(Date.now() - 1000) })
        .where(eq(subscriptions.userId, patron.user.id));
      const reads = await Promise.all(
        [1, 2, 3].map(() => call('GET', `/subscription/effective_tier?party_id=${party.id}`, player)),
      );
      for (const read of reads) expect(body(read).data).toMatchObject({ tier: { identifier: 'tier_free' } });
      await vi.waitFor(() => expect(told()).toEqual([[player.user.id, notice]]));
      // Ended for good: later readings neither find it nor tell it again.
      expect(body(await call('GET', '/patronages/received', player)).data).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(told()).toHaveLength(1);
      // The patron is told too, once, though their plan ran out with nobody changing it.
      await call('GET', '/subscription/current', patron);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(body(await call('GET', '/notifications', patron)).data.map((n) => [n.kind, n.message])).toEqual([
        [
          'sponsorship_ended',
          `Your plan no longer covers your sponsorship of ${player.user.username} in ${party.name}: it has ended.`,
        ],
      ]);
    } finally {
      restore();
    }
  });
});
