import {
  entityId,
  priceQuerySchema,
  priceQuoteSchema,
  purchaseBodySchema,
  restockResultSchema,
  restockScheduleSchema,
  restockStatusSchema,
  sellBodySchema,
  shopContainerSchema,
  shopInstanceCreateBodySchema,
  shopInstanceListQuerySchema,
  shopInstanceListResponseSchema,
  shopInstanceSchema,
  shopInstanceUpdateBodySchema,
  shopItemCreateBodySchema,
  shopItemSchema,
  shopItemUpdateBodySchema,
  shopMessages,
  shopPriceBodySchema,
  shopRatingBodySchema,
  shopRequestDecisionSchema,
  shopRequestListQuerySchema,
  shopRequestResultSchema,
  shopRequestSchema,
  shopSalesQuerySchema,
  shopSalesResponseSchema,
  shopStockItemSchema,
  shopTemplateCreateBodySchema,
  shopTemplateListQuerySchema,
  shopTemplateListResponseSchema,
  shopTemplateSchema,
  shopTemplateUpdateBodySchema,
  stockBodySchema,
  successEnvelope,
  tradeResultSchema,
  unstockBodySchema,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import { toTransactionJson } from '../ledger/ledger.service.js';
import type { ShopsService } from './shops.service.js';

const ok = <T>(data: T, message?: string) => ({
  status: 'success' as const,
  data,
  ...(message ? { message } : {}),
});
const actor = (request: FastifyRequest) => {
  const { user } = requireAuth(request);
  return { id: user.id, username: user.username };
};
const templateParams = z.object({ id: entityId(shopMessages.templateNotFound) });
const itemParams = templateParams.extend({ itemId: entityId(shopMessages.shopItemNotFound) });
const shopParams = z.object({ id: entityId(shopMessages.instanceNotFound) });
const shopItemParams = shopParams.extend({ itemId: entityId('Item not found.') });
const shopPriceParams = shopParams.extend({ itemTemplateId: entityId(shopMessages.priceNotOnShelf) });
const requestParams = z.object({ id: entityId(shopMessages.requestNotFound) });

/** spec/02 §7 Shops: templates, deployed shops, trading and restock. */
export async function shopsRoutes(app: FastifyInstance, options: { shops: ShopsService }) {
  const { shops } = options;
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shops'];
  const oneTemplate = { 200: successEnvelope(shopTemplateSchema) };
  const oneShop = { 200: successEnvelope(shopInstanceSchema) };

  // ---- templates --------------------------------------------------------------------------------------
  r.get(
    '/shop_templates',
    {
      schema: {
        tags,
        summary: 'My shop templates and every public one, with filters, sort and include',
        querystring: shopTemplateListQuerySchema,
        response: { 200: shopTemplateListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await shops.listTemplates(actor(request).id, request.query)),
    }),
  );
  r.get(
    '/search/shops',
    {
      schema: {
        tags,
        summary: 'Search public shop templates',
        querystring: shopTemplateListQuerySchema,
        response: { 200: shopTemplateListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await shops.listTemplates(actor(request).id, request.query, true)),
    }),
  );
  r.get(
    '/shop_templates/:id',
    {
      schema: {
        tags,
        summary: 'A shop template with its items',
        params: templateParams,
        response: oneTemplate,
      },
    },
    async (request) => ok(await shops.getTemplate(actor(request).id, request.params.id)),
  );
  r.post(
    '/shop_templates',
    {
      schema: {
        tags,
        summary: 'Create a shop template (counts against shop_templates)',
        body: shopTemplateCreateBodySchema,
        response: { 201: successEnvelope(shopTemplateSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          ok(await shops.createTemplate(actor(request), request.body.shop_template), shopMessages.created),
        ),
  );
  for (const method of ['patch', 'put'] as const) {
    r[method](
      '/shop_templates/:id',
      {
        schema: {
          tags,
          summary: 'Change a shop template (its creator)',
          params: templateParams,
          body: shopTemplateUpdateBodySchema,
          response: oneTemplate,
        },
      },
      async (request) =>
        ok(
          await shops.updateTemplate(actor(request), request.params.id, request.body.shop_template),
          shopMessages.updated,
        ),
    );
  }
  r.delete(
    '/shop_templates/:id',
    {
      schema: {
        tags,
        summary: 'Delete a shop template; deployed shops keep running',
        params: templateParams,
      },
    },
    async (request, reply) => {
      await shops.deleteTemplate(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/shop_templates/:id/clone',
    {
      schema: {
        tags,
        summary: 'A private copy of a template I can read',
        params: templateParams,
        response: { 201: successEnvelope(shopTemplateSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await shops.cloneTemplate(actor(request), request.params.id), shopMessages.cloned)),
  );
  r.get(
    '/shop_templates/:id/items',
    {
      schema: {
        tags,
        summary: 'The items of a shop template',
        params: templateParams,
        response: { 200: successEnvelope(z.array(shopItemSchema)) },
      },
    },
    async (request) => ok(await shops.templateItems(actor(request).id, request.params.id)),
  );
  r.post(
    '/shop_templates/:id/add_item',
    {
      schema: {
        tags,
        summary: 'Add an item ({shop_item} or bare); adding it again adds to its quantity',
        params: templateParams,
        body: shopItemCreateBodySchema,
        response: { 201: successEnvelope(shopItemSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(await shops.addItem(actor(request), request.params.id, request.body))),
  );
  r.patch(
    '/shop_templates/:id/shop_items/:itemId',
    {
      schema: {
        tags,
        summary: 'Change a shop item',
        params: itemParams,
        body: shopItemUpdateBodySchema,
        response: { 200: successEnvelope(shopItemSchema) },
      },
    },
    async (request) =>
      ok(await shops.updateItem(actor(request), request.params.id, request.params.itemId, request.body)),
  );
  r.delete(
    '/shop_templates/:id/remove_item/:itemId',
    { schema: { tags, summary: 'Remove a shop item', params: itemParams } },
    async (request, reply) => {
      await shops.removeItem(actor(request), request.params.id, request.params.itemId);
      return reply.status(204).send();
    },
  );
  r.get(
    '/shop_templates/:id/restock_status',
    {
      schema: {
        tags,
        summary: 'Restock levels of a template and of the shops deployed from it in my parties',
        params: templateParams,
        response: { 200: successEnvelope(restockStatusSchema) },
      },
    },
    async (request) => ok(await shops.restockStatus(actor(request).id, request.params.id)),
  );
  r.post(
    '/shop_templates/:id/rate',
    {
      schema: {
        tags,
        summary: 'Rate a public template 1–5 (again to change it)',
        params: templateParams,
        body: shopRatingBodySchema,
        response: oneTemplate,
      },
    },
    async (request) =>
      ok(await shops.rate(actor(request), request.params.id, request.body.rating), shopMessages.rated),
  );

  // ---- instances --------------------------------------------------------------------------------------
  r.get(
    '/shop_instances',
    {
      schema: {
        tags,
        summary: 'Shops of my parties (data.instances, meta.total)',
        querystring: shopInstanceListQuerySchema,
        response: { 200: shopInstanceListResponseSchema },
      },
    },
    async (request) => ({
      status: 'success' as const,
      ...(await shops.listInstances(actor(request).id, request.query)),
    }),
  );
  r.post(
    '/shop_instances',
    {
      schema: {
        tags,
        summary: 'Deploy a template into a party (GM or manager; shops_deployment)',
        body: shopInstanceCreateBodySchema,
        response: { 201: successEnvelope(shopInstanceSchema) },
      },
    },
    async (request, reply) => {
      const shop = await shops.deploy(actor(request), request.body.shop_instance);
      return reply.status(201).send(ok(shop, shopMessages.deployed(shop.name)));
    },
  );
  r.get(
    '/shop_instances/:id',
    { schema: { tags, summary: 'A shop with its stock', params: shopParams, response: oneShop } },
    async (request) => ok(await shops.getInstance(actor(request).id, request.params.id)),
  );
  r.patch(
    '/shop_instances/:id',
    {
      schema: {
        tags,
        summary: 'Open, close or edit a shop (GM or manager)',
        params: shopParams,
        body: shopInstanceUpdateBodySchema,
        response: oneShop,
      },
    },
    async (request) => {
      const shop = await shops.updateInstance(actor(request), request.params.id, request.body.shop_instance);
      const closed = request.body.shop_instance.is_active === false;
      return ok(shop, closed ? shopMessages.closed : undefined);
    },
  );
  r.delete(
    '/shop_instances/:id',
    { schema: { tags, summary: 'Remove a shop; its stock is destroyed in the ledger', params: shopParams } },
    async (request, reply) => {
      await shops.deleteInstance(actor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  r.post(
    '/shop_instances/:id/purchase',
    {
      schema: {
        tags,
        summary:
          'Buy with coins from one of my character’s containers or, where allowed, the party stash; above the approval threshold the purchase waits (202, data.request)',
        description:
          'An unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) sells only at the shop’s own price for its template (less its discount); without one the purchase, and a request for it alike, is refused with 422 VALIDATION_ERROR on item_instance_id and nothing changes.',
        params: shopParams,
        body: purchaseBodySchema,
        response: { 200: successEnvelope(tradeResultSchema), 202: successEnvelope(tradeResultSchema) },
      },
    },
    async (request, reply) => {
      const result = await shops.purchase(actor(request), request.params.id, request.body.purchase);
      return reply.status(result.request ? 202 : 200).send(ok(result, result.message));
    },
  );
  r.post(
    '/shop_instances/:id/sell',
    {
      schema: {
        tags,
        summary: 'Sell an item of my character to a shop',
        description:
          'The shop pays sell_modifier × the item’s value, rounded down per piece. An unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) is paid the shop’s own price for its template instead; without one the sale is refused with 422 VALIDATION_ERROR on item_instance_id and nothing changes.',
        params: shopParams,
        body: sellBodySchema,
        response: { 200: successEnvelope(tradeResultSchema) },
      },
    },
    async (request) => {
      const result = await shops.sell(actor(request), request.params.id, request.body.sell);
      return ok(result, result.message);
    },
  );
  r.post(
    '/shop_instances/:id/stock',
    {
      schema: {
        tags,
        summary: 'Move an item of mine into the shop, optionally with its own price (GM or manager)',
        params: shopParams,
        body: stockBodySchema,
        response: oneShop,
      },
    },
    async (request) =>
      ok(await shops.stockItem(actor(request), request.params.id, request.body), shopMessages.stockUpdated),
  );
  r.post(
    '/shop_instances/:id/unstock',
    {
      schema: {
        tags,
        summary: 'Take stock back off the shelf into a container of the party (GM or manager)',
        params: shopParams,
        body: unstockBodySchema,
        response: oneShop,
      },
    },
    async (request) =>
      ok(await shops.unstockItem(actor(request), request.params.id, request.body), shopMessages.unstocked),
  );
  r.put(
    '/shop_instances/:id/prices/:itemTemplateId',
    {
      schema: {
        tags,
        summary: 'Set or clear the shop’s own price for an item on its shelf (GM or manager)',
        description:
          'price_cp in copper prices every one of the item on the shelf: players buy it at that price less the discount, and the shop pays that price times its sell modifier for an unpriced one (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override), which can then be bought and sold here. null clears it: the item goes by its value again, and an unpriced one is neither bought nor sold. No item or coin moves, so the ledger has no row for it; a pending purchase request keeps the price it agreed to. An item the shelf does not hold is refused with 422 VALIDATION_ERROR on item_template_id and nothing changes. Answers the shop as GET /shop_instances/{id} does.',
        params: shopPriceParams,
        body: shopPriceBodySchema,
        response: oneShop,
      },
    },
    async (request) => {
      const { price_cp } = request.body;
      const shop = await shops.setPrice(
        actor(request),
        request.params.id,
        request.params.itemTemplateId,
        price_cp,
      );
      return ok(shop, price_cp === null ? shopMessages.priceCleared : shopMessages.priceSaved);
    },
  );
  r.get(
    '/shop_instances/:id/stock',
    {
      schema: {
        tags,
        summary: 'What the shop sells, with prices',
        description:
          'buy_price_cp is null for an unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) the shop has no own price for: it is not for sale until the GM prices it (Set price: PUT /shop_instances/{id}/prices/{itemTemplateId}). GET /shop_instances/{id} lists its container the same way.',
        params: shopParams,
        response: { 200: successEnvelope(z.array(shopStockItemSchema)) },
      },
    },
    async (request) => ok(await shops.stock(actor(request).id, request.params.id)),
  );
  r.post(
    '/shop_instances/:id/restock',
    {
      schema: {
        tags,
        summary: 'Restock now (GM or manager)',
        params: shopParams,
        response: { 200: successEnvelope(restockResultSchema) },
      },
    },
    async (request) => ok(await shops.restockNow(actor(request), request.params.id), shopMessages.restocked),
  );
  r.get(
    '/shop_instances/:id/restock_schedule',
    {
      schema: {
        tags,
        summary: 'When the shop restocks next',
        params: shopParams,
        response: { 200: successEnvelope(restockScheduleSchema) },
      },
    },
    async (request) => ok(await shops.restockSchedule(actor(request).id, request.params.id)),
  );
  r.get(
    '/shop_instances/:id/containers',
    {
      schema: {
        tags,
        summary: 'The shop’s container',
        params: shopParams,
        response: { 200: successEnvelope(z.array(shopContainerSchema)) },
      },
    },
    async (request) => ok(await shops.containers(actor(request).id, request.params.id)),
  );
  for (const side of ['buy', 'sell'] as const) {
    r.get(
      `/shop_instances/:id/calculate_${side}_price/:itemId`,
      {
        schema: {
          tags,
          summary:
            side === 'buy' ? 'What buying an item of the shop costs' : 'What the shop pays for an item',
          description:
            side === 'buy'
              ? 'Agrees with the purchase itself. An unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) costs the shop’s own price for its template less its discount; without one it is not for sale, and this answers 422 VALIDATION_ERROR on item_instance_id with the message the purchase would refuse with.'
              : 'Agrees with the sale itself. An unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) is offered the shop’s own price for its template times the sell modifier; without one the shop offers nothing, and this answers 422 VALIDATION_ERROR on item_instance_id with the message the sale would refuse with. The shop never pays more for an item than it asks for it (calculate_buy_price: its value × buy_modifier or its own price, less the discount, times the quantity), so buying and selling back makes no coins; a shop that gives an item away (its asking price 0) answers 422 rather than a price of 0.',
          params: shopItemParams,
          querystring: priceQuerySchema,
          response: { 200: successEnvelope(priceQuoteSchema) },
        },
      },
      async (request) => {
        const args = [
          actor(request).id,
          request.params.id,
          request.params.itemId,
          request.query.quantity,
        ] as const;
        return ok(side === 'buy' ? await shops.buyPrice(...args) : await shops.sellPrice(...args));
      },
    );
  }
  r.get(
    '/shop_instances/:id/sales',
    {
      schema: {
        tags,
        summary: 'The shop’s sales log from the ledger (GM or manager)',
        params: shopParams,
        querystring: shopSalesQuerySchema,
        response: { 200: shopSalesResponseSchema },
      },
    },
    async (request) => {
      const { rows, meta } = await shops.sales(
        actor(request).id,
        request.params.id,
        request.query.page,
        request.query.per_page,
      );
      return {
        status: 'success' as const,
        data: { transactions: rows.map((row) => toTransactionJson(row)) },
        meta,
      };
    },
  );

  // ---- purchase requests (issue 10 §8: shopping while the GM is away) ---------------------------------
  r.get(
    '/shop_instances/:id/requests',
    {
      schema: {
        tags,
        summary: 'Purchase requests of a shop (all for the GM and managers, my own for players)',
        params: shopParams,
        querystring: shopRequestListQuerySchema,
        response: { 200: successEnvelope(z.array(shopRequestSchema)) },
      },
    },
    async (request) =>
      ok(await shops.listRequests(actor(request).id, request.params.id, request.query.status)),
  );
  r.post(
    '/shop_requests/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve a pending purchase: coins and goods move (GM or manager)',
        description:
          'Sells at the price agreed when the request was made. An unpriced item (an SRD magic item: item_template.metadata.priced false, and no instance_data.value_override) whose own shop price has been cleared since is refused with 409 CONFLICT and nothing changes: price it again, or decline the request.',
        params: requestParams,
        response: { 200: successEnvelope(shopRequestResultSchema) },
      },
    },
    async (request) =>
      ok(await shops.approveRequest(actor(request), request.params.id), shopMessages.requestApproved),
  );
  for (const [path, outcome, message] of [
    ['decline', 'declined', shopMessages.requestDeclined],
    ['cancel', 'cancelled', shopMessages.requestCancelled],
  ] as const) {
    r.post(
      `/shop_requests/:id/${path}`,
      {
        schema: {
          tags,
          summary:
            outcome === 'declined'
              ? 'Decline a pending purchase: its goods go back on sale (GM or manager)'
              : 'Cancel my pending purchase: its goods go back on sale',
          params: requestParams,
          body: shopRequestDecisionSchema,
          response: { 200: successEnvelope(shopRequestResultSchema) },
        },
      },
      async (request) =>
        ok(
          await shops.releaseRequest(actor(request), request.params.id, outcome, request.body.reason ?? ''),
          message,
        ),
    );
  }
}
