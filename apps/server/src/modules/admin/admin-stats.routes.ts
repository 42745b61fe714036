import {
  adminAnalyticsSchema,
  adminDashboardSchema,
  adminFinancialSchema,
  analyticsQuerySchema,
  billingEventSchema,
  listEnvelope,
  pageQuerySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from './admin-guard.js';
import type { AdminStatsService } from './admin-stats.service.js';

/** The Dashboard, Analytics and Financial pages (reads only, so nothing to audit). */
export async function adminStatsRoutes(app: FastifyInstance, options: { stats: AdminStatsService }) {
  const { stats } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/stats/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary: 'Users, content, inventory actions per day (30 days) and subscriptions by tier',
        response: { 200: successEnvelope(adminDashboardSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await stats.dashboard() };
    },
  );

  r.get(
    '/stats/analytics',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Time series by day or week: sign-ups, active users, inventory, shop, loot, upgrades, cancellations',
        querystring: analyticsQuerySchema,
        response: { 200: successEnvelope(adminAnalyticsSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await stats.analytics(request.query) };
    },
  );

  r.get(
    '/financial',
    {
      schema: {
        tags: ['admin'],
        summary: 'Subscriptions by tier and status, estimated monthly revenue, cancellations with reasons',
        response: { 200: successEnvelope(adminFinancialSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await stats.financial() };
    },
  );

  r.get(
    '/financial/billing_events',
    {
      schema: {
        tags: ['admin'],
        summary: 'The billing provider webhook log, newest first',
        querystring: pageQuerySchema,
        response: { 200: listEnvelope(billingEventSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { events, meta } = await stats.billingEvents(request.query.page, request.query.per_page);
      return { status: 'success' as const, data: events, meta };
    },
  );
}
