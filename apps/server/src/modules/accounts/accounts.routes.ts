import { Readable } from 'node:stream';
import {
  accountClosureMessages,
  accountDeletionBodySchema,
  accountExportSchema,
  authMessages,
  authSessionSchema,
  authTokensSchema,
  emailRevertBodySchema,
  emailRevertResultSchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  meSchema,
  messageEnvelopeSchema,
  passwordChangeBodySchema,
  profileUpdateBodySchema,
  refreshBodySchema,
  registerBodySchema,
  resendVerificationBodySchema,
  resetPasswordBodySchema,
  successEnvelope,
  tokenVerificationSchema,
  userSchema,
  verifyEmailBodySchema,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { indentedJson, streamedObject } from '../../lib/indented-json.js';
import { noSignIn, signInOptional } from '../../lib/openapi-security.js';
import { bearerToken, requireAuth, requireSession } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import { bodyString } from '../../plugins/rate-limit.js';
import type { AccountsService, ClientInfo } from './accounts.service.js';

function clientInfo(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ipAddress: request.ip, ...(userAgent ? { userAgent } : {}) };
}

/**
 * Requests that check the current password: the ones a thief with a stolen access token would guess on
 * (a password or email change, and deleting the account, whose body names it `password`).
 */
const carriesCurrentPassword = (request: FastifyRequest) => {
  const body = request.body as
    | { current_password?: unknown; password?: unknown; user?: { current_password?: unknown } }
    | undefined;
  return (
    body?.current_password !== undefined ||
    body?.user?.current_password !== undefined ||
    (request.method === 'DELETE' && body?.password !== undefined)
  );
};

/** Data exports per user and rate-limit window (15 minutes): each reads every row of the account. */
const EXPORTS_PER_WINDOW = 5;

const accountExportEnvelope = successEnvelope(accountExportSchema);

const nestedEmail = (request: FastifyRequest) => {
  const user = (request.body as { user?: { email?: unknown } } | undefined)?.user;
  return typeof user?.email === 'string' ? user.email.trim().toLowerCase() : undefined;
};

/** spec/01 §7 Authentication, plus the profile calls of the /profile screen. */
export async function accountsRoutes(app: FastifyInstance, options: { accounts: AccountsService }) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { accounts } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = app.authRateLimits;
  const perIp = (max: number) => ({ rateLimit: { max, timeWindow: limits.windowMs } });

  r.post(
    '/auth/register',
    {
      config: perIp(limits.registerPerIp),
      preHandler: [app.limitByKey('register-email', limits.registerPerEmail, nestedEmail)],
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Create an account and sign in',
        body: registerBodySchema,
        response: { 201: successEnvelope(authSessionSchema) },
      },
    },
    async (request, reply) => {
      const session = await accounts.register(request.body.user, clientInfo(request));
      return reply.status(201).send({ status: 'success', data: session });
    },
  );

  const loginThrottle = app.loginThrottle((req) => bodyString(req, 'email'));
  r.post(
    '/auth/login',
    {
      config: perIp(limits.loginPerIp),
      preHandler: [loginThrottle.preHandler],
      onSend: [loginThrottle.onSend],
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: loginBodySchema,
        response: { 200: successEnvelope(authSessionSchema) },
      },
    },
    async (request) => {
      const session = await accounts.login(request.body.email, request.body.password, clientInfo(request));
      return { status: 'success' as const, data: session };
    },
  );

  r.post(
    '/auth/refresh',
    {
      config: perIp(limits.loginPerIp * 4),
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Rotate the refresh token and get a new access token',
        body: refreshBodySchema,
        response: { 200: successEnvelope(authTokensSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await accounts.refresh(request.body.refresh_token),
    }),
  );

  r.delete(
    '/auth/logout',
    { onRequest: app.authenticate, schema: { tags: ['auth'], summary: 'End this session' } },
    async (request, reply) => {
      await accounts.logout(requireSession(request).sessionId);
      return reply.status(204).send();
    },
  );

  r.get(
    '/auth/me',
    {
      onRequest: app.authenticate,
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: successEnvelope(meSchema) } },
    },
    async (request) => ({
      status: 'success' as const,
      data: { user: await accounts.me(requireAuth(request)) },
    }),
  );

  r.get(
    '/auth/verify',
    {
      // Through the auth hook like every other call, so that an API token is checked (and counted) as
      // anywhere else.
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          'Check the bearer token (access token or API token): whose it is and until when (401 when it is not valid)',
        response: { 200: successEnvelope(tokenVerificationSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await accounts.verifyBearer(requireAuth(request), bearerToken(request)),
    }),
  );

  r.post(
    '/auth/forgot_password',
    {
      config: { ...perIp(limits.forgotPerIp), errorShape: 'password_recovery' },
      preHandler: [app.limitByKey('forgot-email', limits.forgotPerEmail, (req) => bodyString(req, 'email'))],
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Mail a password reset link (same answer whether or not the account exists)',
        body: forgotPasswordBodySchema,
        response: { 200: messageEnvelopeSchema },
      },
    },
    async (request) => {
      await accounts.forgotPassword(request.body.email);
      return {
        status: 'success' as const,
        data: { message: authMessages.forgotPasswordSent },
        message: authMessages.forgotPasswordSent,
      };
    },
  );

  r.post(
    '/auth/reset_password',
    {
      config: { ...perIp(limits.resetPerIp), errorShape: 'password_recovery' },
      preHandler: [app.limitByKey('reset-token', limits.resetPerToken, (req) => bodyString(req, 'token'))],
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset token',
        body: resetPasswordBodySchema,
        response: { 200: messageEnvelopeSchema },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.password);
      return {
        status: 'success' as const,
        data: { message: authMessages.passwordReset },
        message: authMessages.passwordReset,
      };
    },
  );

  r.post(
    '/auth/verify_email',
    {
      config: perIp(limits.verifyPerIp),
      schema: {
        ...noSignIn,
        tags: ['auth'],
        summary: 'Confirm an email address with a mailed token',
        body: verifyEmailBodySchema,
        response: { 200: successEnvelope(z.object({ message: z.string(), user: userSchema })) },
      },
    },
    async (request) => {
      const user = await accounts.verifyEmail(request.body.token);
      return { status: 'success' as const, data: { message: authMessages.emailVerified, user } };
    },
  );

  r.post(
    '/auth/resend_verification',
    {
      config: perIp(limits.forgotPerIp),
      preHandler: [
        app.identify,
        app.limitByKey(
          'verify-email',
          limits.forgotPerEmail,
          (req) => req.auth?.user.id ?? bodyString(req, 'email'),
        ),
      ],
      schema: {
        ...signInOptional,
        tags: ['auth'],
        summary: 'Mail a new verification link to the signed-in user, or to an email',
        body: resendVerificationBodySchema.optional(),
        response: { 200: messageEnvelopeSchema },
      },
    },
    async (request) => {
      await accounts.resendVerification({
        ...(request.auth ? { user: request.auth.user } : {}),
        ...(request.body?.email ? { email: request.body.email } : {}),
      });
      return {
        status: 'success' as const,
        data: { message: authMessages.verificationSent },
        message: authMessages.verificationSent,
      };
    },
  );

  // Guesses of the current password are throttled like sign-ins, per user and per address, with one
  // budget shared by the password and the email change.
  const passwordGuessLimits = [
    app.limitByKey('password-guess-ip', limits.passwordGuessPerIp, (req) =>
      carriesCurrentPassword(req) ? req.ip : undefined,
    ),
    app.limitByKey('password-guess-user', limits.passwordGuessPerUser, (req) =>
      carriesCurrentPassword(req) ? req.auth?.user.id : undefined,
    ),
  ];

  r.patch(
    '/users/me',
    {
      onRequest: app.authenticate,
      preHandler: [...passwordGuessLimits],
      schema: {
        tags: ['profile'],
        summary:
          'Change username or email (an email change needs current_password, mails both addresses and ends the other sessions)',
        body: profileUpdateBodySchema,
        response: { 200: successEnvelope(meSchema) },
      },
    },
    async (request) => {
      const user = await accounts.updateProfile(requireSession(request), request.body.user);
      return { status: 'success' as const, data: { user }, message: authMessages.profileUpdated };
    },
  );

  r.post(
    '/users/email/revert',
    {
      config: perIp(limits.verifyPerIp),
      preHandler: [app.limitByKey('revert-token', limits.resetPerToken, (req) => bodyString(req, 'token'))],
      schema: {
        ...noSignIn,
        tags: ['profile'],
        summary:
          'Undo an email change with the link mailed to the old address: restores it, ends every session and answers a password reset token',
        body: emailRevertBodySchema,
        response: { 200: successEnvelope(emailRevertResultSchema) },
      },
    },
    async (request) => {
      const result = await accounts.revertEmailChange(request.body.token);
      return { status: 'success' as const, data: result, message: result.message };
    },
  );

  r.delete(
    '/users/me',
    {
      onRequest: app.authenticate,
      preHandler: [...passwordGuessLimits],
      schema: {
        tags: ['profile'],
        summary:
          'Delete your own account for good, confirmed with your password (or your email for an account without one): parties handed over, characters deleted, paid plan cancelled',
        body: accountDeletionBodySchema,
      },
    },
    async (request, reply) => {
      await accounts.deleteOwnAccount(requireSession(request), request.body, clientInfo(request));
      return reply.status(204).send();
    },
  );

  // Declared on the app, not through the zod type provider: its answer is a stream of the text the
  // response schema documents (the provider would type `send` as that object).
  app.get(
    '/users/me/export',
    {
      onRequest: app.authenticate,
      preHandler: [app.limitByKey('account-export', EXPORTS_PER_WINDOW, (req) => req.auth?.user.id)],
      schema: {
        tags: ['profile'],
        summary:
          'Download your data as a readable (indented) JSON file: profile, preferences, plan, characters with their containers and items (weights, values, overrides), parties and whether you own them, the item, shop and loot templates you wrote with their contents, your purchase requests, and your latest ledger entries (yours and your characters’)',
        response: { 200: accountExportEnvelope },
      },
    },
    async (request, reply) => {
      const { username, exportedAt, document } = await accounts.exportData(requireSession(request));
      const day = exportedAt.toISOString().slice(0, 10);
      // A file a person opens and reads: indented (2 spaces), and still through the contract (each part
      // through its piece of the schema, account-export.ts), so no field outside it reaches the file. Streamed:
      // the headers go at once and the file is written as it is read (a GM's runs to tens of megabytes),
      // other requests answered meanwhile.
      const file = indentedJson(
        streamedObject({ status: 'success', data: document, message: accountClosureMessages.exported }),
      );
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="haversack-export-${username}-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(file));
    },
  );

  r.put(
    '/users/me/password',
    {
      onRequest: app.authenticate,
      preHandler: [...passwordGuessLimits],
      schema: {
        tags: ['profile'],
        summary: 'Change the password; other sessions end',
        body: passwordChangeBodySchema,
        response: { 200: messageEnvelopeSchema },
      },
    },
    async (request) => {
      await accounts.changePassword(requireSession(request), request.body);
      return {
        status: 'success' as const,
        data: { message: authMessages.passwordChanged },
        message: authMessages.passwordChanged,
      };
    },
  );
}
