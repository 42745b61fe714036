import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { StripeBilling } from './stripe-billing.js';
import type { StripeWebhookService } from './stripe-webhooks.service.js';

/**
 * POST /api/v1/webhooks/stripe. The signature covers the exact bytes Stripe sent, so this scope parses
 * JSON bodies as raw buffers.
 */
export async function stripeWebhookRoutes(
  app: FastifyInstance,
  options: { stripe: StripeBilling | undefined; webhooks: StripeWebhookService },
) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/webhooks/stripe',
    { schema: { tags: ['billing'], summary: 'Stripe events', security: [] } },
    async (request) => {
      if (!options.stripe)
        throw new AppError('RESOURCE_NOT_FOUND', 'Stripe is not configured on this server.');
      if (!Buffer.isBuffer(request.body))
        throw new AppError('BAD_REQUEST', 'Send the event as application/json.');
      const signature = request.headers['stripe-signature'];
      const event = options.stripe.verifyWebhook(
        request.body,
        typeof signature === 'string' ? signature : undefined,
      );
      const outcome = await options.webhooks.apply(event);
      // A signed event we cannot use is acknowledged (a refusal would only make Stripe redeliver it for
      // days) and logged loudly enough to be looked at.
      // `not_current`: a subscription the user no longer pays through on our side may still bill them.
      if (outcome === 'malformed' || outcome === 'unmatched' || outcome === 'not_current')
        request.log.warn({ event: event.id, type: event.type, outcome }, 'stripe webhook not applied');
      else request.log.info({ event: event.id, type: event.type, outcome }, 'stripe webhook');
      return { status: 'success' as const, data: { received: true, outcome } };
    },
  );
}
