import { siteSettingsSchema, siteSettingsUpdateSchema, successEnvelope } from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noSignIn } from '../../lib/openapi-security.js';
import { requireAdmin } from './admin-guard.js';
import type { SiteSettingsService } from './site-settings.service.js';

/** Issue 15, Settings: maintenance mode and open registration. Behind the admin guard. */
export async function siteSettingsAdminRoutes(
  app: FastifyInstance,
  options: { settings: SiteSettingsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Site settings',
        response: { 200: successEnvelope(siteSettingsSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await options.settings.current() };
    },
  );
  r.put(
    '/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change site settings (each change audited)',
        body: siteSettingsUpdateSchema,
        response: { 200: successEnvelope(siteSettingsSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await options.settings.update(requireAdmin(request), request.body.settings),
    }),
  );
}

/** The switches the web app shows to everyone (the maintenance banner, the closed /register page). */
export async function siteSettingsPublicRoutes(
  app: FastifyInstance,
  options: { settings: SiteSettingsService },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/site_settings',
    {
      schema: {
        ...noSignIn,
        tags: ['settings'],
        summary: 'Maintenance mode and open registration, for everyone',
        response: { 200: successEnvelope(siteSettingsSchema) },
      },
    },
    async () => ({ status: 'success' as const, data: await options.settings.current() }),
  );
}
