import type { AdminAnalytics, AdminDashboard, AdminFinancial, BillingEvent } from '@haversack/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { billingEvents, subscriptions } from '../../db/schema/subscriptions.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { coinTemplate, createCharacter, createParty, createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
let admin: SignedInAdmin;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

/** A plan given by staff, as the user page does: nobody pays for it. */
async function grant(userId: string, tier: string) {
  const response = await callApi(ctx, 'POST', `/admin/users/${userId}/tier`, admin.adminAuth, {
    tier_id: tier,
    reason: 'Contest prize',
  });
  expect(response.statusCode, response.body).toBe(200);
}

const get = <T>(url: string) =>
  callApi(ctx, 'GET', url, admin.adminAuth).then((r) => {
    expect(r.statusCode, r.body).toBe(200);
    return json<{ data: T; meta?: { total_count: number; total_pages: number } }>(r);
  });

describe('GET /admin/stats/dashboard', () => {
  it('counts users, new and active ones, content, and subscriptions by tier', async () => {
    const before = (await get<AdminDashboard>('/admin/stats/dashboard')).data;
    const gm = await createUser(ctx);
    await createParty(ctx, gm);
    await upgrade(ctx, gm, 'tier_2');
    const winner = await createUser(ctx);
    await grant(winner.user.id, 'tier_2');
    const after = (await get<AdminDashboard>('/admin/stats/dashboard')).data;

    expect(after.users.total).toBe(before.users.total + 2);
    expect(after.users.new_7d).toBe(before.users.new_7d + 2);
    expect(after.users.new_30d).toBe(before.users.new_30d + 2);
    // Registering signs in: the new users are active.
    expect(after.users.active_7d).toBe(before.users.active_7d + 2);
    expect(after.parties).toBe(before.parties + 1);
    expect(after.inventory_actions_per_day).toHaveLength(30);
    expect(after.inventory_actions_per_day.at(-1)?.date).toBe(today);
    const tier2 = (d: AdminDashboard) => d.subscriptions_by_tier.find((t) => t.tier === 'tier_2');
    expect(tier2(after)?.count).toBe((tier2(before)?.count ?? 0) + 2);
    expect(tier2(after)?.granted).toBe((tier2(before)?.granted ?? 0) + 1);
    // The GM's plan came through demo billing: nobody paid for it either.
    expect(tier2(after)?.demo).toBe((tier2(before)?.demo ?? 0) + 1);
    expect(after.subscriptions_by_tier.map((t) => t.tier)).toEqual([
      'tier_free',
      'tier_1',
      'tier_2',
      'tier_3',
    ]);
  });
});

describe('GET /admin/stats/analytics', () => {
  it('answers one bucket per day of the range with every series, zero where nothing happened', async () => {
    const from = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const before = (await get<AdminAnalytics>(`/admin/stats/analytics?from=${from}&to=${today}`)).data;
    expect(before.points.map((p) => p.period)).toHaveLength(7);
    expect(before.points[0]?.period).toBe(from);

    const user = await createUser(ctx);
    await upgrade(ctx, user, 'tier_1');
    await ctx.app.services.subscriptions.cancel(user.user.id, {
      reason: 'Too pricey',
      cancel_at_period_end: false,
    });
    const after = (await get<AdminAnalytics>(`/admin/stats/analytics?from=${from}&to=${today}`)).data;
    const last = after.points.at(-1);
    const lastBefore = before.points.at(-1);
    expect(last?.signups).toBe((lastBefore?.signups ?? 0) + 1);
    expect(last?.active_users).toBe((lastBefore?.active_users ?? 0) + 1);
    expect(last?.upgrades).toBe((lastBefore?.upgrades ?? 0) + 1);
    expect(last?.cancellations).toBe((lastBefore?.cancellations ?? 0) + 1);
    expect(after.points[0]?.signups).toBe(before.points[0]?.signups);
    // Buying a plan again does not take the cancellation out of the series.
    await upgrade(ctx, user, 'tier_1');
    const again = (await get<AdminAnalytics>(`/admin/stats/analytics?from=${from}&to=${today}`)).data;
    expect(again.points.at(-1)?.cancellations).toBe(last?.cancellations);
  });

  it('counts inventory actions and trades as the users’ meters do: one per entry, not one per row', async () => {
    const from = today;
    const point = async () =>
      (await get<AdminAnalytics>(`/admin/stats/analytics?from=${from}&to=${today}`)).data.points.at(-1);
    const user = await createUser(ctx);
    const character = await createCharacter(ctx, user);
    const gold = await coinTemplate(ctx, 'gp');
    const added = await callApi(ctx, 'POST', '/item_instances', user, {
      item_template_id: gold.id,
      container_id: character.primary_container_id,
      quantity: 10,
    });
    expect(added.statusCode, added.body).toBe(201);
    const before = await point();
    const meter = async () =>
      (await ctx.app.services.entitlements.usage(ctx.database.db, user.user.id))
        .inventory_actions_personal_monthly.used;
    const metered = await meter();
    // 10 gp into 1 pp: two ledger rows, one action.
    const converted = await callApi(
      ctx,
      'POST',
      `/containers/${character.primary_container_id}/convert_currency`,
      user,
      { from: 'gp', to: 'pp' },
    );
    expect(converted.statusCode, converted.body).toBe(200);
    // A purchase as the shop writes it: the goods row, the coins paid and the change.
    const trade = {
      actorId: user.user.id,
      actorName: user.user.username,
      summary: 'bought',
      transactionType: 'purchase',
    };
    await ctx.database.db.insert(transactions).values([
      { ...trade, itemName: 'Rope', amountCp: 100 },
      { ...trade, itemName: 'Gold piece', amountCp: 1000, details: { role: 'payment' } },
      { ...trade, itemName: 'Platinum piece', amountCp: 900, details: { role: 'change' } },
    ]);
    const after = await point();
    expect((await meter()) - metered).toBe(1);
    expect((after?.inventory_actions ?? 0) - (before?.inventory_actions ?? 0)).toBe(1);
    expect((after?.shop_activity ?? 0) - (before?.shop_activity ?? 0)).toBe(1);
  });

  it('buckets by ISO week, each starting on a Monday', async () => {
    const { data } = await get<AdminAnalytics>(
      '/admin/stats/analytics?from=2026-01-01&to=2026-01-31&granularity=week',
    );
    expect(data.points.map((p) => p.period)).toEqual([
      '2025-12-29',
      '2026-01-05',
      '2026-01-12',
      '2026-01-19',
      '2026-01-26',
    ]);
  });

  it('refuses a reversed or too long range with 422', async () => {
    const reversed = await callApi(
      ctx,
      'GET',
      '/admin/stats/analytics?from=2026-02-01&to=2026-01-01',
      admin.adminAuth,
    );
    expect(reversed.statusCode).toBe(422);
    const long = await callApi(
      ctx,
      'GET',
      '/admin/stats/analytics?from=2020-01-01&to=2026-01-01',
      admin.adminAuth,
    );
    expect(long.statusCode).toBe(422);
    const week = await callApi(
      ctx,
      'GET',
      '/admin/stats/analytics?from=2026-01-01&to=2026-01-02&granularity=month',
      admin.adminAuth,
    );
    expect(week.statusCode).toBe(422);
  });

  // PostgreSQL has no year 0: such a date once failed in the database as a 500.
  it('refuses dates outside 1000-01-01 to 9998-12-31 with 422 naming the field', async () => {
    for (const [query, field] of [
      ['from=0000-01-01&to=0000-01-02', 'from'],
      ['from=9999-12-01&to=9999-12-31', 'from'],
      ['from=9998-12-01&to=9999-01-01', 'to'],
    ] as const) {
      const refused = await callApi(ctx, 'GET', `/admin/stats/analytics?${query}`, admin.adminAuth);
      expect([query, refused.statusCode, refused.json()]).toEqual([
        query,
        422,
        {
          status: 'error',
          error: expect.objectContaining({
            code: 'VALIDATION_ERROR',
            details: expect.arrayContaining([
              { field, message: `${field} must be between 1000-01-01 and 9998-12-31` },
            ]),
          }),
        },
      ]);
    }
    const edges = await get<AdminAnalytics>('/admin/stats/analytics?from=9998-12-25&to=9998-12-31');
    expect(edges.data.points).toHaveLength(7);
    expect(
      (await get<AdminAnalytics>('/admin/stats/analytics?from=1000-01-01&to=1000-01-07')).data.points,
    ).toHaveLength(7);
  });
});

describe('GET /admin/financial', () => {
  it('shows subscriptions by tier and status, this month revenue and cancellations with their reasons', async () => {
    const before = (await get<AdminFinancial>('/admin/financial')).data;
    const payer = await createUser(ctx);
    await upgrade(ctx, payer, 'tier_3');
    const quitter = await createUser(ctx);
    await upgrade(ctx, quitter, 'tier_1');
    await ctx.app.services.subscriptions.cancel(quitter.user.id, {
      reason: 'Our group disbanded',
      cancel_at_period_end: true,
    });
    // Stripe takes their payments (the test app's checkout is demo billing's).
    await ctx.database.db
      .update(subscriptions)
      .set({ provider: 'stripe' })
      .where(inArray(subscriptions.userId, [payer.user.id, quitter.user.id]));
    // Granted by staff, or taken through demo billing: paid by nobody, no revenue.
    await grant((await createUser(ctx)).user.id, 'tier_3');
    await upgrade(ctx, await createUser(ctx), 'tier_3');
    const { data } = await get<AdminFinancial>('/admin/financial');

    const count = (d: AdminFinancial, tier: string, status: string) =>
      d.by_tier_status.find((r) => r.tier === tier && r.status === status)?.count ?? 0;
    expect(count(data, 'tier_3', 'active')).toBe(count(before, 'tier_3', 'active') + 3);
    expect(data.monthly_revenue).toHaveLength(12);
    const thisMonth = data.monthly_revenue.at(-1);
    const thisMonthBefore = before.monthly_revenue.at(-1);
    expect(thisMonth?.month).toBe(today.slice(0, 7));
    expect(thisMonth?.paid_subscriptions).toBe((thisMonthBefore?.paid_subscriptions ?? 0) + 2);
    expect(thisMonth?.revenue_cents).toBeGreaterThan(thisMonthBefore?.revenue_cents ?? 0);
    expect(data.cancellations[0]).toMatchObject({
      email: quitter.user.email,
      tier: 'tier_1',
      reason: 'Our group disbanded',
      cancel_at_period_end: true,
    });
  });

  // Review: a plan ended at once left the user on Free, and the row named Free as what they had cancelled.
  it('names the plan that was cancelled, not the one the user was left on', async () => {
    const hero = await createUser(ctx);
    await upgrade(ctx, hero, 'tier_2');
    await ctx.app.services.subscriptions.cancel(hero.user.id, {
      reason: 'Too dear',
      cancel_at_period_end: false,
    });
    const { data } = await get<AdminFinancial>('/admin/financial');
    expect(data.cancellations.find((c) => c.user_id === hero.user.id)).toMatchObject({
      tier: 'tier_2',
      reason: 'Too dear',
      cancel_at_period_end: false,
    });
    // Review: taking a plan again forgot the cancellation and its reason. It stays; ending the new plan
    // names that one, newest first.
    await upgrade(ctx, hero, 'tier_1');
    const heroCancellations = async () =>
      (await get<AdminFinancial>('/admin/financial')).data.cancellations
        .filter((c) => c.user_id === hero.user.id)
        .map(({ tier, reason }) => ({ tier, reason }));
    expect(await heroCancellations()).toEqual([{ tier: 'tier_2', reason: 'Too dear' }]);
    await ctx.app.services.subscriptions.cancel(hero.user.id, { cancel_at_period_end: false });
    expect(await heroCancellations()).toEqual([
      { tier: 'tier_1', reason: null },
      { tier: 'tier_2', reason: 'Too dear' },
    ]);
  });

  it('keeps a cancellation that took effect when a plan is bought again, but not one withdrawn', async () => {
    const user = await createUser(ctx);
    const mine = async () =>
      (await get<AdminFinancial>('/admin/financial')).data.cancellations.filter(
        (c) => c.user_id === user.user.id,
      );
    await upgrade(ctx, user, 'tier_2');
    // Cancelled at the period's end, then a plan bought before it ran out: withdrawn, not churn.
    await ctx.app.services.subscriptions.cancel(user.user.id, {
      reason: 'Maybe later',
      cancel_at_period_end: true,
    });
    await upgrade(ctx, user, 'tier_3');
    expect(await mine()).toEqual([]);
    // Ended at once, then a plan bought again, then staff grant one: the cancellation stays once.
    await ctx.app.services.subscriptions.cancel(user.user.id, {
      reason: 'Campaign over',
      cancel_at_period_end: false,
    });
    await upgrade(ctx, user, 'tier_1');
    await grant(user.user.id, 'tier_2');
    expect(await mine()).toMatchObject([
      { tier: 'tier_3', reason: 'Campaign over', cancel_at_period_end: false },
    ]);
  });

  it('pages the billing events log, newest first', async () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    await ctx.database.db.insert(billingEvents).values(
      Array.from({ length: 3 }, (_, i) => ({
        id: `evt_${i}`,
        provider: 'stripe',
        type: 'invoice.paid',
        receivedAt: at(i),
      })),
    );
    const first = await get<BillingEvent[]>('/admin/financial/billing_events?per_page=2');
    expect(first.data.map((e) => e.id)).toEqual(['evt_2', 'evt_1']);
    expect(first.meta).toMatchObject({ total_count: 3, total_pages: 2 });
    const second = await get<BillingEvent[]>('/admin/financial/billing_events?per_page=2&page=2');
    expect(second.data.map((e) => e.id)).toEqual(['evt_0']);
    expect(second.data[0]?.received_at).toBe('2026-01-01T00:00:00Z');
  });
});
