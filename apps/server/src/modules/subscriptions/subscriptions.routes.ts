import {
  billingPortalBodySchema,
  billingPortalResultSchema,
  billingProviderSchema,
  cancelBodySchema,
  checkFeatureBodySchema,
  checkFeatureResultSchema,
  checkLimitBodySchema,
  checkLimitResultSchema,
  checkoutBodySchema,
  checkoutResultSchema,
  checkoutSessionParamsSchema,
  checkoutSessionSchema,
  compareQuerySchema,
  compareResultSchema,
  currentSubscriptionSchema,
  effectiveTierQuerySchema,
  effectiveTierResultSchema,
  inventoryUsageSchema,
  subscriptionMessages,
  subscriptionSchema,
  successEnvelope,
  tierSchema,
  usageSchema,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noSignIn } from '../../lib/openapi-security.js';
import { requireAuth } from '../../plugins/auth.js';
import type { SubscriptionsService } from './subscriptions.service.js';

const ok = <T>(data: T, message?: string) => ({
  status: 'success' as const,
  data,
  ...(message ? { message } : {}),
});

/** A paying customer's plan was changed in place (no second subscription); Stripe prorates by default. */
const planChangedMessage = (plan: string) =>
  `Your plan is now ${plan}. The price difference for the rest of this period is prorated on your next invoice.`;

/** spec/01 §7 Subscription. */
export async function subscriptionsRoutes(
  app: FastifyInstance,
  options: { subscriptions: SubscriptionsService },
) {
  const service = options.subscriptions;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['subscription'];

  r.get(
    '/subscription/tiers',
    {
      schema: {
        ...noSignIn,
        tags,
        summary: 'The four plans',
        security: [],
        response: {
          200: successEnvelope(z.array(tierSchema)).extend({
            meta: z.object({ billing_provider: billingProviderSchema }),
          }),
        },
      },
    },
    async () => ({ ...ok(await service.tiers()), meta: { billing_provider: service.billingProvider } }),
  );

  await app.register(async (authed) => {
    authed.addHook('onRequest', app.authenticate);
    const a = authed.withTypeProvider<ZodTypeProvider>();
    const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

    a.get(
      '/subscription/current',
      {
        schema: {
          tags,
          summary: 'Plan, usage and patronages',
          response: { 200: successEnvelope(currentSubscriptionSchema) },
        },
      },
      async (request) => ok(await service.current(userId(request))),
    );
    a.get(
      '/subscription/usage',
      {
        schema: {
          tags,
          summary: 'Usage against every limit',
          response: { 200: successEnvelope(usageSchema) },
        },
      },
      async (request) => ok(await service.usage(userId(request))),
    );
    a.get(
      '/subscription/usage/inventory',
      {
        schema: {
          tags,
          summary: 'Monthly inventory actions',
          response: { 200: successEnvelope(inventoryUsageSchema) },
        },
      },
      async (request) => ok(await service.inventoryUsage(userId(request))),
    );
    a.post(
      '/subscription/check_limit',
      {
        // A question about the plan, asked in a body: a read-only API token may ask it.
        config: { readsOnly: true },
        schema: {
          tags,
          summary: 'Would this many more of a resource fit the plan?',
          body: checkLimitBodySchema,
          response: { 200: successEnvelope(checkLimitResultSchema) },
        },
      },
      async (request) => ok(await service.checkLimit(userId(request), request.body)),
    );
    a.post(
      '/subscription/check_feature',
      {
        // A question about the plan, asked in a body: a read-only API token may ask it.
        config: { readsOnly: true },
        schema: {
          tags,
          summary: 'Is a feature in the plan (allowed is false on any failure)',
          body: checkFeatureBodySchema.optional(),
          response: { 200: successEnvelope(checkFeatureResultSchema) },
        },
      },
      async (request) => ok(await service.checkFeature(userId(request), request.body ?? { feature: null })),
    );
    a.get(
      '/subscription/compare',
      {
        schema: {
          tags,
          summary: 'Two plans side by side',
          querystring: compareQuerySchema,
          response: { 200: successEnvelope(compareResultSchema) },
        },
      },
      async (request) => ok(await service.compare(userId(request), request.query)),
    );
    a.get(
      '/subscription/effective_tier',
      {
        schema: {
          tags,
          summary: 'The plan that applies, inside a party (or the party of a character) if given',
          querystring: effectiveTierQuerySchema,
          response: { 200: successEnvelope(effectiveTierResultSchema) },
        },
      },
      async (request) => ok(await service.effectiveTier(userId(request), request.query)),
    );
    a.post(
      '/subscription/checkout',
      {
        schema: {
          tags,
          summary: 'Start an upgrade',
          body: checkoutBodySchema,
          response: { 200: successEnvelope(checkoutResultSchema) },
        },
      },
      async (request) => {
        const { user } = requireAuth(request);
        const { plan_changed_to: planChangedTo, ...result } = await service.checkout(user, request.body);
        const message = planChangedTo
          ? planChangedMessage(planChangedTo)
          : service.billingProvider === 'local'
            ? subscriptionMessages.localBilling
            : undefined;
        return ok(result, message);
      },
    );
    a.get(
      '/subscription/checkout/:session_id',
      {
        schema: {
          tags,
          summary: 'A checkout reference issued to the caller (the success page confirms no other)',
          params: checkoutSessionParamsSchema,
          response: { 200: successEnvelope(checkoutSessionSchema) },
        },
      },
      async (request) => ok(await service.checkoutSession(userId(request), request.params.session_id)),
    );
    a.post(
      '/subscription/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel, at the end of the period by default',
          body: cancelBodySchema,
          response: { 200: successEnvelope(subscriptionSchema) },
        },
      },
      async (request) => {
        const subscription = await service.cancel(userId(request), request.body);
        return ok(
          subscription,
          subscription.cancel_at_period_end
            ? subscriptionMessages.cancelled
            : subscriptionMessages.cancelledNow,
        );
      },
    );
    a.post(
      '/subscription/reactivate',
      {
        schema: {
          tags,
          summary: 'Undo a cancellation',
          response: { 200: successEnvelope(subscriptionSchema) },
        },
      },
      async (request) => ok(await service.reactivate(userId(request)), subscriptionMessages.reactivated),
    );
    a.post(
      '/subscription/billing_portal',
      {
        schema: {
          tags,
          summary: 'Open the billing portal',
          body: billingPortalBodySchema.optional(),
          response: { 200: successEnvelope(billingPortalResultSchema) },
        },
      },
      async (request) => ok(await service.billingPortal(userId(request), request.body ?? {})),
    );
  });
}
