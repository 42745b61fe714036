import { createHmac } from 'node:crypto';
import { idempotencyMessages } from '@haversack/contracts';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/idempotency-keys.js';
import { AppError } from '../lib/app-error.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key's answer is kept: a retry comes within seconds, a day covers a phone that slept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Visible ASCII, as Stripe and the IETF draft's examples use (a UUID, a random token). */
const validKey = /^[\x21-\x7e]{1,255}$/;
const changes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The row this request's answer is kept in, when it came with a new Idempotency-Key. */
    idempotencyRowId?: string;
  }
  interface FastifyContextConfig {
    /** false: the route ignores Idempotency-Key (`keepNoAnswers`). */
    idempotency?: boolean;
  }
}

/**
 * For a module whose answers carry secrets (sessions, API tokens, share codes, admin sessions) or whose
 * requests carry passwords: its routes ignore Idempotency-Key, so no such answer is ever kept in the table.
 * Call it before the module's routes.
 */
export function keepNoAnswers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), idempotency: false };
  });
}

/**
 * Only answers below 400 are kept. A refusal (4xx) or a server failure (5xx) changed nothing, so keeping it
 * protects nothing, and replaying it would answer a retry with a stale refusal after its cause is fixed
 * (a plan upgraded, a rate limit passed, a missing container made), as Stripe does for failed validation.
 * The claim made while a request runs still makes concurrent copies wait (409) whatever it ends with.
 */
const notKept = (status: number) => status >= 400;

/**
 * Changes are made once per `Idempotency-Key` (docs/decisions.md "Idempotency keys"). A signed-in caller's
 * POST, PUT, PATCH or DELETE that names a key it has not used is handled as usual and its answer kept for a
 * day; the same key again with the same request is answered from what was kept, with
 * `Idempotent-Replayed: true`, and changes nothing; with another request it is a 422, and while the first
 * is still running a 409 (`Retry-After: 1`). Answers of 400 and above are not kept: nothing was changed,
 * and the same key may be sent again once the cause is fixed. Modules whose answers carry secrets opt out (`keepNoAnswers`).
 * Requests without the header are untouched, so it costs nothing to those who do not send it.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: { db: Database; secret: string; now?: () => Date }) => {
    const { db } = options;
    const now = options.now ?? (() => new Date());
    // Keyed by the server's secret: a body may hold a password, and a plain hash of it would be a fast
    // one to guess against from a copy of the table.
    const fingerprintOf = (request: FastifyRequest) => {
      const body = request.body === undefined ? '' : JSON.stringify(request.body);
      const digest = createHmac('sha256', options.secret).update(body).digest('base64url');
      return `${request.method} ${request.url} ${digest}`;
    };

    async function replayOrClaim(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (header === undefined || !changes.has(request.method) || !request.auth) return;
      if (request.routeOptions.config.idempotency === false) return;
      const key = Array.isArray(header) ? header[0] : header;
      if (key === undefined || !validKey.test(key)) {
        throw AppError.validation([{ field: 'Idempotency-Key', message: idempotencyMessages.invalidKey }]);
      }
      const userId = request.auth.user.id;
      const fingerprint = fingerprintOf(request);
      const expired = new Date(now().getTime() - IDEMPOTENCY_TTL_MS);
      const claimed = await db
        .insert(idempotencyKeys)
        .values({ userId, key, fingerprint, createdAt: now() })
        .onConflictDoNothing()
        .returning({ id: idempotencyKeys.id });
      if (claimed[0]) {
        request.idempotencyRowId = claimed[0].id;
        // Now and then, the day-old keys of everyone go (an index on created_at keeps it cheap).
        if (Math.random() < 0.02)
          await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, expired));
        return;
      }
      const [kept] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
        .limit(1);
      if (!kept || kept.createdAt < expired) {
        // A day-old key is a new one: the old answer goes and this request claims it.
        if (kept) await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, kept.id));
        return replayOrClaim(request, reply);
      }
      if (kept.fingerprint !== fingerprint) {
        throw AppError.validation(
          [{ field: 'Idempotency-Key', message: idempotencyMessages.reused }],
          idempotencyMessages.reused,
        );
      }
      if (kept.status === null) {
        reply.header('retry-after', '1');
        throw new AppError('CONFLICT', idempotencyMessages.inProgress);
      }
      reply.code(kept.status).header('idempotent-replayed', 'true');
      if (kept.contentType) reply.header('content-type', kept.contentType);
      return reply.send(kept.body ?? undefined);
    }

    app.addHook('preHandler', replayOrClaim);

    app.addHook('onSend', async (request, reply, payload) => {
      const rowId = request.idempotencyRowId;
      if (!rowId) return payload;
      request.idempotencyRowId = undefined;
      if (notKept(reply.statusCode)) {
        await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, rowId));
        return payload;
      }
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      const contentType = reply.getHeader('content-type');
      await db
        .update(idempotencyKeys)
        .set({
          status: reply.statusCode,
          body,
          contentType: typeof contentType === 'string' ? contentType : null,
        })
        .where(eq(idempotencyKeys.id, rowId));
      return payload;
    });
  },
  { name: 'idempotency' },
);
