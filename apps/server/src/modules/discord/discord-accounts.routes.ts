import {
  authProvidersSchema,
  discordCallbackBodySchema,
  discordCallbackResultSchema,
  discordLinkSchema,
  discordStartBodySchema,
  discordStartQuerySchema,
  discordStartResultSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { noSignIn, signInOptional } from '../../lib/openapi-security.js';
import { requireAuth } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import type { ClientInfo } from '../accounts/accounts.service.js';
import type { DiscordAccountsService } from './discord-accounts.service.js';
import {
  clearedStateCookieHeader,
  OAUTH_STATE_COOKIE,
  readCookie,
  stateCookieHeader,
} from './discord-oauth-state.js';

function clientInfo(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ipAddress: request.ip, ...(userAgent ? { userAgent } : {}) };
}

interface Options {
  discord: DiscordAccountsService;
  appUrl: string;
  interactionsEnabled: boolean;
  clientId: string | undefined;
}

/** Issue 16 §1 and §4: what this server offers, and the Discord sign-in, link and unlink calls. */
export async function discordAccountsRoutes(app: FastifyInstance, options: Options) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { discord, appUrl } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = appUrl.startsWith('https:');
  const perIp = (max: number) => ({ rateLimit: { max, timeWindow: app.authRateLimits.windowMs } });
  const callbackPage = `${appUrl}/auth/discord/callback`;

  r.get(
    '/auth/providers',
    {
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'The sign-in providers and integrations this server is configured for',
        response: { 200: successEnvelope(authProvidersSchema) },
      },
    },
    async () => ({
      status: 'success' as const,
      data: {
        discord: {
          sign_in: discord.signInEnabled,
          interactions: options.interactionsEnabled,
          // applications.commands lets the app answer slash commands in the server it is added to.
          invite_url: options.clientId
            ? `https://discord.com/oauth2/authorize?client_id=${encodeURIComponent(options.clientId)}&scope=applications.commands`
            : null,
          interactions_url: `${appUrl}/api/v1/discord/interactions`,
        },
      },
    }),
  );

  // A plain link for signing in (no bearer token travels with a navigation, so linking uses the POST).
  r.get(
    '/auth/discord/start',
    {
      config: perIp(app.authRateLimits.loginPerIp),
      schema: {
        ...noSignIn,
        // A browser navigation answered with a redirect, not a JSON call: kept out of the API document.
        hide: true,
        querystring: discordStartQuerySchema,
      },
    },
    async (request, reply) => {
      if (request.query.mode === 'link') return reply.redirect(`${callbackPage}?error=link_needs_post`);
      if (!discord.signInEnabled) return reply.redirect(`${callbackPage}?error=not_configured`);
      const { url, cookie } = await discord.start('login', null);
      reply.header('set-cookie', stateCookieHeader(cookie, secure));
      return reply.redirect(url);
    },
  );

  r.post(
    '/auth/discord/start',
    {
      config: perIp(app.authRateLimits.loginPerIp),
      preHandler: [app.identify],
      schema: {
        ...signInOptional,
        tags: ['auth'],
        summary:
          'Start signing in (mode login) or linking the signed-in account (mode link, bearer token): answers the Discord URL to open and sets the state cookie',
        body: discordStartBodySchema.optional(),
        response: { 200: successEnvelope(discordStartResultSchema) },
      },
    },
    async (request, reply) => {
      const mode = request.body?.mode ?? 'login';
      // A bearer token that does not verify must not quietly turn a link into a sign-in.
      if (mode === 'link' && !request.auth) throw new AppError('UNAUTHORIZED');
      const { url, cookie } = await discord.start(mode, request.auth, request.body?.redirect);
      reply.header('set-cookie', stateCookieHeader(cookie, secure));
      return { status: 'success' as const, data: { authorization_url: url } };
    },
  );

  r.post(
    '/auth/discord/callback',
    {
      config: perIp(app.authRateLimits.loginPerIp),
      preHandler: [app.identify],
      schema: {
        ...signInOptional,
        tags: ['auth'],
        summary:
          'Finish a Discord sign-in or link with the code and state Discord sent back to /auth/discord/callback',
        body: discordCallbackBodySchema,
        response: { 200: successEnvelope(discordCallbackResultSchema) },
      },
    },
    async (request, reply) => {
      const result = await discord.callback(
        request.body,
        readCookie(request.headers.cookie, OAUTH_STATE_COOKIE),
        request.auth,
        clientInfo(request),
      );
      // A finished flow's cookie goes. After a refusal it stays until it expires: the web client retries
      // a 401 once after refreshing its access token, and that retry needs it (the code is single use at
      // Discord anyway, so a replay gets nowhere).
      reply.header('set-cookie', clearedStateCookieHeader(secure));
      return { status: 'success' as const, data: result };
    },
  );

  r.get(
    '/users/me/discord',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary: 'The Discord account linked to mine, and whether I have a password',
        response: { 200: successEnvelope(discordLinkSchema) },
      },
    },
    async (request) => ({ status: 'success' as const, data: await discord.linkOf(requireAuth(request)) }),
  );

  r.delete(
    '/users/me/discord',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['profile'],
        summary:
          'Unlink Discord (refused while the account has no password: it would have no way to sign in)',
      },
    },
    async (request, reply) => {
      await discord.unlink(requireAuth(request));
      return reply.status(204).send();
    },
  );
}
