import {
  entityId,
  oembedQuerySchema,
  oembedResponseSchema,
  shareCreateBodySchema,
  sharedSnapshotSchema,
  shareLinkSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noSignIn } from '../../lib/openapi-security.js';
import { requireAuth } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import { oembedFor } from './share-page.js';
import type { ShareReference } from './shares.repository.js';
import type { SharesService } from './shares.service.js';

/** Public reads are throttled per address: codes are unguessable, but scraping one should cost. */
const publicRead = { rateLimit: { max: 120, timeWindow: 60_000 } };
const shareCode = z.string().max(64);
/**
 * The link's id or its code: GET shares/{id} takes the code, so DELETE takes either. They cannot be taken
 * for each other: a code is 22 base64url characters, never shaped as a UUID.
 */
const shareReference = shareCode
  .min(1)
  .describe('the share link’s id, or its code')
  .transform((value): ShareReference => {
    const id = entityId().safeParse(value);
    return id.success ? { id: id.data } : { code: value };
  });

/** Issue 16 §3: share links (members create, owners list and revoke, anyone with the code reads). */
export async function sharesRoutes(app: FastifyInstance, options: { shares: SharesService; appUrl: string }) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { shares, appUrl } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shares'];

  r.post(
    '/shares',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          'Share your own character’s inventory, a revealed loot or a shop (201; 200 with the same link when it is already shared; 403 for another player’s character)',
        body: shareCreateBodySchema,
        response: { 200: successEnvelope(shareLinkSchema), 201: successEnvelope(shareLinkSchema) },
      },
    },
    async (request, reply) => {
      const { share, created } = await shares.create(requireAuth(request).user.id, request.body.share);
      return reply.status(created ? 201 : 200).send({ status: 'success', data: share });
    },
  );

  r.get(
    '/users/me/shares',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'My share links that are not revoked, newest first',
        response: { 200: successEnvelope(z.array(shareLinkSchema)) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await shares.listMine(requireAuth(request).user.id),
    }),
  );

  r.delete(
    '/shares/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          'Revoke one of my share links, named by its id or its code: its page becomes not found at once',
        params: z.object({ id: shareReference }),
      },
    },
    async (request, reply) => {
      await shares.revoke(requireAuth(request).user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  r.get(
    '/shares/:id',
    {
      config: publicRead,
      schema: {
        ...noSignIn,
        tags,
        summary: 'Read what a share code shows (public, no sign-in); 404 when unknown or revoked',
        security: [],
        params: z.object({ id: shareCode.describe('the share code') }),
        response: { 200: successEnvelope(sharedSnapshotSchema) },
      },
    },
    async (request) => ({ status: 'success' as const, data: await shares.snapshot(request.params.id) }),
  );

  r.get(
    '/oembed',
    {
      config: publicRead,
      schema: {
        ...noSignIn,
        tags,
        summary:
          'oEmbed for a share link (https://oembed.com): answered in oEmbed’s own format, not the envelope',
        security: [],
        querystring: oembedQuerySchema,
        response: {
          200: oembedResponseSchema,
          501: z.string().describe('Not Implemented: format=xml (only json is offered), in plain text'),
        },
      },
    },
    async (request, reply) => {
      // oEmbed 1.0 §2.3.4: a format not offered is 501, in plain text as oEmbed consumers read it.
      if (request.query.format === 'xml')
        return reply
          .code(501)
          .type('text/plain; charset=utf-8')
          .send('Not Implemented: only format=json is offered');
      return oembedFor(shares, appUrl, request.query.url);
    },
  );
}
