import { createHmac } from 'node:crypto';
import { idempotencyMessages } from '@haversack/contracts';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BOOT_ID, type CommitClaim, processName, withCommitClaim } from '../db/claim-commits.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/idempotency-keys.js';
import { AppError } from '../lib/app-error.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key's answer is kept: a retry comes within seconds, a day covers a phone that slept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim may be held by a request that has not answered. Nothing else bounds how long a request
 * runs (REQUEST_TIMEOUT_MS bounds receiving it; no statement or lock timeout is set), and one past a
 * minute is stuck. Past it a retry takes the claim over unless its change is marked committed; the
 * request still running then cannot commit (its mark is refused, db/claim-commits.ts). It matters only
 * when the claimant cannot be seen to be gone: its machine died, or PostgreSQL is reached through a pooler.
 */
export const IDEMPOTENCY_CLAIM_HOLD_MS = 60 * 1000;
/** Visible ASCII, as Stripe and the IETF draft's examples use (a UUID, a random token). */
const validKey = /^[\x21-\x7e]{1,255}$/;
const changes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The claim of the key this request came with, when new: its row keeps the answer. */
    idempotencyClaim?: CommitClaim;
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
 * The claim made while a request runs still refuses the copies checked meanwhile (409) whatever it ends with.
 */
const notKept = (status: number) => status >= 400;

/**
 * Changes are made once per `Idempotency-Key` (docs/decisions.md "Idempotency keys"). A signed-in caller's
 * POST, PUT, PATCH or DELETE that names a key it has not used is handled as usual and its answer kept for a
 * day; the same key again with the same request is answered from what was kept, with
 * `Idempotent-Replayed: true`, and changes nothing; with another request it is a 422. A copy checked while
 * the first is still running (no answer kept yet) is a 409 (`Retry-After: 1`); one checked once it has
 * answered is a replay, however close together they were sent. Answers of 400 and above are not kept: nothing was changed,
 * and the same key may be sent again once the cause is fixed. Modules whose answers carry secrets opt out (`keepNoAnswers`).
 * Requests without the header are untouched, so it costs nothing to those who do not send it.
 */
export const idempotencyPlugin = fp(
  async (
    app: FastifyInstance,
    options: { db: Database; kind: DatabaseHandle['kind']; secret: string; now?: () => Date },
  ) => {
    const { db } = options;
    const now = options.now ?? (() => new Date());
    /** The claims this process's requests hold now, until their answer is kept or dropped. */
    const running = new Set<string>();
    // On PGlite this process is the only one (the DATA_DIR lock): a claim left without an answer and not
    // marked was made by a process that died before its change committed.
    if (options.kind === 'pglite') {
      await db
        .delete(idempotencyKeys)
        .where(and(isNull(idempotencyKeys.status), eq(idempotencyKeys.committed, false)));
    }
    // On PostgreSQL a process is seen by its connections' application_name (db/postgres.ts), unless the
    // database URL names them otherwise: then only a claim's age tells.
    const namedProcesses =
      options.kind === 'postgres' && (await sameName(db, processName(BOOT_ID)).catch(() => false));

    /** Whether the request holding `kept` may still commit its change. */
    async function claimantRunning(kept: typeof idempotencyKeys.$inferSelect): Promise<boolean> {
      if (now().getTime() - kept.createdAt.getTime() > IDEMPOTENCY_CLAIM_HOLD_MS) return false;
      if (kept.claimedBy === BOOT_ID) return running.has(kept.id);
      if (options.kind === 'pglite') return false;
      if (!namedProcesses || !kept.claimedBy) return true;
      const result = await db.execute(
        sql`select exists (select 1 from pg_stat_activity where application_name = ${processName(kept.claimedBy)}) as "alive"`,
      );
      return (result as unknown as { rows: { alive: boolean }[] }).rows[0]?.alive !== false;
    }
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
        .values({ userId, key, fingerprint, claimedBy: BOOT_ID, createdAt: now() })
        .onConflictDoNothing()
        .returning({ id: idempotencyKeys.id });
      if (claimed[0]) {
        request.idempotencyClaim = { rowId: claimed[0].id, open: true, marked: false };
        running.add(claimed[0].id);
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
        // Made, but its process died before keeping the answer: never made again.
        if (kept.committed) throw new AppError('CONFLICT', idempotencyMessages.answerLost);
        if (!(await claimantRunning(kept))) {
          // Its change did not commit and its request is gone: this one claims the key afresh. The
          // claim's mark refuses to commit once the row is gone, should the first still be running.
          const taken = await db
            .delete(idempotencyKeys)
            .where(
              and(
                eq(idempotencyKeys.id, kept.id),
                isNull(idempotencyKeys.status),
                eq(idempotencyKeys.committed, false),
              ),
            )
            .returning({ id: idempotencyKeys.id });
          if (taken[0]) return replayOrClaim(request, reply);
        }
        reply.header('retry-after', '1');
        throw new AppError('CONFLICT', idempotencyMessages.inProgress);
      }
      reply.code(kept.status).header('idempotent-replayed', 'true');
      if (kept.contentType) reply.header('content-type', kept.contentType);
      return reply.send(kept.body ?? undefined);
    }

    app.addHook('preHandler', replayOrClaim);

    // What a claiming request's handler commits marks its claim (db/claim-commits.ts). Only the handlers of
    // routes that may honour the key are wrapped; a request without one runs its handler as it is.
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((method) => changes.has(method))) return;
      const handler = route.handler;
      route.handler = function (this: FastifyInstance, request, reply) {
        const claim = request.idempotencyClaim;
        return claim
          ? withCommitClaim(claim, () => handler.call(this, request, reply))
          : handler.call(this, request, reply);
      };
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      if (!claim) return payload;
      request.idempotencyClaim = undefined;
      // Work the request left running commits nothing more for it.
      claim.open = false;
      const rowId = claim.rowId;
      try {
        if (notKept(reply.statusCode)) {
          await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, rowId));
          return payload;
        }
        await keep(rowId, reply, payload);
        return payload;
      } finally {
        running.delete(rowId);
      }
    });

    async function keep(rowId: string, reply: FastifyReply, payload: unknown) {
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
    }
  },
  { name: 'idempotency' },
);

/** Whether the connections of `db` carry `name` (the database URL may set another application_name). */
async function sameName(db: Database, name: string): Promise<boolean> {
  const result = await db.execute(sql`select current_setting('application_name') = ${name} as "same"`);
  return (result as unknown as { rows: { same: boolean }[] }).rows[0]?.same === true;
}
