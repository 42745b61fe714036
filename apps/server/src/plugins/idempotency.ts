import { createHash } from 'node:crypto';
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

export const idempotencyMessages = {
  invalidKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  reused: 'This Idempotency-Key was already used for a different request. Send a new key for a new change.',
  inProgress: 'A request with this Idempotency-Key is still being handled. Try again in a moment.',
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The row this request's answer is kept in, when it came with a new Idempotency-Key. */
    idempotencyRowId?: string;
  }
}

function fingerprintOf(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return `${request.method} ${request.url} ${createHash('sha256').update(body).digest('base64url')}`;
}

/**
 * Changes are made once per `Idempotency-Key` (docs/decisions.md "Idempotency keys"). A signed-in caller's
 * POST, PUT, PATCH or DELETE that names a key it has not used is handled as usual and its answer kept for a
 * day; the same key again with the same request is answered from what was kept, with
 * `Idempotent-Replayed: true`, and changes nothing; with another request it is a 422, and while the first
 * is still running a 409. Answers of 500 and above are not kept: nothing was changed, the caller may retry.
 * Requests without the header are untouched, so it costs nothing to those who do not send it.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: { db: Database; now?: () => Date }) => {
    const { db } = options;
    const now = options.now ?? (() => new Date());

    async function replayOrClaim(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (header === undefined || !changes.has(request.method) || !request.auth) return;
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
      if (kept.status === null) throw new AppError('CONFLICT', idempotencyMessages.inProgress);
      reply.code(kept.status).header('idempotent-replayed', 'true');
      if (kept.contentType) reply.header('content-type', kept.contentType);
      return reply.send(kept.body ?? undefined);
    }

    app.addHook('preHandler', replayOrClaim);

    app.addHook('onSend', async (request, reply, payload) => {
      const rowId = request.idempotencyRowId;
      if (!rowId) return payload;
      request.idempotencyRowId = undefined;
      if (reply.statusCode >= 500) {
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
