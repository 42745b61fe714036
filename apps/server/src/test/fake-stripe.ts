import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeCall {
  method: string;
  path: string;
  form: URLSearchParams;
}

/**
 * A stand-in for Stripe's API on 127.0.0.1 (the one part that cannot run here). The real SDK talks to it
 * over HTTP; it answers the few calls Haversack makes with the shapes Stripe documents, and records them.
 */
export async function startFakeStripe() {
  const calls: RecordedStripeCall[] = [];
  let sequence = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const method = request.method ?? 'GET';
      calls.push({ method, path, form: new URLSearchParams(raw) });
      sequence += 1;
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${sequence}` });
        response.end(JSON.stringify(body));
      };
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
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (subscription && (method === 'POST' || method === 'DELETE')) {
        return send(200, {
          id: subscription[1],
          object: 'subscription',
          status: method === 'DELETE' ? 'canceled' : 'active',
        });
      }
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
