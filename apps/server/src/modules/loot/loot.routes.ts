import {
  entityId,
  lootClaimBodySchema,
  lootDistributeBodySchema,
  lootDistributionSchema,
  lootInstanceCreateBodySchema,
  lootInstanceListQuerySchema,
  lootInstanceListResponseSchema,
  lootInstanceSchema,
  lootInstanceUpdateBodySchema,
  lootItemCreateBodySchema,
  lootItemSchema,
  lootItemUpdateBodySchema,
  lootMessages,
  lootSummarySchema,
  lootTakeBodySchema,
  lootTakeResultSchema,
  lootTemplateCreateBodySchema,
  lootTemplateListQuerySchema,
  lootTemplateListResponseSchema,
  lootTemplateSchema,
  lootTemplateUpdateBodySchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import type { LootService } from './loot.service.js';

const ok = <T>(data: T, message?: string) => ({
  status: 'success' as const,
  data,
  ...(message ? { message } : {}),
});
const actor = (request: FastifyRequest) => {
  const { user } = requireAuth(request);
  return { id: user.id, username: user.username };
};
const templateParams = z.object({ id: entityId(lootMessages.templateNotFound) });
const itemParams = templateParams.extend({ itemId: entityId(lootMessages.lootItemNotFound) });
const lootParams = z.object({ id: entityId(lootMessages.instanceNotFound) });
const partyParams = z.object({ id: entityId('Party not found.') });

/** spec/02 §7 Loot: templates and their items, loot deployed into parties, taking, claiming, distributing. */
export async function lootRoutes(app: FastifyInstance, options: { loot: LootService }) {
  const { loot } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['loot'];
  const oneTemplate = { 200: successEnvelope(lootTemplateSchema) };
  const oneLoot = { 200: successEnvelope(lootInstanceSchema) };
  const limits = app.authRateLimits;
  const distributionBudget = app.limitByKey(
    'loot-distribution',
    limits.lootDistributionsPerUser,
    (request) => request.auth?.user.id,
    limits.lootDistributionWindowMs,
  );

  // ---- templates --------------------------------------------------------------------------------------
  r.get(
    '/loot_templates',
    {
      schema: {
        tags,
        summary: 'My loot templates and every public one, with filters, sort and include',
        querystring: lootTemplateListQuerySchema,
        response: { 200: lootTemplateListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await loot.listTemplates(actor(request).id, request.query)),
    }),
  );
  r.get(
    '/loot_templates/:id',
    {
      schema: {
        tags,
        summary: 'A loot template with its items',
        params: templateParams,
        response: oneTemplate,
      },
    },
    async (request) => ok(await loot.getTemplate(actor(request).id, request.params.id)),
  );
  r.post(
    '/loot_templates',
    {
      schema: {
        tags,
        summary: 'Create a loot template (counts against loot_templates)',
        body: lootTemplateCreateBodySchema,
        response: { 201: successEnvelope(lootTemplateSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(await loot.createTemplate(actor(request), request.body.loot_template), lootMessages.created),
        ),
  );
  for (const method of ['patch', 'put'] as const) {
    r[method](
      '/loot_templates/:id',
      {
        schema: {
          tags,
          summary: 'Change a loot template (its creator)',
          params: templateParams,
          body: lootTemplateUpdateBodySchema,
          response: oneTemplate,
        },
      },
      async (request) =>
        ok(
          await loot.updateTemplate(actor(request), request.params.id, request.body.loot_template),
          lootMessages.templateUpdated,
        ),
    );
  }
  r.delete(
    '/loot_templates/:id',
    {
      schema: { tags, summary: 'Delete a loot template; deployed loot stays', params: templateParams },
    },
    async (request, reply) => {
      await loot.deleteTemplate(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/loot_templates/:id/duplicate',
    {
      schema: {
        tags,
        summary: 'A private copy of a template I can read (counts against loot_templates)',
        params: templateParams,
        response: { 201: successEnvelope(lootTemplateSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await loot.duplicateTemplate(actor(request), request.params.id), lootMessages.duplicated)),
  );
  r.get(
    '/loot_templates/:id/loot_items',
    {
      schema: {
        tags,
        summary: 'The items of a loot template',
        params: templateParams,
        response: { 200: successEnvelope(z.array(lootItemSchema)) },
      },
    },
    async (request) => ok(await loot.lootItems(actor(request).id, request.params.id)),
  );
  r.post(
    '/loot_templates/:id/loot_items',
    {
      schema: {
        tags,
        summary:
          'Add an item (item_template_id) or coins (currency) with a quantity ({loot_item} or bare); again adds to it',
        params: templateParams,
        body: lootItemCreateBodySchema,
        response: { 201: successEnvelope(lootItemSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await loot.addItem(actor(request), request.params.id, request.body))),
  );
  r.patch(
    '/loot_templates/:id/loot_items/:itemId',
    {
      schema: {
        tags,
        summary: 'Change how many of a loot item there are',
        params: itemParams,
        body: lootItemUpdateBodySchema,
        response: { 200: successEnvelope(lootItemSchema) },
      },
    },
    async (request) =>
      ok(
        await loot.updateItem(
          actor(request),
          request.params.id,
          request.params.itemId,
          request.body.quantity,
        ),
      ),
  );
  r.delete(
    '/loot_templates/:id/loot_items/:itemId',
    { schema: { tags, summary: 'Remove a loot item', params: itemParams } },
    async (request, reply) => {
      await loot.removeItem(actor(request), request.params.id, request.params.itemId);
      return reply.status(204).send();
    },
  );

  // ---- instances --------------------------------------------------------------------------------------
  r.get(
    '/parties/:id/loot_instances',
    {
      schema: {
        tags,
        summary: 'A party’s loot: all of it for the GM, revealed loot for the other members',
        params: partyParams,
        querystring: lootInstanceListQuerySchema,
        response: { 200: lootInstanceListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await loot.listForParty(actor(request).id, request.params.id, request.query)),
    }),
  );
  r.get(
    '/parties/:id/loot_summary',
    {
      schema: {
        tags,
        summary:
          'What each character of the party has received from loot so far, split sale shares included (members)',
        params: partyParams,
        response: { 200: successEnvelope(lootSummarySchema) },
      },
    },
    async (request) => ok(await loot.summary(actor(request).id, request.params.id)),
  );
  r.post(
    '/loot_instances',
    {
      schema: {
        tags,
        summary: 'Deploy a loot template into a party, hidden (the GM; loot_instances and deployments)',
        body: lootInstanceCreateBodySchema,
        response: { 201: successEnvelope(lootInstanceSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await loot.deploy(actor(request), request.body.loot_instance), lootMessages.deployed)),
  );
  r.get(
    '/loot_instances/:id',
    {
      schema: { tags, summary: 'A loot with its container and items', params: lootParams, response: oneLoot },
    },
    async (request) => ok(await loot.getInstance(actor(request).id, request.params.id)),
  );
  r.patch(
    '/loot_instances/:id',
    {
      schema: {
        tags,
        summary: 'Edit, reveal or hide (is_revealed false) a loot (the GM)',
        params: lootParams,
        body: lootInstanceUpdateBodySchema,
        response: oneLoot,
      },
    },
    async (request) => {
      const changes = request.body.loot_instance;
      const message =
        changes.is_revealed === false
          ? lootMessages.hidden
          : changes.is_revealed === true
            ? lootMessages.revealed
            : lootMessages.updated;
      return ok(await loot.updateInstance(actor(request), request.params.id, changes), message);
    },
  );
  r.delete(
    '/loot_instances/:id',
    {
      schema: {
        tags,
        summary: 'Remove a loot; what is left in it is destroyed in the ledger',
        params: lootParams,
      },
    },
    async (request, reply) => {
      await loot.deleteInstance(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/loot_instances/:id/reveal',
    {
      schema: { tags, summary: 'Reveal a loot to the party (the GM)', params: lootParams, response: oneLoot },
    },
    async (request) => ok(await loot.reveal(actor(request), request.params.id), lootMessages.revealed),
  );
  r.post(
    '/loot_instances/:id/take',
    {
      schema: {
        tags,
        summary:
          'Take part or all of a line of identical stacks (the named one first) into a container of my character in the party',
        params: lootParams,
        body: lootTakeBodySchema,
        response: { 200: successEnvelope(lootTakeResultSchema) },
      },
    },
    async (request) => {
      const result = await loot.take(actor(request), request.params.id, request.body);
      return ok(result, result.message);
    },
  );
  r.post(
    '/loot_instances/:id/claim',
    {
      schema: {
        tags,
        summary:
          'Claim the whole line of identical stacks the named one is on for a character (mine; the GM for anyone in the party)',
        params: lootParams,
        body: lootClaimBodySchema,
        response: { 200: successEnvelope(lootTakeResultSchema) },
      },
    },
    async (request) => {
      const result = await loot.claim(actor(request), request.params.id, request.body.claim);
      return ok(result, result.message);
    },
  );
  r.post(
    '/loot_instances/:id/distribute',
    {
      schema: {
        tags,
        summary:
          'Share the loot among characters: even, by_value or random (the GM; loot_distribution). preview: true moves nothing',
        params: lootParams,
        body: lootDistributeBodySchema,
        response: { 200: successEnvelope(lootDistributionSchema) },
      },
      preHandler: [distributionBudget],
    },
    async (request) => {
      const result = await loot.distribute(actor(request), request.params.id, request.body.distribute);
      return ok(result, result.preview ? lootMessages.previewed : lootMessages.distributed);
    },
  );
}
