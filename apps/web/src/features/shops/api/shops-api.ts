import {
  CURRENCY_TAG,
  type ItemInstance,
  type PageMeta,
  type PaymentSource,
  type PriceQuote,
  pageMetaSchema,
  priceQuoteSchema,
  restockResultSchema,
  restockScheduleSchema,
  restockStatusSchema,
  type ShopInstance,
  type ShopInstanceCreate,
  type ShopInstanceListSummary,
  type ShopInstanceSummary,
  type ShopInstanceUpdate,
  type ShopItem,
  type ShopTemplate,
  type ShopTemplateForm,
  type ShopTemplateUpdate,
  type ShopType,
  shopInstanceListSummarySchema,
  shopInstanceSchema,
  shopInstanceSummarySchema,
  shopItemSchema,
  shopMessages,
  shopTemplateSchema,
  type TradeResult,
  tradeResultSchema,
  transactionSchema,
} from '@haversack/contracts';
import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { fetchEveryPage, pageSearch } from '../../../lib/fetch-every-page';
import { API_V1, type ApiError, apiRequest, isApiError, outcomeUnknown } from '../../../lib/http-client';

/** spec/02 §9 cache freshness: shop templates 5 min; shop instances 2 min; one shop 1 min; a party's shops 60 s. */
export const SHOP_TEMPLATES_STALE_MS = 5 * 60_000;
export const SHOP_INSTANCES_STALE_MS = 2 * 60_000;
export const SHOP_INSTANCE_STALE_MS = 60_000;
export const PARTY_SHOPS_STALE_MS = 60_000;
/**
 * spec/02 §9: a grid of shop cards is 3 columns wide, so 12 fill four rows (the shop lists page through
 * them); shop inventories are treated as 100 per page, as many as the workspace's shop picker offers.
 */
export const SHOPS_PER_PAGE = 12;
export const SHOP_INVENTORY_PER_PAGE = 100;

export type ShopSort = 'name' | 'rating' | 'popularity' | 'created_at' | 'updated_at';

/** spec/02 §2 shop filters. */
export interface ShopTemplateFilters {
  search: string;
  shopType: ShopType | null;
  location: string;
  minRating: number | null;
  visibility: 'public' | 'unlisted' | null;
  sortBy: ShopSort;
  sortOrder: 'asc' | 'desc';
  tags: string[];
  /** Only templates I made (the /shops/templates list). */
  mine?: boolean;
  page: number;
}

export const defaultShopTemplateFilters: ShopTemplateFilters = {
  search: '',
  shopType: null,
  location: '',
  minRating: null,
  visibility: null,
  sortBy: 'name',
  sortOrder: 'asc',
  tags: [],
  page: 1,
};

export interface ShopInstanceFilters {
  search: string;
  shopType: ShopType | null;
  location: string;
  partyId: string | null;
  isActive: boolean | null;
  page: number;
  perPage?: number;
}

export const defaultShopInstanceFilters: ShopInstanceFilters = {
  search: '',
  shopType: null,
  location: '',
  partyId: null,
  isActive: null,
  page: 1,
};

/** The only source of shop cache keys (DESIGN §2). */
export const shopKeys = {
  all: ['shops'] as const,
  templates: () => [...shopKeys.all, 'templates'] as const,
  templateList: (filters: ShopTemplateFilters) => [...shopKeys.templates(), 'list', filters] as const,
  template: (id: string) => [...shopKeys.templates(), 'detail', id] as const,
  restockStatus: (id: string) => [...shopKeys.template(id), 'restock-status'] as const,
  instances: () => [...shopKeys.all, 'instances'] as const,
  instanceList: (filters: ShopInstanceFilters) => [...shopKeys.instances(), 'list', filters] as const,
  partyShops: (partyId: string) => [...shopKeys.instances(), 'party', partyId] as const,
  /** Under `partyShops`, so what refreshes a party's shops refreshes every page of them too. */
  partyShopsPage: (partyId: string, page: number) => [...shopKeys.partyShops(partyId), 'page', page] as const,
  instance: (id: string) => [...shopKeys.instances(), 'detail', id] as const,
  /**
   * Not under the shop's own key: whatever refreshes the shop (a trade here, a live event) would otherwise
   * ask again for the price of a stack that may just have been bought out or sold (a 404). The trade
   * dialog asks again itself once the refreshed shop still has its stack.
   */
  quotes: (shopId: string) => [...shopKeys.all, 'quotes', shopId] as const,
  quote: (shopId: string, side: 'buy' | 'sell', itemId: string, quantity: number) =>
    [...shopKeys.quotes(shopId), side, itemId, quantity] as const,
  restockSchedule: (shopId: string) => [...shopKeys.instance(shopId), 'restock-schedule'] as const,
  sales: (shopId: string, page: number) => [...shopKeys.instance(shopId), 'sales', page] as const,
};

function metaOf(meta: unknown, count: number): PageMeta {
  const parsed = pageMetaSchema.safeParse(meta);
  return parsed.success
    ? parsed.data
    : { current_page: 1, total_pages: 1, total_count: count, per_page: Math.max(count, 1) };
}

// ---- Shop templates ------------------------------------------------------------------------------

export interface ShopTemplatePage {
  templates: ShopTemplate[];
  meta: PageMeta;
}

export function shopTemplateSearch(filters: ShopTemplateFilters, perPage = SHOPS_PER_PAGE): URLSearchParams {
  const params = new URLSearchParams({
    page: String(filters.page),
    per_page: String(perPage),
    sort_by: filters.sortBy,
    sort_order: filters.sortOrder,
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.shopType) params.set('shop_type', filters.shopType);
  if (filters.location.trim()) params.set('location', filters.location.trim());
  if (filters.minRating !== null) params.set('min_rating', String(filters.minRating));
  if (filters.visibility) params.set('visibility', filters.visibility);
  if (filters.tags.length > 0) params.set('tags', filters.tags.join(','));
  if (filters.mine) params.set('mine', 'true');
  params.set('include', 'tags');
  return params;
}

/** spec/02 §7 GET shop_templates: my templates and every public one, filtered and sorted. */
export function shopTemplatesQuery(filters: ShopTemplateFilters) {
  return queryOptions({
    queryKey: shopKeys.templateList(filters),
    queryFn: async ({ signal }): Promise<ShopTemplatePage> => {
      const { data, meta } = await apiRequest(`${API_V1}/shop_templates?${shopTemplateSearch(filters)}`, {
        schema: z.array(shopTemplateSchema),
        signal,
        toast: false,
      });
      return { templates: data, meta: metaOf(meta, data.length) };
    },
    staleTime: SHOP_TEMPLATES_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

const noRetryOnClientError = (failureCount: number, error: Error) =>
  failureCount < 1 && !(isApiError(error) && error.status < 500);

export function shopTemplateQuery(id: string) {
  return queryOptions({
    queryKey: shopKeys.template(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/shop_templates/${id}`, {
          schema: shopTemplateSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: SHOP_TEMPLATES_STALE_MS,
    retry: noRetryOnClientError,
  });
}

export function restockStatusQuery(id: string) {
  return queryOptions({
    queryKey: shopKeys.restockStatus(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/shop_templates/${id}/restock_status`, {
          schema: restockStatusSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: SHOP_TEMPLATES_STALE_MS,
  });
}

/** The form's input: numbers may still be strings; the contracts' schema settles them on the server. */
export type ShopTemplateInput = Omit<
  ShopTemplateForm,
  'buy_modifier' | 'sell_modifier' | 'default_restock_days' | 'tag_list'
> & {
  buy_modifier: number | string;
  sell_modifier: number | string;
  default_restock_days: number | string | null;
  tag_list: string[] | string;
};

export async function createShopTemplate(template: ShopTemplateInput): Promise<ShopTemplate> {
  const { data } = await apiRequest(`${API_V1}/shop_templates`, {
    method: 'POST',
    body: { shop_template: template },
    schema: shopTemplateSchema,
    toast: false,
  });
  return data;
}

export async function updateShopTemplate(
  id: string,
  template: ShopTemplateUpdate | ShopTemplateInput,
): Promise<ShopTemplate> {
  const { data } = await apiRequest(`${API_V1}/shop_templates/${id}`, {
    method: 'PATCH',
    body: { shop_template: template },
    schema: shopTemplateSchema,
    toast: false,
  });
  return data;
}

export async function deleteShopTemplate(id: string): Promise<void> {
  await apiRequest(`${API_V1}/shop_templates/${id}`, { method: 'DELETE' });
}

export async function cloneShopTemplate(id: string): Promise<ShopTemplate> {
  const { data } = await apiRequest(`${API_V1}/shop_templates/${id}/clone`, {
    method: 'POST',
    schema: shopTemplateSchema,
  });
  return data;
}

export async function rateShopTemplate(id: string, rating: number): Promise<ShopTemplate> {
  const { data } = await apiRequest(`${API_V1}/shop_templates/${id}/rate`, {
    method: 'POST',
    body: { shop_rating: { rating } },
    schema: shopTemplateSchema,
  });
  return data;
}

export interface ShopItemInput {
  item_template_id: string;
  quantity: number;
  price_cp: number | null;
  restock_quantity: number | null;
}

export async function addShopItem(templateId: string, item: ShopItemInput): Promise<ShopItem> {
  const { data } = await apiRequest(`${API_V1}/shop_templates/${templateId}/add_item`, {
    method: 'POST',
    body: { shop_item: item },
    schema: shopItemSchema,
    toast: false,
  });
  return data;
}

export async function updateShopItem(
  templateId: string,
  itemId: string,
  change: Omit<ShopItemInput, 'item_template_id'>,
): Promise<ShopItem> {
  const { data } = await apiRequest(`${API_V1}/shop_templates/${templateId}/shop_items/${itemId}`, {
    method: 'PATCH',
    body: { shop_item: change },
    schema: shopItemSchema,
    toast: false,
  });
  return data;
}

export async function removeShopItem(templateId: string, itemId: string): Promise<void> {
  await apiRequest(`${API_V1}/shop_templates/${templateId}/remove_item/${itemId}`, { method: 'DELETE' });
}

// ---- Shop instances ------------------------------------------------------------------------------

export interface ShopInstancePage {
  /** The shops without their stock (a card shows its count); `shopInstanceQuery` has the stock. */
  instances: ShopInstanceSummary[];
  total: number;
  meta: PageMeta;
  /** Active, inactive and items over every shop the filters match (spec/02 §2 summary), not only this page. */
  summary: ShopInstanceListSummary;
}

const instanceListSchema = z.object({ instances: z.array(shopInstanceSummarySchema) });

export function shopInstanceSearch(filters: ShopInstanceFilters): URLSearchParams {
  const params = new URLSearchParams({
    page: String(filters.page),
    per_page: String(filters.perPage ?? SHOPS_PER_PAGE),
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.shopType) params.set('shop_type', filters.shopType);
  if (filters.location.trim()) params.set('location', filters.location.trim());
  if (filters.partyId) params.set('party_id', filters.partyId);
  if (filters.isActive !== null) params.set('is_active', String(filters.isActive));
  return params;
}

/** The page's own figures: what a server that sends no summary is summed up by. */
function pageSummary(instances: ShopInstanceSummary[]): ShopInstanceListSummary {
  const active = instances.filter((s) => s.is_active).length;
  return {
    active,
    inactive: instances.length - active,
    items: instances.reduce((sum, s) => sum + s.items_count, 0),
  };
}

async function fetchInstances(params: URLSearchParams, signal: AbortSignal): Promise<ShopInstancePage> {
  const { data, meta } = await apiRequest(`${API_V1}/shop_instances?${params}`, {
    schema: instanceListSchema,
    signal,
    toast: false,
  });
  const totals = z
    .object({ total: z.number(), summary: shopInstanceListSummarySchema.optional() })
    .safeParse(meta);
  return {
    instances: data.instances,
    total: totals.success ? totals.data.total : data.instances.length,
    meta: metaOf(meta, data.instances.length),
    summary: (totals.success && totals.data.summary) || pageSummary(data.instances),
  };
}

/** spec/02 §7 GET shop_instances: the shops of my parties. */
export function shopInstancesQuery(filters: ShopInstanceFilters) {
  return queryOptions({
    queryKey: shopKeys.instanceList(filters),
    queryFn: ({ signal }) => fetchInstances(shopInstanceSearch(filters), signal),
    staleTime: SHOP_INSTANCES_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/**
 * Every page of a list of shops, of the largest size, as one page: a GM of 120 shops saw the first 100 in
 * the workspace's picker and could not choose the others (as the characters' pickers, characters-api.ts).
 */
async function fetchEveryInstance(filters: URLSearchParams, signal: AbortSignal): Promise<ShopInstancePage> {
  const { items, last, meta } = await fetchEveryPage(
    (page, perPage) => fetchInstances(pageSearch(filters, page, perPage), signal),
    (answer) => answer.instances,
    SHOP_INVENTORY_PER_PAGE,
  );
  return { ...last, instances: items, meta };
}

/**
 * The shops of one party for the workspace's Shop picker: every one of them, 100 a request, without their
 * stock, fresh for 60 s. The party's Shops tab pages through them instead (`partyShopsPageQuery`).
 */
export function partyShopsQuery(partyId: string) {
  return queryOptions({
    queryKey: shopKeys.partyShops(partyId),
    queryFn: ({ signal }) =>
      fetchEveryInstance(shopInstanceSearch({ ...defaultShopInstanceFilters, partyId }), signal),
    staleTime: PARTY_SHOPS_STALE_MS,
  });
}

/** One page of a party's shops (the party's Shops tab), fresh for 60 s like the party's other lists. */
export function partyShopsPageQuery(partyId: string, page: number) {
  return queryOptions({
    queryKey: shopKeys.partyShopsPage(partyId, page),
    queryFn: ({ signal }) =>
      fetchInstances(shopInstanceSearch({ ...defaultShopInstanceFilters, partyId, page }), signal),
    staleTime: PARTY_SHOPS_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** One shop with its stock: fresh 1 min and refetched when the window regains focus (spec/02 §9). */
export function shopInstanceQuery(id: string) {
  return queryOptions({
    queryKey: shopKeys.instance(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/shop_instances/${id}`, {
          schema: shopInstanceSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: SHOP_INSTANCE_STALE_MS,
    refetchOnWindowFocus: true,
    retry: noRetryOnClientError,
  });
}

export function restockScheduleQuery(shopId: string) {
  return queryOptions({
    queryKey: shopKeys.restockSchedule(shopId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/shop_instances/${shopId}/restock_schedule`, {
          schema: restockScheduleSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: SHOP_INSTANCE_STALE_MS,
  });
}

export function shopSalesQuery(shopId: string, page: number) {
  return queryOptions({
    queryKey: shopKeys.sales(shopId, page),
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), per_page: '20' });
      const { data, meta } = await apiRequest(`${API_V1}/shop_instances/${shopId}/sales?${params}`, {
        schema: z.object({ transactions: z.array(transactionSchema) }),
        signal,
        toast: false,
      });
      return { transactions: data.transactions, meta: metaOf(meta, data.transactions.length) };
    },
    staleTime: SHOP_INSTANCE_STALE_MS,
  });
}

/** spec/02 §7 calculate_buy_price / calculate_sell_price: the server's price for a quantity. */
export function priceQuoteQuery(shopId: string, side: 'buy' | 'sell', itemId: string, quantity: number) {
  return queryOptions({
    queryKey: shopKeys.quote(shopId, side, itemId, quantity),
    queryFn: async ({ signal }): Promise<PriceQuote> =>
      (
        await apiRequest(
          `${API_V1}/shop_instances/${shopId}/calculate_${side}_price/${itemId}?${new URLSearchParams({
            quantity: String(quantity),
          })}`,
          { schema: priceQuoteSchema, signal, toast: false },
        )
      ).data,
    staleTime: 10_000,
    retry: false,
  });
}

export async function deployShop(input: ShopInstanceCreate): Promise<ShopInstance> {
  const { data } = await apiRequest(`${API_V1}/shop_instances`, {
    method: 'POST',
    body: { shop_instance: input },
    schema: shopInstanceSchema,
    toast: false,
  });
  return data;
}

export async function updateShopInstance(id: string, change: ShopInstanceUpdate): Promise<ShopInstance> {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${id}`, {
    method: 'PATCH',
    body: { shop_instance: change },
    schema: shopInstanceSchema,
    toast: false,
  });
  return data;
}

export async function deleteShopInstance(id: string): Promise<void> {
  await apiRequest(`${API_V1}/shop_instances/${id}`, { method: 'DELETE' });
}

export async function restockShop(id: string) {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${id}/restock`, {
    method: 'POST',
    schema: restockResultSchema,
  });
  return data;
}

export interface StockRequest {
  itemId: string;
  sourceContainerId: string;
  quantity: number;
  /** In copper; null: priced from the item's value. */
  price: number | null;
}

export async function stockShop(shopId: string, request: StockRequest): Promise<ShopInstance> {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${shopId}/stock`, {
    method: 'POST',
    body: {
      stock: {
        item_id: request.itemId,
        source_container_id: request.sourceContainerId,
        quantity: request.quantity,
        price: request.price,
      },
    },
    schema: shopInstanceSchema,
    toast: false,
  });
  return data;
}

export interface UnstockRequest {
  itemId: string;
  targetContainerId: string;
  quantity: number;
}

/** Stock taken back off the shelf into a container of the party (GM or manager); the dialog shows refusals. */
export async function unstockShop(shopId: string, request: UnstockRequest): Promise<ShopInstance> {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${shopId}/unstock`, {
    method: 'POST',
    body: {
      unstock: {
        item_id: request.itemId,
        target_container_id: request.targetContainerId,
        quantity: request.quantity,
      },
    },
    schema: shopInstanceSchema,
    toast: false,
  });
  return data;
}

/**
 * The shop's own price for an item on its shelf (GM or manager): in copper, or null to clear it. Answers the
 * shop as it now is and the server's message; the Set price dialog shows refusals itself.
 */
export async function setShopPrice(
  shopId: string,
  itemTemplateId: string,
  priceCp: number | null,
): Promise<{ shop: ShopInstance; message: string | undefined }> {
  const { data, message } = await apiRequest(`${API_V1}/shop_instances/${shopId}/prices/${itemTemplateId}`, {
    method: 'PUT',
    body: { price: { price_cp: priceCp } },
    schema: shopInstanceSchema,
    toast: false,
  });
  return { shop: data, message };
}

export interface PurchaseRequest {
  shopId: string;
  itemInstanceId: string;
  quantity: number;
  characterId: string;
  containerId: string;
  /** Issue 10 §8: "party" pays from the party stash, where the shop allows it; purchases only. */
  paymentSource?: PaymentSource;
  /** The price each the buyer saw and agreed to: the shop refuses the purchase if it asks another. */
  expectedUnitPriceCp?: number;
}

/** The caller shows the spec/02 §8 messages itself, so the client's own error toast is off. */
export async function purchase(request: PurchaseRequest): Promise<TradeResult> {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${request.shopId}/purchase`, {
    method: 'POST',
    body: {
      purchase: {
        item_instance_id: request.itemInstanceId,
        quantity: request.quantity,
        buyer_character_id: request.characterId,
        buyer_container_id: request.containerId,
        payment_source: request.paymentSource ?? 'character',
        ...(request.expectedUnitPriceCp === undefined
          ? {}
          : { expected_unit_price_cp: request.expectedUnitPriceCp }),
      },
    },
    schema: tradeResultSchema,
    toast: false,
  });
  return data;
}

export interface SellRequest extends PurchaseRequest {
  /**
   * Issue 11 §8 (the party's GM only): share the proceeds evenly among these characters of the party
   * instead of paying the seller; the server's message says how it was split.
   */
  splitAmong?: string[];
}

export async function sell(request: SellRequest): Promise<TradeResult> {
  const { data } = await apiRequest(`${API_V1}/shop_instances/${request.shopId}/sell`, {
    method: 'POST',
    body: {
      sell: {
        item_instance_id: request.itemInstanceId,
        quantity: request.quantity,
        seller_character_id: request.characterId,
        seller_container_id: request.containerId,
        ...(request.splitAmong ? { split_among: request.splitAmong } : {}),
      },
    },
    schema: tradeResultSchema,
    toast: false,
  });
  return data;
}

/**
 * Money, not wares: a seeded coin, or any item tagged currency (spec/02 §3, "a tag currency marks currency
 * items"), which the shop refuses to buy, sell or stock (shopMessages.currencyNotSold). Left out of what I
 * may sell or stock, so no line offers a trade that can only be refused.
 */
export function isMoneyItem(item: ItemInstance): boolean {
  return item.item_template.coin !== null || item.item_template.tags.includes(CURRENCY_TAG);
}

// ---- Messages and invalidation -------------------------------------------------------------------

export const purchaseFailed = 'The purchase could not be completed. Please try again.';
export const saleFailed = 'The sale could not be completed. Please try again.';
/** No answer came: the trade may have been made. Pressing again resends it unchanged, which is never made twice. */
export const purchaseUnanswered =
  'No answer came from the shop: the purchase may have gone through. Press Buy again to find out; it will not buy twice.';
export const saleUnanswered =
  'No answer came from the shop: the sale may have gone through. Press Sell again to find out; it will not sell twice.';

/**
 * The shop's refusal of an unpriced item it has no price of its own for (`sellOfferCp`): the sale and its
 * quote (calculate_sell_price) refuse it alike, and "try again" would never help.
 */
export function isNoOfferRefusal(error: unknown): boolean {
  return isUnpricedRefusal(error, shopMessages.unpricedNoOffer);
}

/**
 * The shop's refusal of a sale as its quote (calculate_sell_price) gives it, in the server's words: a sale
 * worth 0 cp once rounded down for the line (one torch at half price; `shopSaleMessages.worthlessNoOffer`),
 * or coins. Null for anything else, the unpriced refusal included (`isNoOfferRefusal` says that one).
 */
export function saleRefusal(error: unknown): string | null {
  if (!isApiError(error) || error.code !== 'VALIDATION_ERROR' || isNoOfferRefusal(error)) return null;
  return error.details.find((detail) => detail.field === 'item_instance_id')?.message ?? null;
}

/**
 * The shop's refusal to sell an unpriced item it has no price of its own for (`askingPriceCp`): the
 * purchase, a purchase request and the quote (calculate_buy_price) refuse it alike, until the GM prices it.
 */
export function isNotForSaleRefusal(error: unknown): boolean {
  return isUnpricedRefusal(error, shopMessages.unpricedNotForSale);
}

function isUnpricedRefusal(error: unknown, message: string): boolean {
  return (
    isApiError(error) &&
    error.code === 'VALIDATION_ERROR' &&
    error.details.some((detail) => detail.field === 'item_instance_id' && detail.message === message)
  );
}

/**
 * spec/02 §8: INSUFFICIENT_FUNDS, ITEM_OUT_OF_STOCK and SHOP_CLOSED give their own messages (the server's
 * sentence says how much is missing or how many are left). So does every other refusal (a 4xx), which
 * "try again" would not help; only a failure of the server or the network gets the generic one.
 */
export function tradeErrorMessage(error: unknown, side: 'buy' | 'sell'): string {
  const generic = side === 'buy' ? purchaseFailed : saleFailed;
  if (!isApiError(error)) return generic;
  // "Try again" would read as "it failed": it may have gone through, and pressing again is safe only
  // because the dialog then sends the very same request (trade-dialog.tsx).
  if (outcomeUnknown(error)) return side === 'buy' ? purchaseUnanswered : saleUnanswered;
  if (isNoOfferRefusal(error)) return shopMessages.unpricedNoOffer;
  if (isNotForSaleRefusal(error)) return shopMessages.unpricedNotForSale;
  switch (error.code) {
    case 'INSUFFICIENT_FUNDS':
      return error.serverMessage ?? error.message;
    case 'ITEM_OUT_OF_STOCK':
      // "Only 1 left in stock." says more than the spec's sentence, which would contradict it (some are left).
      return error.serverMessage && error.serverMessage !== shopMessages.outOfStock
        ? error.serverMessage
        : shopMessages.outOfStock;
    case 'SHOP_CLOSED':
      return shopMessages.shopClosed;
    // Not among spec/02's three, but "try again" would never help: the container has no room for it
    // (spec/01 §8 shows such a domain code's own message).
    case 'CAPACITY_EXCEEDED':
      return error.serverMessage ?? error.message;
    // Any other refusal (a 4xx: the GM repriced it after the buyer saw the price, coins are not traded, the
    // item is gone) has the server's own sentence, which says more than "try again", which would not help.
    // Only a failure of the server itself or of the network keeps the generic message.
    default:
      return refusalMessage(error) ?? generic;
  }
}

/** A 4xx answer's own sentence: a validation error's is its field's message, its envelope's is generic. */
function refusalMessage(error: ApiError): string | null {
  if (error.status < 400 || error.status >= 500) return null;
  if (error.code === 'VALIDATION_ERROR') return error.details[0]?.message ?? error.serverMessage;
  return error.serverMessage;
}

/**
 * After a shop changed: the shop itself and every list that shows it. Its price quotes are only marked
 * stale, to be asked again when a trade dialog next shows one: refetched now, the quote of a stack that
 * just sold out would ask for a stack that is gone (a 404 after buying the last one).
 */
export async function invalidateShop(queryClient: QueryClient, shopId: string | null) {
  await Promise.all([
    ...(shopId
      ? [
          queryClient.invalidateQueries({ queryKey: shopKeys.instance(shopId) }),
          queryClient.invalidateQueries({ queryKey: shopKeys.quotes(shopId), refetchType: 'none' }),
        ]
      : []),
    queryClient.invalidateQueries({ queryKey: [...shopKeys.instances(), 'list'] }),
    queryClient.invalidateQueries({ queryKey: [...shopKeys.instances(), 'party'] }),
  ]);
}
