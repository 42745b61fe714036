import {
  entityId,
  signedInSessionMessages,
  signedInSessionSchema,
  signedOutOthersSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import type { SignedInSessionsService } from './signed-in-sessions.service.js';

/** The profile's signed-in devices. API tokens are refused here (plugins/api-token-access.ts): a token is not a device. */
export async function signedInSessionsRoutes(
  app: FastifyInstance,
  options: { signedInSessions: SignedInSessionsService },
) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { signedInSessions } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['profile'];

  r.get(
    '/users/me/sessions',
    {
      schema: {
        tags,
        summary: 'The devices signed in to my account: this one first, then the others by latest use',
        response: { 200: successEnvelope(z.array(signedInSessionSchema)) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await signedInSessions.list(requireSession(request)),
    }),
  );

  r.delete(
    '/users/me/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign a device out: its tokens stop working and its live updates close at once',
        params: z.object({ id: entityId(signedInSessionMessages.notFound) }),
      },
    },
    async (request, reply) => {
      await signedInSessions.signOut(requireSession(request), request.params.id);
      return reply.status(204).send();
    },
  );

  r.post(
    '/users/me/sessions/sign_out_others',
    {
      schema: {
        tags,
        summary: 'Sign out every other device; this one stays signed in',
        response: { 200: successEnvelope(signedOutOthersSchema) },
      },
    },
    async (request) => {
      const data = await signedInSessions.signOutOthers(requireSession(request));
      return { status: 'success' as const, data, message: data.message };
    },
  );
}
