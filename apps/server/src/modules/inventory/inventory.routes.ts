import {
  capacitySchema,
  characterTransferBodySchema,
  containerCreateBodySchema,
  containerCreateWithOwnerBodySchema,
  containerItemsQuerySchema,
  containerItemsResponseSchema,
  containerListQuerySchema,
  containerSchema,
  containerUpdateBodySchema,
  currencyConversionBodySchema,
  deleteContainerQuerySchema,
  entityId,
  giveBodySchema,
  inventoryMessages,
  itemInstanceCreateBodySchema,
  itemInstanceDetailSchema,
  itemInstanceListQuerySchema,
  itemInstanceSchema,
  itemInstanceUpdateBodySchema,
  listEnvelope,
  manualEntryMessages,
  manualTransactionBodySchema,
  manualTransactionResponseSchema,
  mergeBodySchema,
  ownerContainersQuerySchema,
  ownerContainersSchema,
  splitBodySchema,
  successEnvelope,
  transferBodySchema,
  transferResultSchema,
  undoResultSchema,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { apiCompression } from '../../lib/compression.js';
import { typedJsonResponse } from '../../lib/typed-json-response.js';
import { requireAuth } from '../../plugins/auth.js';
import type { ContainerPage, InventoryService } from './inventory.service.js';

const ok = <T>(data: T, message?: string) => ({
  status: 'success' as const,
  data,
  ...(message ? { message } : {}),
});
const actor = (request: FastifyRequest) => {
  const { user } = requireAuth(request);
  return { id: user.id, username: user.username };
};
const uuid = (what: string) => entityId(`${what} not found.`);

/** spec/02 §8: a failed transfer also answers `success: false` with an `errors` list (error handler). */
const transferErrors = { errorShape: 'transfer' } as const;

/** spec/02 §7 Containers and items, and the containers of characters and parties. */
export async function inventoryRoutes(app: FastifyInstance, options: { inventory: InventoryService }) {
  const { inventory } = options;
  app.addHook('onRequest', app.authenticate);
  // A container's page is compressed once per accept-encoding and fingerprint, not once per read: after
  // the compression plugin's onSend (added to each route by its onRoute hook, which runs before this
  // plugin's own), what it answered is kept with the page (inventory.service.ts keepEncodedPage).
  const pagesBeingEncoded = new WeakMap<FastifyRequest, ContainerPage>();
  const keepEncoded: onSendHookHandler = (request, reply, payload, done) => {
    const page = pagesBeingEncoded.get(request);
    const contentEncoding = reply.getHeader('content-encoding');
    const vary = reply.getHeader('vary');
    if (
      page &&
      Buffer.isBuffer(payload) &&
      payload !== page.body &&
      typeof contentEncoding === 'string' &&
      typeof vary === 'string'
    ) {
      inventory.keepEncodedPage(page, request.headers['accept-encoding'] ?? '', {
        bytes: payload,
        contentEncoding,
        vary,
      });
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' && route.url.endsWith('/containers/:id/items')) {
      route.onSend = [
        ...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []),
        keepEncoded,
      ];
    }
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['inventory'];

  for (const ownerKind of ['characters', 'parties'] as const) {
    const ownerParams = z.object({ id: uuid(ownerKind === 'characters' ? 'Character' : 'Party') });
    const containerParams = ownerParams.extend({ containerId: uuid('Container') });
    const owner = (id: string) => (ownerKind === 'characters' ? { characterId: id } : { partyId: id });
    r.get(
      `/${ownerKind}/:id/containers`,
      {
        schema: {
          tags,
          summary: `Containers of a ${ownerKind.slice(0, -1)}`,
          params: ownerParams,
          response: { 200: successEnvelope(z.array(containerSchema)) },
        },
      },
      async (request) => ok(await inventory.listContainers(actor(request).id, owner(request.params.id))),
    );
    r.post(
      `/${ownerKind}/:id/containers`,
      {
        schema: {
          tags,
          summary: 'Create a container',
          params: ownerParams,
          body: containerCreateBodySchema,
          response: { 201: successEnvelope(containerSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            ok(
              await inventory.createContainer(
                actor(request),
                owner(request.params.id),
                request.body.container,
              ),
            ),
          ),
    );
    r.patch(
      `/${ownerKind}/:id/containers/:containerId`,
      {
        schema: {
          tags,
          summary: 'Change a container',
          params: containerParams,
          body: containerUpdateBodySchema,
          response: { 200: successEnvelope(containerSchema) },
        },
      },
      async (request) =>
        ok(
          await inventory.updateContainer(
            actor(request),
            request.params.containerId,
            request.body.container,
            owner(request.params.id),
          ),
        ),
    );
    r.delete(
      `/${ownerKind}/:id/containers/:containerId`,
      {
        schema: {
          tags,
          summary: 'Delete a container (empty, or with a destination)',
          params: containerParams,
          querystring: deleteContainerQuerySchema,
        },
      },
      async (request, reply) => {
        await inventory.deleteContainer(
          actor(request),
          request.params.containerId,
          request.query.destination_container_id,
          owner(request.params.id),
        );
        return reply.status(204).send();
      },
    );
  }

  // spec/02 §7 "container CRUD at containers paths": the list and the create of that CRUD (issue 14).
  r.get(
    '/containers',
    {
      schema: {
        tags,
        summary: 'Containers I may see: of my characters and parties, or of a character_id or a party_id',
        querystring: containerListQuerySchema,
        response: { 200: listEnvelope(containerSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await inventory.listVisibleContainers(actor(request).id, request.query)),
    }),
  );
  r.get(
    '/containers/by_owner',
    {
      schema: {
        tags,
        summary:
          'Containers of many owners at once (character_ids, party_ids: comma-separated); owners I may not read are left out',
        querystring: ownerContainersQuerySchema,
        response: { 200: successEnvelope(z.array(ownerContainersSchema)) },
      },
    },
    async (request) => ok(await inventory.listContainersOfOwners(actor(request).id, request.query)),
  );
  r.post(
    '/containers',
    {
      schema: {
        tags,
        summary: 'Create a container for a character or a party (container.character_id or party_id)',
        body: containerCreateWithOwnerBodySchema,
        response: { 201: successEnvelope(containerSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await inventory.createContainerFor(actor(request), request.body.container))),
  );

  const containerParams = z.object({ id: uuid('Container') });
  r.get(
    '/containers/:id',
    {
      schema: {
        tags,
        summary: 'A container with its capacity',
        params: containerParams,
        response: { 200: successEnvelope(containerSchema) },
      },
    },
    async (request) => ok(await inventory.getContainer(actor(request).id, request.params.id)),
  );
  r.patch(
    '/containers/:id',
    {
      schema: {
        tags,
        summary: 'Change a container',
        params: containerParams,
        body: containerUpdateBodySchema,
        response: { 200: successEnvelope(containerSchema) },
      },
    },
    async (request) =>
      ok(await inventory.updateContainer(actor(request), request.params.id, request.body.container)),
  );
  r.delete(
    '/containers/:id',
    {
      schema: {
        tags,
        summary: 'Delete a container',
        params: containerParams,
        querystring: deleteContainerQuerySchema,
      },
    },
    async (request, reply) => {
      await inventory.deleteContainer(
        actor(request),
        request.params.id,
        request.query.destination_container_id,
      );
      return reply.status(204).send();
    },
  );
  r.get(
    '/containers/:id/capacity',
    {
      schema: {
        tags,
        summary: 'Used and maximum weight and slots',
        params: containerParams,
        response: { 200: successEnvelope(capacitySchema) },
      },
    },
    async (request) => ok(await inventory.capacity(actor(request).id, request.params.id)),
  );
  r.get(
    '/containers/:id/items',
    {
      ...typedJsonResponse,
      // The answer is one Buffer already (often 150 KB): compressed in one call rather than through a
      // zlib stream, whose chunks and threadpool round trips cost the event loop more than the compression
      // itself (issue 13 §3: about 1.4 ms per 200-item read, against 0.5 ms for gzip in one call).
      compress: { ...apiCompression, syncThreshold: 1024 * 1024 },
      schema: {
        tags,
        summary: 'Items in a container',
        params: containerParams,
        querystring: containerItemsQuerySchema,
        response: { 200: containerItemsResponseSchema },
      },
    },
    async (request, reply) => {
      const page = await inventory.itemsJson(actor(request).id, request.params.id, request.query);
      // The contract's answer already serialized (inventory.service.ts itemsJson), which the reply's type
      // cannot follow: sent as it is (a JSON type and bytes skip the serializer).
      reply.type('application/json; charset=utf-8');
      const encoded = page.encoded.get(request.headers['accept-encoding'] ?? '');
      if (encoded) {
        // As the compression plugin answered this same accept-encoding for this same body; it passes an
        // answer whose encoding is set through untouched.
        return reply
          .header('content-encoding', encoded.contentEncoding)
          .header('vary', encoded.vary)
          .send(encoded.bytes as never);
      }
      pagesBeingEncoded.set(request, page);
      return reply.send(page.body as never);
    },
  );
  r.post(
    '/containers/:id/convert_currency',
    {
      schema: {
        tags,
        summary: 'Convert coins inside a container',
        params: containerParams,
        body: currencyConversionBodySchema,
        response: { 200: successEnvelope(containerSchema) },
      },
    },
    async (request) => ok(await inventory.convertCurrency(actor(request), request.params.id, request.body)),
  );
  r.post(
    '/containers/transfer',
    {
      config: transferErrors,
      // The answer is built by typed mappers (toInstanceJson): stringified once, without zod walking it
      // (issue 13 §2; inventory.test.ts holds the answer to the contract's schema).
      ...typedJsonResponse,
      schema: {
        tags,
        summary: 'Move items between containers',
        body: transferBodySchema,
        response: { 200: successEnvelope(transferResultSchema) },
      },
    },
    async (request) => {
      const result = await inventory.transfer(actor(request), request.body);
      return ok(result, result.message);
    },
  );
  r.post(
    '/transactions/:id/undo',
    {
      config: transferErrors,
      schema: {
        tags,
        summary: 'Undo a move of mine: its items go back, under the same rules, as a new linked entry',
        params: z.object({ id: uuid('Change') }),
        response: { 200: successEnvelope(undoResultSchema) },
      },
    },
    async (request) => {
      const result = await inventory.undoMove(actor(request), request.params.id);
      return ok(result, result.message);
    },
  );
  r.post(
    '/characters/:id/transfer_item',
    {
      config: transferErrors,
      ...typedJsonResponse,
      schema: {
        tags,
        summary: 'Move items from one of a character’s containers',
        params: z.object({ id: entityId(inventoryMessages.characterIdRequired) }),
        body: characterTransferBodySchema,
        response: { 200: successEnvelope(transferResultSchema) },
      },
    },
    async (request) => {
      const source = await inventory.getContainer(actor(request).id, request.body.from_container_id);
      if (source.character_id !== request.params.id) throw AppError.notFound('Container not found.');
      const result = await inventory.transfer(actor(request), {
        item_instance_id: request.body.item_instance_id,
        source_container_id: request.body.from_container_id,
        target_container_id: request.body.to_container_id,
        quantity: request.body.quantity,
      });
      return ok(result, result.message);
    },
  );

  const instanceParams = z.object({ id: uuid('Item') });
  r.get(
    '/item_instances',
    {
      schema: {
        tags,
        summary:
          'Item stacks across containers: container_id, character_id or party_id, and the item filters',
        querystring: itemInstanceListQuerySchema,
        response: { 200: containerItemsResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await inventory.listItemInstances(actor(request).id, request.query)),
    }),
  );
  r.post(
    '/item_instances',
    {
      schema: {
        tags,
        summary: 'Add items from a template to a container',
        body: itemInstanceCreateBodySchema,
        response: { 201: successEnvelope(z.array(itemInstanceSchema)) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await inventory.createInstance(actor(request), request.body))),
  );
  r.get(
    '/item_instances/:id',
    {
      schema: {
        tags,
        summary:
          "An item stack, with its template's description and whether the caller may open the template",
        params: instanceParams,
        response: { 200: successEnvelope(itemInstanceDetailSchema) },
      },
    },
    async (request) => ok(await inventory.getInstance(actor(request).id, request.params.id)),
  );
  r.patch(
    '/item_instances/:id',
    {
      schema: {
        tags,
        summary: 'Rename, adjust quantity, notes or details',
        params: instanceParams,
        body: itemInstanceUpdateBodySchema,
        response: { 200: successEnvelope(itemInstanceSchema) },
      },
    },
    async (request) =>
      ok(await inventory.updateInstance(actor(request), request.params.id, request.body.item_instance)),
  );
  r.delete(
    '/item_instances/:id',
    { schema: { tags, summary: 'Destroy an item stack', params: instanceParams } },
    async (request, reply) => {
      await inventory.destroyInstance(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/item_instances/:id/split',
    {
      schema: {
        tags,
        summary: 'Split a stack',
        params: instanceParams,
        body: splitBodySchema,
        response: { 200: successEnvelope(z.array(itemInstanceSchema)) },
      },
    },
    async (request) => ok(await inventory.split(actor(request), request.params.id, request.body.quantity)),
  );
  r.post(
    '/item_instances/:id/merge',
    {
      schema: {
        tags,
        summary: 'Merge into another stack of the same item',
        params: instanceParams,
        body: mergeBodySchema,
        response: { 200: successEnvelope(itemInstanceSchema) },
      },
    },
    async (request) =>
      ok(await inventory.merge(actor(request), request.params.id, request.body.target_instance_id)),
  );
  r.post(
    '/item_instances/:id/give',
    {
      config: transferErrors,
      schema: {
        tags,
        summary: 'Give (part of) a stack to another character of the party, into its primary container',
        params: instanceParams,
        body: giveBodySchema,
        response: { 200: successEnvelope(transferResultSchema) },
      },
    },
    async (request) => {
      const result = await inventory.give(actor(request), request.params.id, request.body);
      return ok(result, result.message);
    },
  );

  // spec/02 §7 POST transactions (body not shown): the GM's manual entries. The ledger module reads the
  // ledger; writing coins into it is an inventory change, so it lives here.
  r.post(
    '/transactions',
    {
      schema: {
        tags: ['transactions'],
        summary: 'A manual ledger entry by the GM: a note, or coins spent from or received into a container',
        body: manualTransactionBodySchema,
        response: { 201: manualTransactionResponseSchema },
      },
    },
    async (request, reply) => {
      const transactions = await inventory.recordManualEntry(actor(request), request.body.transaction);
      return reply.status(201).send(ok({ transactions }, manualEntryMessages.recorded));
    },
  );
}
