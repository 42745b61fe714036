import {
  preferencesResponseSchema,
  preferencesUpdateBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth.js';
import type { PreferencesService } from './preferences.service.js';

/** spec/01 §7: GET/PUT /users/preferences, outside /api/v1. */
export async function preferencesRoutes(app: FastifyInstance, options: { preferences: PreferencesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  r.get(
    '/users/preferences',
    {
      schema: {
        tags: ['preferences'],
        summary: 'The signed-in user’s preferences',
        response: { 200: successEnvelope(preferencesResponseSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: { preferences: await options.preferences.get(requireAuth(request).user.id) },
    }),
  );

  r.put(
    '/users/preferences',
    {
      schema: {
        tags: ['preferences'],
        summary: 'Change any of the preferences',
        body: preferencesUpdateBodySchema,
        response: { 200: successEnvelope(preferencesResponseSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: {
        preferences: await options.preferences.update(requireAuth(request).user.id, request.body.preferences),
      },
    }),
  );
}
