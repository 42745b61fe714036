import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { JobQueue } from './jobs/job-queue.js';
import { AppError } from './lib/app-error.js';
import { tabIdFrom, withChangeSource } from './lib/change-source.js';
import { apiCompression } from './lib/compression.js';
import { loggerOptions, redactingLogger } from './lib/logger.js';
import type { MailQueue } from './lib/mail-queue.js';
import { AccessTokens } from './modules/accounts/access-tokens.js';
import { AccountMails } from './modules/accounts/account-mails.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { startSessionCache } from './modules/accounts/session-cache.js';
import { signedInSessionsRoutes } from './modules/accounts/signed-in-sessions.routes.js';
import { SignedInSessionsService } from './modules/accounts/signed-in-sessions.service.js';
import type { AccountLeavingHook } from './modules/admin/account-deletion.js';
import { type AdminRoute, adminPlugin } from './modules/admin/admin.plugin.js';
import { AdminOperationsService } from './modules/admin/admin-operations.service.js';
import { AdminSessionsService } from './modules/admin/admin-sessions.service.js';
import { AdminStatsService } from './modules/admin/admin-stats.service.js';
import { AdminUsersService } from './modules/admin/admin-users.service.js';
import { AnnouncementsService } from './modules/admin/announcements.service.js';
import { AuditLog } from './modules/admin/audit-log.js';
import { AuditLogsService } from './modules/admin/audit-logs.service.js';
import { announcementsRoutes } from './modules/admin/communications.routes.js';
import { reportsRoutes } from './modules/admin/moderation.routes.js';
import { ModerationService } from './modules/admin/moderation.service.js';
import { createSiteSettingsHook } from './modules/admin/site-settings.hook.js';
import { siteSettingsPublicRoutes } from './modules/admin/site-settings.routes.js';
import { SiteSettingsService } from './modules/admin/site-settings.service.js';
import { SystemHealthService } from './modules/admin/system-health.service.js';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.js';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { charactersRoutes } from './modules/characters/characters.routes.js';
import { CharactersService } from './modules/characters/characters.service.js';
import { discordAccountsRoutes } from './modules/discord/discord-accounts.routes.js';
import { DiscordAccountsService } from './modules/discord/discord-accounts.service.js';
import { discordInteractionsRoutes } from './modules/discord/discord-interactions.routes.js';
import { DiscordInteractionsService } from './modules/discord/discord-interactions.service.js';
import { DiscordOAuth } from './modules/discord/discord-oauth.js';
import { OAuthStateCookies } from './modules/discord/discord-oauth-state.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { inventoryRoutes } from './modules/inventory/inventory.routes.js';
import { InventoryService } from './modules/inventory/inventory.service.js';
import { itemsRoutes } from './modules/items/items.routes.js';
import { ItemsService } from './modules/items/items.service.js';
import { ledgerRoutes } from './modules/ledger/ledger.routes.js';
import { LedgerService } from './modules/ledger/ledger.service.js';
import { lootRoutes } from './modules/loot/loot.routes.js';
import { LootService } from './modules/loot/loot.service.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { partiesRoutes } from './modules/parties/parties.routes.js';
import { type MemberLeftHook, PartiesService } from './modules/parties/parties.service.js';
import { PartyNotesService } from './modules/parties/party-notes.service.js';
import { PatronagesService } from './modules/parties/patronages.service.js';
import {
  AnnouncementEmailLinks,
  AnnouncementEmailsService,
} from './modules/preferences/announcement-emails.js';
import { announcementEmailsRoutes } from './modules/preferences/announcement-emails.routes.js';
import { preferencesRoutes } from './modules/preferences/preferences.routes.js';
import { PreferencesService } from './modules/preferences/preferences.service.js';
import { sharePageRoutes } from './modules/shares/share-page.js';
import { sharesRoutes } from './modules/shares/shares.routes.js';
import { SharesService } from './modules/shares/shares.service.js';
import { shopsRoutes } from './modules/shops/shops.routes.js';
import { ShopsService } from './modules/shops/shops.service.js';
import { createBillingProvider } from './modules/subscriptions/billing-setup.js';
import { EntitlementService } from './modules/subscriptions/entitlements.service.js';
import type { StripeBilling, StripeOptions } from './modules/subscriptions/stripe-billing.js';
import { stripeWebhookRoutes } from './modules/subscriptions/stripe-webhooks.routes.js';
import { StripeWebhookService } from './modules/subscriptions/stripe-webhooks.service.js';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { SubscriptionsService } from './modules/subscriptions/subscriptions.service.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { authPlugin } from './plugins/auth.js';
import {
  clientErrorHandler,
  errorHandlerPlugin,
  frameworkErrorHandler,
  MAX_PARAM_LENGTH,
} from './plugins/error-handler.js';
import { idempotencyPlugin } from './plugins/idempotency.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { type AuthRateLimits, defaultAuthRateLimits, rateLimitPlugin } from './plugins/rate-limit.js';
import { securityHeaderOptions, securityHeadersPlugin } from './plugins/security-headers.js';
import { isStaticAssetRequest, webAppPlugin } from './plugins/web-app.js';
import { InProcessBroadcaster, RedisBroadcaster } from './realtime/broadcaster.js';
import { cablePlugin, defaultCableLimits } from './realtime/cable-server.js';
import { EventBus } from './realtime/event-bus.js';
import { InProcessPresence, RedisPresence } from './realtime/presence.js';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  mail: MailQueue;
  jwtSecret: string;
  /** A pino logger to share with the rest of the process; `false` silences the app (tests). */
  logger?: FastifyBaseLogger | false;
  rateLimits?: AuthRateLimits;
  now?: () => Date;
  /** Tests point the Stripe SDK at a fake Stripe API. */
  stripeApi?: Pick<StripeOptions, 'host' | 'port' | 'protocol'>;
  /** REQUEST_TIMEOUT_MS unless given: tests wait a fraction of a second for a stalled request instead. */
  requestTimeoutMs?: number;
  /** The prefix of the app's Redis channels (`haversack:`): tests keep theirs apart from parallel runs'. */
  redisNamespace?: string;
}

/**
 * How long a client may take to send a whole request, headers and body. Fastify turns Node's own limit off,
 * so a client that sent headers with a Content-Length and then nothing held its socket, and what it had
 * sent, for as long as it liked: enough such clients exhaust the server's sockets. 30 s carries the largest
 * body taken (bodyLimit, 1 MB) at about 35 KB/s, slower than any link a person plays on. The client is
 * answered 408 in the envelope (clientErrorHandler). It bounds the request only: a long answer (a CSV
 * export) is not cut, nor a WebSocket on /cable, which is no longer an HTTP request once upgraded, nor an
 * idle keep-alive connection between two requests (keepAliveTimeout closes those).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface AppServices {
  accounts: AccountsService;
  accessTokens: AccessTokens;
  apiTokens: ApiTokensService;
  signedInSessions: SignedInSessionsService;
  preferences: PreferencesService;
  /** The unsubscribe link of a mass mail (signed out). */
  announcementEmails: AnnouncementEmailsService;
  entitlements: EntitlementService;
  subscriptions: SubscriptionsService;
  events: EventBus;
  parties: PartiesService;
  patronages: PatronagesService;
  partyNotes: PartyNotesService;
  characters: CharactersService;
  inventory: InventoryService;
  items: ItemsService;
  ledger: LedgerService;
  shops: ShopsService;
  loot: LootService;
  shares: SharesService;
  notifications: NotificationsService;
  jobs: JobQueue;
  discordAccounts: DiscordAccountsService;
  discordInteractions: DiscordInteractionsService;
  /** DESIGN §10: the append-only audit log every admin module writes to. */
  audit: AuditLog;
  adminSessions: AdminSessionsService;
  auditLogs: AuditLogsService;
  /** Issue 15: the admin pages' services (the reports and banners every user reaches too). */
  backOffice: {
    stats: AdminStatsService;
    moderation: ModerationService;
    announcements: AnnouncementsService;
    operations: AdminOperationsService;
    systemHealth: SystemHealthService;
  };
  adminUsers: AdminUsersService;
  siteSettings: SiteSettingsService;
  /** Every route under /api/v1/admin with what it demands (filled at registration; read by the tests). */
  adminRoutes: AdminRoute[];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const requestIdPattern = /^[A-Za-z0-9._-]{1,64}$/;
const routerOptions = { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH };

/** DESIGN §2: plugins external → app → modules. Tests build this same app on a fresh database. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const requestTimeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    // Every log line is redacted (lib/logger.ts): tokens, passwords and mailed links never reach a log.
    ...(deps.logger === false
      ? { logger: false }
      : deps.logger
        ? { loggerInstance: redactingLogger(deps.logger) }
        : { logger: loggerOptions(config.logLevel) }),
    logController: new LogController({ disableRequestLogging: isStaticAssetRequest }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestTimeout: requestTimeoutMs,
    http: {
      // Node takes the longer of the two as the whole request's limit (headers: 60 s by default), so a
      // shorter request timeout alone would still let a stalled body hold on for a minute.
      headersTimeout: requestTimeoutMs,
      // Node looks for stalled requests every 30 s by default, which would let one live up to twice the
      // timeout; a tenth of it keeps the limit close to what it says.
      connectionsCheckingInterval: Math.max(1, Math.round(requestTimeoutMs / 10)),
    },
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    routerOptions,
    // Errors raised before any route runs are answered in the envelope too (plugins/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // While closing, the onRequest hook below answers 503 in the envelope instead of Fastify's own body.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Graceful shutdown: requests in flight when close() starts still finish, but their keep-alive
  // connections must not hold the server open afterwards, and new requests on them are turned away.
  let closing = false;
  // DESIGN §4: every request's changes come from the web unless its authentication says otherwise
  // (lib/change-source.ts). Callback style, so the rest of the request runs inside the context.
  app.addHook('onRequest', (request, _reply, done) =>
    withChangeSource('web', done, tabIdFrom(request.headers['x-haversack-tab'])),
  );
  // Callback style, like the hooks below: an async hook costs every request a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done(closing ? new AppError('SERVICE_UNAVAILABLE') : undefined);
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const now = deps.now ?? (() => new Date());
  // DESIGN §6: fan-out through Redis when REDIS_URL is set, in-process otherwise.
  const redisBroadcaster = config.redisUrl
    ? await RedisBroadcaster.connect(
        config.redisUrl,
        app.log,
        deps.redisNamespace ? { namespace: deps.redisNamespace } : {},
      )
    : undefined;
  const broadcaster = redisBroadcaster ?? new InProcessBroadcaster();
  const presence = redisBroadcaster ? new RedisPresence(redisBroadcaster.redis) : new InProcessPresence();
  const events = new EventBus(broadcaster, app.log);
  app.addHook('onClose', async () => broadcaster.close());
  const accessTokens = new AccessTokens(deps.jwtSecret);
  const billing = await createBillingProvider(config, deps.stripeApi);
  const entitlements = new EntitlementService(now);
  const subscriptions = new SubscriptionsService({
    db: database.db,
    entitlements,
    billing,
    appUrl: config.appUrl,
    now,
  });
  const inventory = new InventoryService(database.db, entitlements, events, {
    pageCacheBytes: config.containerPageCacheBytes,
  });
  // DESIGN §10: background work (scheduled restock) on the durable queue; main.ts starts polling it.
  // PGlite: this process alone polls the queue (the DATA_DIR lock).
  const jobs = new JobQueue(database.db, now, app.log, database.kind === 'pglite');
  // Before the database closes: a job started in this process (a mail being handed over) finishes.
  app.addHook('onClose', async () => jobs.stop());
  const audit = new AuditLog();
  const sessionCache = await startSessionCache(app, database);
  // What others did to a user, kept for when they come back (written by the services that do it).
  const notifications = new NotificationsService({ db: database.db, events, now });
  // Filled once the shops exist: a deleted account's purchase requests are withdrawn before it goes.
  const accountLeaving: AccountLeavingHook[] = [];
  // Filled once the patronages exist: a deleted account leaves each party as a member does.
  const partyLeft: MemberLeftHook[] = [];
  const accounts = new AccountsService({
    db: database.db,
    accountLeaving,
    partyLeft,
    notices: notifications,
    accessTokens,
    mails: new AccountMails({ jobs, mail: deps.mail, appUrl: config.appUrl, secret: deps.jwtSecret, now }),
    subscriptions,
    sessions: events,
    entitlements,
    sessionCache,
    now,
  });
  const parties = new PartiesService({ db: database.db, entitlements, events });
  const characters = new CharactersService(database.db, entitlements, events);
  const shops = new ShopsService(database.db, { entitlements, events, moves: inventory.moves, jobs, now });
  accountLeaving.push((userId) => shops.withdrawPendingRequests(userId, null));
  const patronages = new PatronagesService(database.db, entitlements, events, app.log);
  partyLeft.push((tx, partyId, userId, actorId, told) =>
    patronages.memberLeft(tx, partyId, userId, actorId, told),
  );
  const loot = new LootService(database.db, { entitlements, events, moves: inventory.moves, now });
  const announcementLinks = new AnnouncementEmailLinks({ secret: deps.jwtSecret, appUrl: config.appUrl });
  const discordSignIn = Boolean(config.discordClientId && config.discordClientSecret);
  // Allowed (the commands' endpoint can be verified with Discord first), but every command needs a linked
  // account, and linking is Discord sign-in: the operator hears of it once, where they look.
  if (config.discordPublicKey && !discordSignIn) {
    app.log.warn(
      'DISCORD_PUBLIC_KEY is set but DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not: the slash commands answer, but players cannot link their Discord accounts, so every command refuses them. Set both to turn on Discord sign-in.',
    );
  }
  const services: AppServices = {
    accessTokens,
    accounts,
    apiTokens: new ApiTokensService(database.db, entitlements, now),
    signedInSessions: new SignedInSessionsService({ db: database.db, sessions: events, now }),
    preferences: new PreferencesService(database.db),
    announcementEmails: new AnnouncementEmailsService({ db: database.db, links: announcementLinks }),
    entitlements,
    subscriptions,
    events,
    parties,
    patronages,
    partyNotes: new PartyNotesService(database.db, events),
    characters,
    inventory,
    shops,
    loot,
    notifications,
    shares: new SharesService(database.db, {
      characters,
      inventory,
      loot,
      shops,
      appUrl: config.appUrl,
      now,
    }),
    jobs,
    items: new ItemsService(database.db, entitlements, now),
    ledger: new LedgerService(database.db),
    // Issue 16: sign in with Discord when both OAuth settings are there; slash commands with the public key.
    discordAccounts: new DiscordAccountsService({
      db: database.db,
      accounts,
      oauth:
        config.discordClientId && config.discordClientSecret
          ? new DiscordOAuth({
              clientId: config.discordClientId,
              clientSecret: config.discordClientSecret,
              redirectUri: `${config.appUrl}/auth/discord/callback`,
              baseUrl: config.discordApiBaseUrl,
            })
          : undefined,
      states: new OAuthStateCookies(deps.jwtSecret, now),
    }),
    discordInteractions: new DiscordInteractionsService({
      db: database.db,
      parties,
      characters,
      inventory,
      loot,
      appUrl: config.appUrl,
      linkingAvailable: discordSignIn,
      log: app.log,
      now,
    }),
    audit,
    adminSessions: new AdminSessionsService({ db: database.db, audit, now }),
    auditLogs: new AuditLogsService({
      db: database.db,
      audit,
      now,
      // As the guard's refusals (admin-refusal-audit.ts): one entry per user and page a rate-limit window.
      reportWindowMs: (deps.rateLimits ?? defaultAuthRateLimits).windowMs,
    }),
    backOffice: {
      stats: new AdminStatsService({ db: database.db, now }),
      moderation: new ModerationService({ db: database.db, audit, now }),
      announcements: new AnnouncementsService({ db: database.db, audit, now }),
      operations: new AdminOperationsService({
        db: database.db,
        audit,
        jobs,
        mail: deps.mail,
        appUrl: config.appUrl,
        unsubscribeLinks: announcementLinks,
        sessions: events,
        subscriptions,
        now,
      }),
      systemHealth: new SystemHealthService({
        db: database.db,
        audit,
        now,
        databaseEngine: database.kind,
        ...(redisBroadcaster ? { redis: redisBroadcaster.redis } : {}),
        mailTransport: config.smtpUrl ? 'smtp' : 'file',
        billingProvider: billing.name,
        cable: () => app.cableStats(),
        dataDir: config.dataDir,
      }),
    },
    siteSettings: new SiteSettingsService({ db: database.db, audit, now }),
    adminRoutes: [],
    adminUsers: new AdminUsersService({
      db: database.db,
      audit,
      accounts,
      subscriptions,
      sessions: events,
      events,
      now,
      accountLeaving,
      notices: notifications,
      partyLeft,
    }),
  };
  services.parties.onMemberLeft((tx, partyId, userId, actorId, told) =>
    services.patronages.memberLeft(tx, partyId, userId, actorId, told),
  );
  // The modules that act on other users leave them notices for when they come back.
  for (const service of [
    services.parties,
    services.patronages,
    services.shops,
    services.inventory,
    services.loot,
  ])
    service.setNoticeBoard(notifications);
  services.parties.onMemberLeaving((partyId, userId, removedById) =>
    services.shops.withdrawPendingRequests(userId, partyId, removedById),
  );
  // A request whose buyer's character or container is deleted goes back on sale in that deletion.
  services.characters.onDeleting((tx, characterId, actor) =>
    services.shops.releaseRequestsOfBuyer(tx, actor, { characterId }),
  );
  // And one whose buyer's character leaves the party, in the transaction that takes it out.
  services.characters.onLeavingParty((tx, characterId, partyId, actor) =>
    services.shops.releaseRequestsOfBuyer(tx, actor, { characterId, leftPartyId: partyId }),
  );
  inventory.onContainerDeleting((tx, containerId, actor) =>
    services.shops.releaseRequestsOfBuyer(tx, actor, { containerId }),
  );
  subscriptions.setPatronageLister((db, userId) => services.patronages.lister(db, userId));
  subscriptions.onPlanChanged((userId) => services.patronages.patronPlanChanged(userId));
  subscriptions.setCharacterPartyResolver((db, userId, characterId) =>
    services.characters.visibleParty(db, userId, characterId),
  );
  services.characters.setContainerLister((userId, characterIds) =>
    inventory.containersOfCharacters(userId, characterIds),
  );
  app.decorate('services', services);

  // External plugins.
  await app.register(securityHeadersPlugin, securityHeaderOptions);
  // Before compression: its onSend keeps the answer as the route wrote it, not as a compressed stream.
  await app.register(idempotencyPlugin, {
    db: database.db,
    kind: database.kind,
    secret: deps.jwtSecret,
    now,
  });
  await app.register(compress, apiCompression);
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(rateLimitPlugin, {
    limits: deps.rateLimits ?? defaultAuthRateLimits,
    ...(redisBroadcaster ? { redis: redisBroadcaster.redis } : {}),
  });
  await app.register(apiDocsPlugin, { routerOptions });
  await app.register(authPlugin, {
    accessTokens,
    accounts: services.accounts,
    apiTokens: services.apiTokens,
    limitApiTokenCall: app.limitApiTokenCall,
  });
  // Issue 15: maintenance mode and closed registration, before any route runs.
  app.addHook(
    'onRequest',
    createSiteSettingsHook({ settings: services.siteSettings, accessTokens, accounts: services.accounts }),
  );

  await app.register(cablePlugin, {
    db: database.db,
    accessTokens,
    accounts: services.accounts,
    broadcaster,
    presence,
    limits: { ...defaultCableLimits, connectionsPerUser: config.cableConnectionsPerUser },
  });

  // Modules.
  await app.register(
    async (api) => {
      await api.register(healthRoutes, {
        database,
        ...(redisBroadcaster ? { redis: redisBroadcaster } : {}),
      });
      await api.register(siteSettingsPublicRoutes, { settings: services.siteSettings });
      await api.register(accountsRoutes, { accounts: services.accounts });
      await api.register(apiTokensRoutes, { apiTokens: services.apiTokens });
      await api.register(signedInSessionsRoutes, { signedInSessions: services.signedInSessions });
      await api.register(subscriptionsRoutes, { subscriptions });
      await api.register(partiesRoutes, {
        parties: services.parties,
        patronages: services.patronages,
        notes: services.partyNotes,
      });
      await api.register(charactersRoutes, { characters: services.characters });
      await api.register(inventoryRoutes, { inventory: services.inventory });
      await api.register(itemsRoutes, { items: services.items });
      await api.register(ledgerRoutes, { ledger: services.ledger });
      await api.register(shopsRoutes, { shops: services.shops });
      await api.register(lootRoutes, { loot: services.loot });
      await api.register(notificationsRoutes, { notifications });
      await api.register(sharesRoutes, { shares: services.shares, appUrl: config.appUrl });
      await api.register(discordAccountsRoutes, {
        discord: services.discordAccounts,
        appUrl: config.appUrl,
        interactionsEnabled: config.discordPublicKey !== undefined,
        clientId: config.discordClientId,
      });
      await api.register(discordInteractionsRoutes, {
        interactions: services.discordInteractions,
        publicKey: config.discordPublicKey,
        now,
      });
      await api.register(adminPlugin, {
        prefix: '/admin',
        db: database.db,
        audit,
        sessions: services.adminSessions,
        auditLogs: services.auditLogs,
        backOffice: services.backOffice,
        users: services.adminUsers,
        settings: services.siteSettings,
        routes: services.adminRoutes,
      });
      await api.register(reportsRoutes, { moderation: services.backOffice.moderation });
      await api.register(announcementsRoutes, { announcements: services.backOffice.announcements });
      await api.register(announcementEmailsRoutes, { announcementEmails: services.announcementEmails });
      await api.register(stripeWebhookRoutes, {
        stripe: billing.name === 'stripe' ? (billing as StripeBilling) : undefined,
        webhooks: new StripeWebhookService(database.db),
      });
    },
    { prefix: '/api/v1' },
  );
  await app.register(preferencesRoutes, { preferences: services.preferences });

  const webDistDir = config.webDistDir ?? defaultWebDist;
  // Before the web app's catch-all: share pages carry their own unfurl tags (issue 16 §3).
  await app.register(sharePageRoutes, {
    shares: services.shares,
    appUrl: config.appUrl,
    distDir: webDistDir,
  });
  await app.register(webAppPlugin, { distDir: webDistDir });
  return app;
}
