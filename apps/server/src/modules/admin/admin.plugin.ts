import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import { type AdminAccess, createAdminGuard, createRefusedActAudit } from './admin-guard.js';
import type { AdminOperationsService } from './admin-operations.service.js';
import { createRefusalAudit } from './admin-refusal-audit.js';
import { adminSessionsRoutes } from './admin-sessions.routes.js';
import type { AdminSessionsService } from './admin-sessions.service.js';
import { adminStatsRoutes } from './admin-stats.routes.js';
import type { AdminStatsService } from './admin-stats.service.js';
import { adminUsersRoutes } from './admin-users.routes.js';
import type { AdminUsersService } from './admin-users.service.js';
import type { AnnouncementsService } from './announcements.service.js';
import type { AuditLog } from './audit-log.js';
import { auditLogsRoutes } from './audit-logs.routes.js';
import type { AuditLogsService } from './audit-logs.service.js';
import { bulkOperationsRoutes } from './bulk-operations.routes.js';
import { communicationsAdminRoutes } from './communications.routes.js';
import { moderationAdminRoutes } from './moderation.routes.js';
import type { ModerationService } from './moderation.service.js';
import { siteSettingsAdminRoutes } from './site-settings.routes.js';
import type { SiteSettingsService } from './site-settings.service.js';
import { systemHealthAdminRoutes } from './system-health.routes.js';
import type { SystemHealthService } from './system-health.service.js';

export interface AdminPluginOptions {
  db: Database;
  audit: AuditLog;
  sessions: AdminSessionsService;
  auditLogs: AuditLogsService;
  /** Issue 15 pages: dashboard, analytics, financial, moderation, communications, bulk operations. */
  backOffice: {
    stats: AdminStatsService;
    moderation: ModerationService;
    announcements: AnnouncementsService;
    operations: AdminOperationsService;
    systemHealth: SystemHealthService;
  };
  users: AdminUsersService;
  settings: SiteSettingsService;
  /** Filled with every admin route as it is registered: the tests walk it to prove each one is guarded. */
  routes?: AdminRoute[];
}

export interface AdminRoute {
  method: string;
  url: string;
  access: AdminAccess;
}

/**
 * Everything under /api/v1/admin. The guard (admin-guard.ts) runs on every route registered here, in
 * this plugin or any plugin it registers: a new admin module adds one `app.register` line below (see
 * README.md in this folder).
 */
export async function adminPlugin(app: FastifyInstance, options: AdminPluginOptions) {
  app.decorateRequest('adminSession', null);
  // Admin answers carry accounts' email addresses, IPs and user agents, and the Reports page's files are
  // made of them (the audit log's own export among them): no browser or proxy keeps a copy, as none keeps
  // one of the ledger's or the account's export. Here once, so that no admin route can forget it.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  const refusals = createRefusalAudit(app, options);
  app.addHook('onRequest', createAdminGuard(app, { sessions: options.sessions, refusals }));
  app.addHook('onError', createRefusedActAudit(refusals));
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      options.routes?.push({ method, url: route.url, access: route.config?.adminAccess ?? 'admin_session' });
    }
  });

  await app.register(adminSessionsRoutes, { sessions: options.sessions });
  await app.register(auditLogsRoutes, { auditLogs: options.auditLogs });
  const { stats, moderation, announcements, operations, systemHealth } = options.backOffice;
  await app.register(adminStatsRoutes, { stats });
  await app.register(moderationAdminRoutes, { moderation });
  await app.register(communicationsAdminRoutes, { announcements, operations });
  await app.register(bulkOperationsRoutes, { operations });
  await app.register(adminUsersRoutes, { users: options.users });
  await app.register(siteSettingsAdminRoutes, { settings: options.settings });
  await app.register(systemHealthAdminRoutes, { systemHealth });
}
