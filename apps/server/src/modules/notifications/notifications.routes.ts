import {
  entityId,
  notificationListEnvelopeSchema,
  notificationListQuerySchema,
  notificationMessages,
  notificationReadAllSchema,
  notificationSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import type { NotificationsService } from './notifications.service.js';

/** The signed-in user's inbox of what others did to them: read, and marked read, by them alone. */
export async function notificationsRoutes(
  app: FastifyInstance,
  options: { notifications: NotificationsService },
) {
  const { notifications } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];

  r.get(
    '/notifications',
    {
      schema: {
        tags,
        summary: 'My notices, newest first, with how many are unread',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListEnvelopeSchema },
      },
    },
    async (request) => notifications.list(requireAuth(request).user.id, request.query),
  );

  r.post(
    '/notifications/read_all',
    {
      schema: {
        tags,
        summary: 'Mark all my notices read',
        response: { 200: successEnvelope(notificationReadAllSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await notifications.markAllRead(requireAuth(request).user.id),
    }),
  );

  r.post(
    '/notifications/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark one of my notices read',
        params: z.object({ id: entityId(notificationMessages.notFound) }),
        response: { 200: successEnvelope(notificationSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await notifications.markRead(requireAuth(request).user.id, request.params.id),
    }),
  );
}
