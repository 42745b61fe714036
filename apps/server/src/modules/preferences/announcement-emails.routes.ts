import {
  announcementEmailsMessages,
  announcementEmailsResultSchema,
  announcementEmailsTokenBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noSignIn } from '../../lib/openapi-security.js';
import type { AnnouncementEmailsService } from './announcement-emails.js';

const resultEnvelope = successEnvelope(announcementEmailsResultSchema);

/**
 * The unsubscribe link of a mass mail, signed out (under /api/v1). No per-address limit: a mail provider's
 * one-click POSTs for a whole mailing come from a few addresses, and the token is an HMAC nobody guesses.
 */
export async function announcementEmailsRoutes(
  app: FastifyInstance,
  options: { announcementEmails: AnnouncementEmailsService },
) {
  const { announcementEmails } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // RFC 8058: the mail provider POSTs `List-Unsubscribe=One-Click` as a form (either encoding); the token
  // is in the URL, so the body is read only to be accepted. Only this plugin's routes take forms.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (_request, _body, done) =>
    done(null, {}),
  );

  r.post(
    '/announcement_emails/unsubscribe',
    {
      schema: {
        ...noSignIn,
        tags: ['preferences'],
        summary:
          'Turn announcement emails (admin mass mail) off with the token of a mass mail’s unsubscribe link, signed out',
        body: announcementEmailsTokenBodySchema,
        response: { 200: resultEnvelope },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await announcementEmails.set(request.body.token, false),
      message: announcementEmailsMessages.unsubscribed,
    }),
  );

  r.post(
    '/announcement_emails/resubscribe',
    {
      schema: {
        ...noSignIn,
        tags: ['preferences'],
        summary: 'Undo the unsubscribe: announcement emails on again, with the same token',
        body: announcementEmailsTokenBodySchema,
        response: { 200: resultEnvelope },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await announcementEmails.set(request.body.token, true),
      message: announcementEmailsMessages.resubscribed,
    }),
  );

  r.post(
    '/announcement_emails/one_click',
    {
      schema: {
        ...noSignIn,
        tags: ['preferences'],
        summary:
          'One-click unsubscribe (RFC 8058), the List-Unsubscribe of a mass mail: the token in the query, any form body',
        querystring: announcementEmailsTokenBodySchema,
        response: { 200: resultEnvelope },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await announcementEmails.set(request.query.token, false),
      message: announcementEmailsMessages.unsubscribed,
    }),
  );
}
