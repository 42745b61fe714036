import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeCall {
  method: string;
  path: string;
  form: URLSearchParams;
}

/** A subscription as the fake keeps it: the fields Haversack reads or changes, in Stripe's shapes. */
export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  item: { id: string; price: { id: string; product: string; unit_amount: number; currency: string } };
  current_period_start: number;
  current_period_end: number;
}

function subscriptionJson(subscription: FakeSubscription) {
  const { item, current_period_start, current_period_end, ...rest } = subscription;
  return {
    ...rest,
    object: 'subscription',
    items: {
      object: 'list',
      data: [{ ...item, object: 'subscription_item', quantity: 1, current_period_start, current_period_end }],
    },
  };
}

/** `metadata[tier]=x` form fields as an object. */
function metadataOf(form: URLSearchParams, prefix = 'metadata'): Record<string, string> | undefined {
  const metadata: Record<string, string> = {};
  let found = false;
  for (const [key, value] of form) {
    const match = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (match?.[1]) {
      metadata[match[1]] = value;
      found = true;
    }
  }
  return found ? metadata : undefined;
}

/**
 * A stand-in for Stripe's API on 127.0.0.1 (the one part that cannot run here). The real SDK talks to it
 * over HTTP; it answers the calls Haversack makes with the shapes Stripe documents, records them, and keeps
 * the subscriptions it knows of (`addSubscription`) so that a plan change can read and change them.
 */
export async function startFakeStripeApi() {
  const calls: RecordedStripeCall[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  let sequence = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const method = request.method ?? 'GET';
      const form = new URLSearchParams(raw);
      calls.push({ method, path, form });
      sequence += 1;
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${sequence}` });
        response.end(JSON.stringify(body));
      };
      const missing = (what: string) =>
        send(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
        });
      if (method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${sequence}`;
        return send(200, {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: 'subscription',
        });
      }
      if (method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send(200, {
          id: `bps_${sequence}`,
          object: 'billing_portal.session',
          url: `https://billing.stripe.test/p/${sequence}`,
        });
      }
      if (method === 'POST' && path === '/v1/prices') {
        return send(200, {
          id: `price_${sequence}`,
          object: 'price',
          currency: form.get('currency'),
          unit_amount: Number(form.get('unit_amount')),
          recurring: { interval: form.get('recurring[interval]') },
          product: `prod_${sequence}`,
        });
      }
      const match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      const id = match?.[1];
      if (!id) return missing(`route ${method} ${path}`);
      const known = subscriptions.get(id);
      if (method === 'GET')
        return known ? send(200, subscriptionJson(known)) : missing(`subscription: ${id}`);
      if (method === 'DELETE') {
        if (known) known.status = 'canceled';
        return send(
          200,
          known ? subscriptionJson(known) : { id, object: 'subscription', status: 'canceled' },
        );
      }
      if (method === 'POST') {
        // A subscription the test did not add (cancel and reactivate tests) answers with its id only.
        if (!known) return send(200, { id, object: 'subscription', status: 'active' });
        const cancel = form.get('cancel_at_period_end');
        if (cancel !== null) known.cancel_at_period_end = cancel === 'true';
        known.metadata = metadataOf(form) ?? known.metadata;
        const price = form.get('items[0][price]');
        if (price) {
          if (form.get('items[0][id]') !== known.item.id) return missing(`subscription item`);
          known.item.price = { ...known.item.price, id: price, product: `prod_for_${price}` };
        }
        return send(200, subscriptionJson(known));
      }
      return missing(`route ${method} ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    calls,
    subscriptions,
    /** A subscription Stripe made when a checkout completed (tests send the matching webhook). */
    addSubscription(input: { id: string; customer: string; userId: string; tier: string; cents: number }) {
      const now = Math.floor(Date.now() / 1000);
      const subscription: FakeSubscription = {
        id: input.id,
        customer: input.customer,
        status: 'active',
        cancel_at_period_end: false,
        metadata: { user_id: input.userId, tier: input.tier },
        item: {
          id: `si_${input.id}`,
          price: {
            id: `price_${input.id}`,
            product: `prod_${input.id}`,
            unit_amount: input.cents,
            currency: 'usd',
          },
        },
        current_period_start: now,
        current_period_end: now + 30 * 24 * 3600,
      };
      subscriptions.set(input.id, subscription);
      return subscription;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
