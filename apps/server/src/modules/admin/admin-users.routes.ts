import {
  adminDeletedUserSchema,
  adminDeleteUserBodySchema,
  adminGrantTierBodySchema,
  adminSuspendBodySchema,
  adminUserDetailSchema,
  adminUserQuerySchema,
  adminUserSummarySchema,
  entityId,
  listEnvelope,
  messageEnvelopeSchema,
  planGrantedMessage,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from './admin-guard.js';
import type { AdminUsersService } from './admin-users.service.js';

const userParams = z.object({ id: entityId() });

/** Issue 15, Users. Registered inside adminPlugin, so every route is behind the admin guard. */
export async function adminUsersRoutes(app: FastifyInstance, options: { users: AdminUsersService }) {
  const { users } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const detail = { 200: successEnvelope(adminUserDetailSchema) };

  r.get(
    '/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Users, newest first: search by email or username, filter by plan, status and admin flag',
        querystring: adminUserQuerySchema,
        response: { 200: listEnvelope(adminUserSummarySchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { users: found, meta } = await users.list(request.query);
      return { status: 'success' as const, data: found, meta };
    },
  );

  r.get(
    '/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'A user: parties, characters, subscription, sessions, recent ledger',
        params: userParams,
        response: detail,
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await users.detail(request.params.id) };
    },
  );

  r.post(
    '/users/:id/suspend',
    {
      schema: {
        tags: ['admin'],
        summary: 'Suspend: sign-in refused, every session and live connection ended at once',
        params: userParams,
        body: adminSuspendBodySchema,
        response: detail,
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await users.suspend(requireAdmin(request), request.params.id, request.body.reason),
      message: 'The account is suspended.',
    }),
  );

  r.post(
    '/users/:id/unsuspend',
    {
      schema: { tags: ['admin'], summary: 'Lift a suspension', params: userParams, response: detail },
    },
    async (request) => ({
      status: 'success' as const,
      data: await users.unsuspend(requireAdmin(request), request.params.id),
      message: 'The suspension is lifted.',
    }),
  );

  r.post(
    '/users/:id/revoke_sessions',
    {
      schema: {
        tags: ['admin'],
        summary: 'Sign the user out everywhere and revoke every API token of theirs',
        params: userParams,
        response: detail,
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await users.revokeSessions(requireAdmin(request), request.params.id),
      message: 'Every session of this user has ended and their API tokens are revoked.',
    }),
  );

  r.post(
    '/users/:id/tier',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put the user on a plan without payment (recorded in the subscription and the audit log)',
        params: userParams,
        body: adminGrantTierBodySchema,
        response: detail,
      },
    },
    async (request) => {
      const { detail, previousTier } = await users.grantTier(
        requireAdmin(request),
        request.params.id,
        request.body,
      );
      return {
        status: 'success' as const,
        data: detail,
        message: planGrantedMessage(request.body.tier_id, previousTier),
      };
    },
  );

  r.delete(
    '/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Delete the account for good (confirmed with its email): parties handed over, characters deleted',
        params: userParams,
        body: adminDeleteUserBodySchema,
        response: { 200: successEnvelope(adminDeletedUserSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await users.deleteAccount(requireAdmin(request), request.params.id, request.body.confirm_email),
      message: 'The account is deleted.',
    }),
  );

  r.post(
    '/users/:id/password_reset',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mail the user a password reset link',
        params: userParams,
        response: { 200: messageEnvelopeSchema },
      },
    },
    async (request) => {
      await users.sendPasswordReset(requireAdmin(request), request.params.id);
      const message = 'A password reset link is on its way to the user.';
      return { status: 'success' as const, data: { message }, message };
    },
  );
}
