import {
  apiTokenCreateBodySchema,
  apiTokenCreatedSchema,
  apiTokenSchema,
  entityId,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import type { ApiTokensService } from './api-tokens.service.js';

/**
 * Issue 16 §5: the signed-in user's personal API tokens. A token cannot manage tokens (the auth plugin
 * refuses every call under this path made with one), so a leaked token cannot mint itself successors.
 */
export async function apiTokensRoutes(app: FastifyInstance, options: { apiTokens: ApiTokensService }) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { apiTokens } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['api tokens'];

  r.get(
    '/users/me/api_tokens',
    {
      schema: {
        tags,
        summary: 'My API tokens (not revoked), newest first; the secrets are never shown again',
        response: { 200: successEnvelope(z.array(apiTokenSchema)) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await apiTokens.list(requireAuth(request).user.id),
    }),
  );

  r.post(
    '/users/me/api_tokens',
    {
      schema: {
        tags,
        summary: 'Create an API token (needs a plan with API access); the answer carries the secret, once',
        body: apiTokenCreateBodySchema,
        response: { 201: successEnvelope(apiTokenCreatedSchema) },
      },
    },
    async (request, reply) => {
      const created = await apiTokens.create(requireAuth(request).user.id, request.body.api_token);
      return reply.status(201).send({ status: 'success', data: created });
    },
  );

  r.delete(
    '/users/me/api_tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API token: it stops working at once',
        params: z.object({ id: entityId('API token not found') }),
      },
    },
    async (request, reply) => {
      await apiTokens.revoke(requireAuth(request).user.id, request.params.id);
      return reply.status(204).send();
    },
  );
}
