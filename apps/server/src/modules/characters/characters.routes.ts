import {
  characterCreateBodySchema,
  characterListItemSchema,
  characterListQuerySchema,
  characterSchema,
  characterUpdateBodySchema,
  characterWealthSchema,
  entityId,
  listEnvelope,
  partyWealthSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import type { CharactersService } from './characters.service.js';

const params = z.object({ id: entityId('Character not found.') });
const partyParams = z.object({ id: entityId('Party not found.') });
const actor = (request: FastifyRequest) => {
  const { user } = requireAuth(request);
  return { id: user.id, username: user.username };
};

/** spec/02 §7 Characters. */
export async function charactersRoutes(app: FastifyInstance, options: { characters: CharactersService }) {
  const { characters } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['characters'];

  r.get(
    '/characters',
    {
      schema: {
        tags,
        summary: 'My characters, or a party’s (party_id)',
        querystring: characterListQuerySchema,
        response: { 200: listEnvelope(characterListItemSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await characters.list(actor(request).id, request.query)),
    }),
  );
  r.post(
    '/characters',
    {
      schema: {
        tags,
        summary: 'Create a character',
        body: characterCreateBodySchema,
        response: { 201: successEnvelope(characterSchema) },
      },
    },
    async (request, reply) => {
      const character = await characters.create(actor(request), request.body.character);
      return reply.status(201).send({
        status: 'success' as const,
        data: character,
        message: `Character "${character.name}" created successfully!`,
      });
    },
  );
  r.get(
    '/characters/:id',
    { schema: { tags, summary: 'A character', params, response: { 200: successEnvelope(characterSchema) } } },
    async (request) => ({
      status: 'success' as const,
      data: await characters.get(actor(request).id, request.params.id),
    }),
  );
  r.get(
    '/characters/:id/wealth',
    {
      schema: {
        tags,
        summary: 'A character’s purse (coins in all its containers), wealth and load',
        params,
        response: { 200: successEnvelope(characterWealthSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await characters.wealth(actor(request).id, request.params.id),
    }),
  );
  r.get(
    '/parties/:id/wealth',
    {
      schema: {
        tags,
        summary: 'Load, wealth and encumbrance of every character of a party, its stash and total (members)',
        params: partyParams,
        response: { 200: successEnvelope(partyWealthSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await characters.partyWealth(actor(request).id, request.params.id),
    }),
  );
  r.patch(
    '/characters/:id',
    {
      schema: {
        tags,
        summary: 'Change a character (its player)',
        params,
        body: characterUpdateBodySchema,
        response: { 200: successEnvelope(characterSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await characters.update(actor(request), request.params.id, request.body.character),
    }),
  );
  r.delete(
    '/characters/:id',
    { schema: { tags, summary: 'Delete a character with its containers', params } },
    async (request, reply) => {
      await characters.delete(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
}
