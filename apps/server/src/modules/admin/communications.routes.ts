import {
  adminOperationSchema,
  announcementBodySchema,
  announcementSchema,
  bulkPreviewSchema,
  entityId,
  massMailBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import { requireAdmin } from './admin-guard.js';
import { type AdminOperationsService, massMailParams } from './admin-operations.service.js';
import type { AnnouncementsService } from './announcements.service.js';

const idParams = z.object({ id: entityId() });

/** GET /api/v1/announcements and their dismissal: every signed-in user (outside the admin prefix). */
export async function announcementsRoutes(
  app: FastifyInstance,
  options: { announcements: AnnouncementsService },
) {
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/announcements',
    {
      schema: {
        tags: ['announcements'],
        summary: 'Announcements in their window now that I have not dismissed',
        response: { 200: successEnvelope(z.array(announcementSchema)) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await options.announcements.activeFor(requireAuth(request)),
    }),
  );
  r.post(
    '/announcements/:id/dismiss',
    {
      config: { noContent: true },
      schema: {
        tags: ['announcements'],
        summary: 'Close an announcement for me (on every device)',
        params: idParams,
      },
    },
    async (request, reply) => {
      await options.announcements.dismiss(requireAuth(request), request.params.id);
      return reply.status(204).send();
    },
  );
}

/** The Communications page: announcements and mass mail (under /api/v1/admin). */
export async function communicationsAdminRoutes(
  app: FastifyInstance,
  options: { announcements: AnnouncementsService; operations: AdminOperationsService },
) {
  const { announcements, operations } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/announcements',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every announcement, latest start first',
        response: { 200: successEnvelope(z.array(announcementSchema)) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await announcements.list() };
    },
  );

  r.post(
    '/announcements',
    {
      schema: {
        tags: ['admin'],
        summary: 'Show a banner in the app from starts_at until ends_at (audited)',
        body: announcementBodySchema,
        response: { 201: successEnvelope(announcementSchema) },
      },
    },
    async (request, reply) => {
      const created = await announcements.create(requireAdmin(request), request.body);
      return reply.status(201).send({ status: 'success', data: created });
    },
  );

  r.delete(
    '/announcements/:id',
    { schema: { tags: ['admin'], summary: 'Delete an announcement (audited)', params: idParams } },
    async (request, reply) => {
      await announcements.remove(requireAdmin(request), request.params.id);
      return reply.status(204).send();
    },
  );

  r.get(
    '/mass_mails',
    {
      schema: {
        tags: ['admin'],
        summary: 'Recent mass mails with their progress',
        response: { 200: successEnvelope(z.array(adminOperationSchema)) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await operations.recent(['mass_mail']) };
    },
  );

  r.post(
    '/mass_mails/preview',
    {
      schema: {
        tags: ['admin'],
        summary:
          'How many users the mail would go to (confirmed addresses; who turned announcement emails off only for a service notice); sends nothing',
        body: massMailBodySchema,
        response: { 200: successEnvelope(bulkPreviewSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return {
        status: 'success' as const,
        data: { count: await operations.preview(massMailParams(request.body)) },
      };
    },
  );

  r.post(
    '/mass_mails',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Email all users or one tier in the background (audited), leaving out who turned announcement emails off unless service_notice; poll GET /admin/operations/:id. 409 while the same mail is queued or running',
        body: massMailBodySchema,
        response: { 202: successEnvelope(adminOperationSchema) },
      },
    },
    async (request, reply) => {
      const operation = await operations.start(requireAdmin(request), massMailParams(request.body));
      return reply.status(202).send({ status: 'success', data: operation });
    },
  );

  r.get(
    '/operations/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Progress of a mass mail or bulk operation',
        params: idParams,
        response: { 200: successEnvelope(adminOperationSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await operations.get(request.params.id) };
    },
  );

  r.post(
    '/operations/:id/cancel',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Stop a queued or running mass mail or bulk operation before its next batch (audited); 409 once finished',
        params: idParams,
        response: { 200: successEnvelope(adminOperationSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await operations.cancel(requireAdmin(request), request.params.id),
    }),
  );
}
