import {
  entityId,
  itemSearchQuerySchema,
  itemSearchResponseSchema,
  itemTemplateCreateBodySchema,
  itemTemplateListQuerySchema,
  itemTemplateListResponseSchema,
  itemTemplateMessages,
  itemTemplateSchema,
  itemTemplateTagSchema,
  itemTemplateUpdateBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { typedJsonResponse } from '../../lib/typed-json-response.js';
import { requireAuth } from '../../plugins/auth.js';
import { withTagAliases } from './items.search-query.js';
import type { ItemsService } from './items.service.js';

const params = z.object({ id: entityId(itemTemplateMessages.notFound) });
const actor = (request: FastifyRequest) => ({ id: requireAuth(request).user.id });

/** spec/02 §7 Item templates and the marketplace search. */
export async function itemsRoutes(app: FastifyInstance, options: { items: ItemsService }) {
  const { items } = options;
  // Authenticate on request, before the body is parsed and validated: a caller without a session gets
  // 401 whatever they sent, never a 422 that describes the schema.
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['item templates'];
  const one = { 200: successEnvelope(itemTemplateSchema) };

  r.get(
    '/item_templates',
    {
      schema: {
        tags,
        summary: 'My item templates, or every public one (visibility=public)',
        querystring: itemTemplateListQuerySchema,
        response: { 200: itemTemplateListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await items.list(actor(request).id, request.query)),
    }),
  );
  r.get(
    '/item_templates/tags',
    {
      schema: {
        tags,
        summary: 'Tags of the templates I can see, with counts',
        response: { 200: successEnvelope(z.array(itemTemplateTagSchema)) },
      },
    },
    async (request) => ({ status: 'success' as const, data: await items.tags(actor(request).id) }),
  );
  r.get(
    '/item_templates/:id',
    { schema: { tags, summary: 'An item template', params, response: one } },
    async (request) => ({
      status: 'success' as const,
      data: await items.get(actor(request).id, request.params.id),
    }),
  );
  r.post(
    '/item_templates',
    {
      schema: {
        tags,
        summary: 'Create an item template',
        body: itemTemplateCreateBodySchema,
        response: { 201: successEnvelope(itemTemplateSchema) },
      },
    },
    async (request, reply) => {
      const template = await items.create(actor(request), request.body.item_template);
      return reply
        .status(201)
        .send({ status: 'success' as const, data: template, message: itemTemplateMessages.created });
    },
  );
  for (const method of ['put', 'patch'] as const) {
    r[method](
      '/item_templates/:id',
      {
        schema: {
          tags,
          summary: 'Change an item template (its creator)',
          params,
          body: itemTemplateUpdateBodySchema,
          response: one,
        },
      },
      async (request) => ({
        status: 'success' as const,
        data: await items.update(actor(request), request.params.id, request.body.item_template),
        message: itemTemplateMessages.updated,
      }),
    );
  }
  r.delete(
    '/item_templates/:id',
    { schema: { tags, summary: 'Delete an item template; its items keep it', params } },
    async (request, reply) => {
      await items.delete(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/item_templates/:id/duplicate',
    {
      schema: {
        tags,
        summary: 'A private copy of a template I can read',
        params,
        response: { 201: successEnvelope(itemTemplateSchema) },
      },
    },
    async (request, reply) => {
      const template = await items.duplicate(actor(request), request.params.id);
      return reply
        .status(201)
        .send({ status: 'success' as const, data: template, message: itemTemplateMessages.duplicated });
    },
  );
  r.get(
    '/search/items',
    {
      // Issue 13 §3: toTemplateJson builds each row to the contract's type; zod does not walk them again.
      ...typedJsonResponse,
      // `tags[]` and `tag` are `tags` (items.search-query), before the query is validated.
      preValidation: async (request) => {
        request.query = withTagAliases(request.query) as typeof request.query;
      },
      schema: {
        tags,
        summary: 'Search public item templates (the marketplace)',
        querystring: itemSearchQuerySchema,
        response: { 200: itemSearchResponseSchema },
      },
    },
    async (request) => {
      const page = await items.search(actor(request).id, request.query);
      // spec/02 §7 "returns templates and pagination", beside the envelope's data and meta (DESIGN §3).
      return { status: 'success' as const, ...page, templates: page.data, pagination: page.meta };
    },
  );
}
