import {
  eligibleMemberSchema,
  entityId,
  invitationBodySchema,
  invitationSchema,
  joinBodySchema,
  memberSchema,
  partyCreateBodySchema,
  partyListQuerySchema,
  partyListResponseSchema,
  partyNotesMessages,
  partyNotesSchema,
  partyNotesUpdateBodySchema,
  partyPreviewSchema,
  partySchema,
  partyUpdateBodySchema,
  patronageCreateBodySchema,
  patronageSchema,
  previewQuerySchema,
  roleChangeBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import type { PartiesService } from './parties.service.js';
import type { PartyNotesService } from './party-notes.service.js';
import type { PatronagesService } from './patronages.service.js';

const ok = <T>(data: T, message?: string) => ({
  status: 'success' as const,
  data,
  ...(message ? { message } : {}),
});
const partyParams = z.object({ id: entityId('Party not found.') });
const memberParams = partyParams.extend({ userId: entityId('Member not found.') });
const invitationParams = partyParams.extend({ invitationId: entityId('Invitation not found.') });
const uid = (request: FastifyRequest) => requireAuth(request).user.id;

/** spec/02 §7 Parties, invitations and spec/01 §7 Patronage. */
export async function partiesRoutes(
  app: FastifyInstance,
  options: { parties: PartiesService; patronages: PatronagesService; notes: PartyNotesService },
) {
  const { parties, patronages, notes } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['parties'];
  // Guessing join codes is throttled per user and per address, with one budget shared by preview and
  // join. Each route gets its own hook array: @fastify/rate-limit appends to the array it is given, so a
  // shared one would run every route's hooks on every route.
  const limits = app.authRateLimits;
  const codeGuessesPerIp = app.limitByKey('join-code-ip', limits.joinCodePerIp, (request) => request.ip);
  const codeGuessesPerUser = app.limitByKey(
    'join-code',
    limits.joinCodePerUser,
    (request) => request.auth?.user.id,
  );
  const codeGuessLimit = () => ({ preHandler: [codeGuessesPerIp, codeGuessesPerUser] });

  r.get(
    '/parties',
    {
      schema: {
        tags,
        summary: 'My parties, or public ones (visibility=public)',
        querystring: partyListQuerySchema,
        response: { 200: partyListResponseSchema },
      },
    },
    async (request) => ({ status: 'success' as const, ...(await parties.list(uid(request), request.query)) }),
  );
  r.get(
    '/parties/preview',
    {
      ...codeGuessLimit(),
      schema: {
        tags,
        summary: 'Preview a party by join code',
        querystring: previewQuerySchema,
        response: { 200: successEnvelope(partyPreviewSchema) },
      },
    },
    async (request) => ok(await parties.preview(uid(request), request.query)),
  );
  r.post(
    '/parties/join',
    {
      ...codeGuessLimit(),
      schema: {
        tags,
        summary: 'Join with a code',
        body: joinBodySchema,
        response: { 200: successEnvelope(partySchema) },
      },
    },
    async (request) => {
      const party = await parties.join(uid(request), request.body);
      return ok(party, `Successfully joined party "${party.name}"!`);
    },
  );
  r.post(
    '/parties',
    {
      schema: {
        tags,
        summary: 'Create a party',
        body: partyCreateBodySchema,
        response: { 201: successEnvelope(partySchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await parties.create(uid(request), request.body.party))),
  );
  r.get(
    '/parties/:id',
    {
      schema: {
        tags,
        summary: 'A party',
        params: partyParams,
        response: { 200: successEnvelope(partySchema) },
      },
    },
    async (request) => ok(await parties.get(uid(request), request.params.id)),
  );
  r.patch(
    '/parties/:id',
    {
      schema: {
        tags,
        summary: 'Edit a party (GM); its owner hands it over with game_master_id',
        params: partyParams,
        body: partyUpdateBodySchema,
        response: { 200: successEnvelope(partySchema) },
      },
    },
    async (request) => ok(await parties.update(uid(request), request.params.id, request.body.party)),
  );
  r.delete(
    '/parties/:id',
    { schema: { tags, summary: 'Delete a party (its creator)', params: partyParams } },
    async (request, reply) => {
      const { user } = requireAuth(request);
      await parties.delete({ id: user.id, username: user.username }, request.params.id);
      return reply.status(204).send();
    },
  );
  for (const [path, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.post(
      `/parties/:id/${path}`,
      {
        schema: {
          tags,
          summary: `${archived ? 'Archive' : 'Unarchive'} a party (GM)`,
          params: partyParams,
          response: { 200: successEnvelope(partySchema) },
        },
      },
      async (request) => ok(await parties.setArchived(uid(request), request.params.id, archived)),
    );
  }
  // Issue 14: the party's shared notes (spec/02 §7 PartyChannel notes_updated).
  r.get(
    '/parties/:id/notes',
    {
      schema: {
        tags,
        summary: 'The party’s shared notes (members)',
        params: partyParams,
        response: { 200: successEnvelope(partyNotesSchema) },
      },
    },
    async (request) => ok(await notes.get(uid(request), request.params.id)),
  );
  r.patch(
    '/parties/:id/notes',
    {
      schema: {
        tags,
        summary: 'Save the party’s notes (members but observers); 409 when someone saved in between',
        params: partyParams,
        body: partyNotesUpdateBodySchema,
        response: { 200: successEnvelope(partyNotesSchema) },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const saved = await notes.update(
        { id: user.id, username: user.username },
        request.params.id,
        request.body.party_notes,
      );
      return ok(saved, partyNotesMessages.saved);
    },
  );
  r.get(
    '/parties/:id/members',
    {
      schema: {
        tags,
        summary: 'Members',
        params: partyParams,
        response: { 200: successEnvelope(z.array(memberSchema)) },
      },
    },
    async (request) => ok(await parties.members(uid(request), request.params.id)),
  );
  r.patch(
    '/parties/:id/members/:userId',
    {
      schema: {
        tags,
        summary: 'Change a member’s role (GM)',
        params: memberParams,
        body: roleChangeBodySchema,
        response: {
          200: successEnvelope(z.object({ id: z.string(), user_id: z.string(), role: z.string() })),
        },
      },
    },
    async (request) =>
      ok(
        await parties.changeRole(
          uid(request),
          request.params.id,
          request.params.userId,
          request.body.party_membership.role,
        ),
      ),
  );
  r.delete(
    '/parties/:id/members/:userId',
    { schema: { tags, summary: 'Remove a member (GM)', params: memberParams } },
    async (request, reply) => {
      await parties.removeMember(uid(request), request.params.id, request.params.userId);
      return reply.status(204).send();
    },
  );
  r.delete(
    '/parties/:id/leave',
    { schema: { tags, summary: 'Leave a party', params: partyParams } },
    async (request, reply) => {
      await parties.leave(uid(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/parties/:id/regenerate_join_code',
    {
      schema: {
        tags,
        summary: 'New join code; the old one stops working (GM)',
        params: partyParams,
        response: { 200: successEnvelope(partySchema) },
      },
    },
    async (request) => ok(await parties.regenerateJoinCode(uid(request), request.params.id)),
  );
  r.get(
    '/parties/:id/invitations',
    {
      schema: {
        tags,
        summary: 'Open invitations (GM)',
        params: partyParams,
        response: { 200: successEnvelope(z.array(invitationSchema)) },
      },
    },
    async (request) => ok(await parties.partyInvitations(uid(request), request.params.id)),
  );
  r.post(
    '/parties/:id/invitations',
    {
      // Inviting by email tells whether an account exists, so invitations are counted, found or not,
      // per address and per user, like sign-ups (docs/decisions.md, rate limits).
      preHandler: [
        app.limitByKey('invitation-ip', limits.invitationsPerIp, (req) => req.ip, limits.invitationWindowMs),
        app.limitByKey(
          'invitation',
          limits.invitationsPerUser,
          (req) => req.auth?.user.id,
          limits.invitationWindowMs,
        ),
      ],
      schema: {
        tags,
        summary: 'Invite a user by username or email (GM)',
        params: partyParams,
        body: invitationBodySchema,
        response: { 201: successEnvelope(invitationSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await parties.invite(uid(request), request.params.id, request.body.party_invitation))),
  );
  r.delete(
    '/parties/:id/invitations/:invitationId',
    { schema: { tags, summary: 'Revoke an invitation (GM)', params: invitationParams } },
    async (request, reply) => {
      await parties.revokeInvitation(uid(request), request.params.id, request.params.invitationId);
      return reply.status(204).send();
    },
  );

  const invitationId = z.object({ invitationId: entityId('Invitation not found.') });
  r.get(
    '/invitations',
    {
      schema: {
        tags: ['invitations'],
        summary: 'My open invitations',
        response: { 200: successEnvelope(z.array(invitationSchema)) },
      },
    },
    async (request) => ok(await parties.myInvitations(uid(request))),
  );
  r.post(
    '/invitations/:invitationId/accept',
    {
      schema: {
        tags: ['invitations'],
        summary: 'Accept an invitation',
        params: invitationId,
        response: { 200: successEnvelope(partySchema) },
      },
    },
    async (request) => {
      const party = await parties.acceptInvitation(uid(request), request.params.invitationId);
      return ok(party, `Successfully joined party "${party.name}"!`);
    },
  );
  r.post(
    '/invitations/:invitationId/decline',
    {
      config: { noContent: true },
      schema: { tags: ['invitations'], summary: 'Decline an invitation', params: invitationId },
    },
    async (request, reply) => {
      await parties.declineInvitation(uid(request), request.params.invitationId);
      return reply.status(204).send();
    },
  );

  const ptags = ['patronage'];
  r.post(
    '/patronages',
    {
      schema: {
        tags: ptags,
        summary: 'Sponsor a party member',
        body: patronageCreateBodySchema,
        response: { 201: successEnvelope(patronageSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await patronages.create(uid(request), request.body))),
  );
  r.get(
    '/patronages',
    {
      schema: {
        tags: ptags,
        summary: 'Patronages I grant',
        response: { 200: successEnvelope(z.array(patronageSchema)) },
      },
    },
    async (request) => ok(await patronages.granted(uid(request))),
  );
  r.get(
    '/patronages/received',
    {
      schema: {
        tags: ptags,
        summary: 'Patronages I receive',
        response: { 200: successEnvelope(z.array(patronageSchema)) },
      },
    },
    async (request) => ok(await patronages.received(uid(request))),
  );
  r.get(
    '/patronages/eligible/:partyId',
    {
      schema: {
        tags: ptags,
        summary: 'Members I may sponsor in a party',
        params: z.object({ partyId: entityId('Party not found.') }),
        response: { 200: successEnvelope(z.array(eligibleMemberSchema)) },
      },
    },
    async (request) => ok(await patronages.eligible(uid(request), request.params.partyId)),
  );
  r.delete(
    '/patronages/:id',
    {
      schema: {
        tags: ptags,
        summary: 'End a patronage',
        params: z.object({ id: entityId('Patronage not found.') }),
      },
    },
    async (request, reply) => {
      await patronages.revoke(uid(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
