import {
  askingPriceCp,
  type Currency,
  copperPer,
  currencies,
  emptyPurse,
  formatCopper,
  formatEnUs,
  inventoryMessages,
  isUnpricedItem,
  makeChange,
  type PaymentSource,
  type PriceQuote,
  type Purchase,
  type Purse,
  partyMessages,
  planPayment,
  restockBadge,
  type Sell,
  type ShopInstance,
  type ShopInstanceCreate,
  type ShopInstanceListQuery,
  type ShopInstanceSummary,
  type ShopInstanceUpdate,
  type ShopItem,
  type ShopItemForm,
  type ShopRequest,
  type ShopRequestResult,
  type ShopRequestStatus,
  type ShopStockItem,
  type ShopTemplate,
  type ShopTemplateForm,
  type ShopTemplateListQuery,
  type ShopTemplateUpdate,
  type Stock,
  sellLineCp,
  sellLineKey,
  sellOfferCp,
  shopMessages,
  shopSaleMessages,
  shopTypeNames,
  type TradeResult,
  type Unstock,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import type { RestockLine } from '../../db/schema/shops.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { charactersRepository } from '../characters/characters.repository.js';
import { templateFacts, toInstanceJson } from '../inventory/inventory.json.js';
import { containerAccess } from '../inventory/inventory.policy.js';
import {
  type ContainerContext,
  type InstanceRow,
  inventoryRepository,
  type TemplateRow,
} from '../inventory/inventory.repository.js';
import type { InventoryMoves } from '../inventory/inventory.service.js';
import { eventFromLedger } from '../inventory/inventory-events.js';
import type { LedgerActor } from '../inventory/inventory-ledger.js';
import { destroyContainerContents } from '../inventory/inventory-ledger.js';
import { effectiveFacts, ownedContainerName } from '../inventory/inventory-rules.js';
import { takeFromLine } from '../inventory/stack-line.js';
import { canRead as canReadItemTemplate, isHiddenFrom } from '../items/items.policy.js';
import { toTemplateJson } from '../items/items.service.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { type NoticeBoard, NoticeWriter, noticeLinks } from '../notifications/notices.js';
import { partiesRepository } from '../parties/parties.repository.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { splitProceeds } from './sale-split.js';
import { systemShopItemKey, systemShops } from './shops.catalogue.js';
import * as policy from './shops.policy.js';
import {
  shopsRepository as repo,
  type ShopInstanceRow,
  type ShopRequestRow,
  type ShopTemplateView,
} from './shops.repository.js';

function toRequestJson(r: ShopRequestRow, userId: string, canManage: boolean): ShopRequest {
  const pending = r.status === 'pending';
  return {
    id: r.id,
    shop_instance_id: r.shopInstanceId,
    party_id: r.partyId,
    status: r.status,
    requester: { id: r.requesterId, name: r.requesterName },
    character: { id: r.characterId, name: r.characterName },
    buyer_container_id: r.buyerContainerId,
    payment_source: r.paymentSource,
    payer_container_id: r.payerContainerId,
    hold_container_id: r.holdContainerId,
    item_template_id: r.itemTemplateId,
    item_name: r.itemName,
    quantity: r.quantity,
    unit_price_cp: r.unitPriceCp,
    total_price_cp: r.totalPriceCp,
    formatted: formatCopper(r.totalPriceCp),
    decided_by: r.decidedByName ? { id: r.decidedById, name: r.decidedByName } : null,
    decided_at: r.decidedAt?.toISOString() ?? null,
    reason: r.reason,
    can_decide: pending && canManage,
    can_cancel: pending && r.requesterId === userId,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** What a decided request tells who asked for it; nobody to tell once their account is gone. */
interface RequesterNotice {
  userId: string | null;
  text: string;
}

/** An approved request: who asked (the ledger's rows name them as the buyer) and what they are told. */
interface ApprovedRequest {
  id: string;
  requesterName: string;
  notice: RequesterNotice;
}

/**
 * The event ids that make who asked hear a decision on their own screens (the web app's notices read them as
 * for a gift); the other members hear only that the inventory changed, or nothing.
 */
function requesterIds(notice: RequesterNotice | undefined): Record<string, string> {
  if (!notice?.userId) return {};
  return { recipient_user_id: notice.userId, recipient_notice: notice.text };
}

type Record_ = (entries: LedgerEntry[], announce?: boolean) => Promise<string[]>;

/** What one unit of a shelf line weighs and is worth: two stacks at one price with different ones are two lines. */
type LineUnit = { weight: number; valueCp: number };

/** A line's unit as a sale's row keeps it, so that a buyer too late for its stack gets only the same line. */
function lineUnitDetails(unit: LineUnit | undefined) {
  return unit ? { unit_weight: unit.weight, unit_value_cp: unit.valueCp } : {};
}
type Emit = (event: DomainEvent) => void;

const RESTOCK_JOB = 'shop_restock';
const restockKey = (shopId: string) => `shop_restock:${shopId}`;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Issue 11 §8: split sales (docs/decisions.md "Splitting the proceeds of a sale"). */
const SPLIT_GM_ONLY = 'Only the GM can split the proceeds of a sale.';
const SPLIT_NOT_IN_PARTY = 'Choose characters of this party.';

function pageMeta(page: number, perPage: number, total: number) {
  return {
    current_page: page,
    per_page: perPage,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}

function toShopTemplateJson(
  view: ShopTemplateView,
  userId: string,
  myRating: number | null,
  items?: ShopItem[],
): ShopTemplate {
  const t = view.template;
  return {
    id: t.id,
    name: t.name,
    owner: t.ownerName,
    location: t.location,
    description: t.description,
    shop_type: t.shopType,
    shop_type_name: shopTypeNames[t.shopType],
    average_rating: view.averageRating,
    ratings_count: view.ratingsCount,
    my_rating: myRating,
    buy_modifier: t.buyModifier,
    sell_modifier: t.sellModifier,
    default_restock_days: t.defaultRestockDays,
    tag_list: t.tags,
    visibility: t.visibility,
    name_override: t.nameOverride,
    owner_override: t.ownerOverride,
    location_override: t.locationOverride,
    description_override: t.descriptionOverride,
    display_name: t.nameOverride || t.name,
    display_owner: t.ownerOverride || t.ownerName,
    display_location: t.locationOverride || t.location,
    display_description: t.descriptionOverride || t.description,
    items_count: view.itemsCount,
    ...(items ? { shop_items: items } : {}),
    creator_id: t.creatorId,
    creator_name: view.creatorName,
    is_system: t.systemKey !== null,
    is_owner: t.creatorId !== null && t.creatorId === userId,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** Form fields → columns, for create and update alike. */
function templateColumns(form: Partial<ShopTemplateForm>) {
  return {
    ...(form.name !== undefined ? { name: form.name } : {}),
    ...(form.description !== undefined ? { description: form.description } : {}),
    ...(form.owner !== undefined ? { ownerName: form.owner } : {}),
    ...(form.location !== undefined ? { location: form.location } : {}),
    ...(form.shop_type !== undefined ? { shopType: form.shop_type } : {}),
    ...(form.buy_modifier !== undefined ? { buyModifier: form.buy_modifier } : {}),
    ...(form.sell_modifier !== undefined ? { sellModifier: form.sell_modifier } : {}),
    ...(form.default_restock_days !== undefined ? { defaultRestockDays: form.default_restock_days } : {}),
    ...(form.tag_list !== undefined ? { tags: form.tag_list } : {}),
    ...(form.visibility !== undefined ? { visibility: form.visibility } : {}),
    ...(form.name_override !== undefined ? { nameOverride: form.name_override } : {}),
    ...(form.owner_override !== undefined ? { ownerOverride: form.owner_override } : {}),
    ...(form.location_override !== undefined ? { locationOverride: form.location_override } : {}),
    ...(form.description_override !== undefined ? { descriptionOverride: form.description_override } : {}),
  };
}

/**
 * Shop templates, shops deployed into parties, trading and restocking (issue 10). Every change runs in
 * one transaction that locks the shop row first, then the containers in id order, and writes its
 * ledger rows; events are published after the commit.
 */
/**
 * A shop's container as the ledger names a place ("Backpack (Aria)"): "Stock (The Wayfarer's)", or "Hold
 * (…)" for goods held for a request. Its own name ("The Wayfarer's stock", made with the shop) would name
 * the shop twice, and a renamed shop by its old name.
 */
function shopPlace(container: { name: string }, shop: { name: string }): string {
  return `${container.name.endsWith(' hold') ? 'Hold' : 'Stock'} (${shop.name})`;
}

/**
 * What went that a pending request needed: its buyer's character (deleted, or taken out of the party
 * `leftPartyId`), or a container it was to go into or be paid from (deleted).
 */
export type BuyerGone =
  | { characterId: string }
  | { characterId: string; leftPartyId: string }
  | { containerId: string };

/**
 * Why a pending request went back on sale: its buyer's character deleted or gone from the party, the
 * container it was for, or the party container it was to be paid from (the buyer's one still there).
 */
function releaseReason(
  request: Pick<ShopRequestRow, 'buyerContainerId' | 'payerContainerId'>,
  gone: BuyerGone,
): string {
  if ('leftPartyId' in gone) return shopMessages.requestCharacterLeft;
  if ('characterId' in gone) return shopMessages.requestCharacterDeleted;
  return request.payerContainerId === gone.containerId && request.buyerContainerId !== gone.containerId
    ? shopMessages.requestPayerContainerDeleted
    : shopMessages.requestContainerDeleted;
}

export class ShopsService {
  readonly #notices = new NoticeWriter();

  /** Where a buyer whose request the GM decided finds it told, when away (app.ts). */
  setNoticeBoard(board: NoticeBoard): void {
    this.#notices.setBoard(board);
  }

  constructor(
    private readonly db: Database,
    private readonly deps: {
      entitlements: EntitlementService;
      events: EventBus;
      moves: InventoryMoves;
      jobs: JobQueue;
      now: () => Date;
    },
  ) {
    const { entitlements } = deps;
    entitlements.registerUsageCounter('shop_templates', (db, userId) => repo.countTemplatesOf(db, userId));
    entitlements.registerUsageCounter('shop_instances', (db, userId) => repo.countInstancesOf(db, userId));
    entitlements.registerUsageCounter('shop_deployments_monthly', (db, userId, window) =>
      repo.countDeployments(db, userId, window.month),
    );
    deps.jobs.register(RESTOCK_JOB, async (tx, job, afterCommit) => {
      const shopId = typeof job.payload.shop_instance_id === 'string' ? job.payload.shop_instance_id : '';
      // Shop row before anything else waits on it, without waiting (see lockInstanceNoWait).
      await repo.lockInstanceNoWait(tx, shopId);
      const events: DomainEvent[] = [];
      const written: LedgerEntry[] = [];
      const next = await this.#restock(
        tx,
        this.#recorder(tx, (e) => events.push(e), written),
        null,
        shopId,
        (e) => events.push(e),
      );
      afterCommit(() => deps.events.publish([...events, ...partyActivityEvents(written)]));
      return next ?? undefined;
    });
  }

  /** Upserts the system shops by key (idempotent, like the item catalogue), after the item catalogue. */
  static async seedCatalogue(tx: Executor): Promise<number> {
    const existing = await repo.systemTemplateIds(tx);
    const itemIds = await repo.itemTemplatesBySystemKey(
      tx,
      systemShops.flatMap((s) => s.items.map(systemShopItemKey)),
    );
    for (const shop of systemShops) {
      const values = {
        name: shop.name,
        ownerName: shop.ownerName,
        location: shop.location,
        shopType: shop.shopType,
        description: shop.description,
        buyModifier: shop.buyModifier,
        sellModifier: shop.sellModifier,
        defaultRestockDays: shop.defaultRestockDays,
        tags: shop.tags,
        visibility: 'public' as const,
        systemKey: shop.systemKey,
        creatorId: null,
      };
      let id = existing.get(shop.systemKey);
      if (id) await repo.updateTemplate(tx, id, values);
      else id = (await repo.insertTemplate(tx, values)).id;
      const items = shop.items.flatMap((item) => {
        const itemTemplateId = itemIds.get(systemShopItemKey(item));
        return itemTemplateId
          ? [
              {
                itemTemplateId,
                quantity: item.quantity,
                restockQuantity: null,
                priceCp: item.priceCp ?? null,
              },
            ]
          : [];
      });
      await repo.replaceSystemShopItems(tx, id, items);
    }
    return systemShops.length;
  }

  // ---- plumbing ---------------------------------------------------------------------------------------

  /** Records ledger rows, keeps them in `written` (for `party_activity`) and announces them unless told not to. */
  #recorder(tx: Executor, emit: Emit, written: LedgerEntry[]): Record_ {
    return async (entries, announce = true) => {
      const ids = await ledgerRepository.recordReturningIds(tx, entries);
      written.push(...entries);
      if (announce) {
        for (const entry of entries) {
          const event = eventFromLedger(entry);
          if (event) emit(event);
        }
      }
      return ids;
    };
  }

  #transaction<T>(work: (tx: Executor, record: Record_, emit: Emit) => Promise<T>): Promise<T> {
    return this.#notices.around((track) =>
      this.deps.events.inTransaction(this.db, async (tx, emit) => {
        track(tx);
        const written: LedgerEntry[] = [];
        const result = await work(tx, this.#recorder(tx, emit, written), emit);
        for (const event of partyActivityEvents(written)) emit(event);
        return result;
      }),
    );
  }

  /** A decided request, in the buyer's notices (never the buyer's own cancelling: they did it). */
  async #decisionNotice(
    tx: Executor,
    actor: LedgerActor,
    shop: { id: string; name: string; partyId: string },
    party: { name: string },
    requesterId: string | null,
    decision: 'purchase_approved' | 'purchase_declined',
    message: string,
  ) {
    if (!requesterId) return;
    await this.#notices.write(tx, [
      {
        userId: requesterId,
        actorId: actor.id,
        kind: decision,
        partyId: shop.partyId,
        partyName: party.name,
        message,
        link: noticeLinks.shop(shop.id, shop.name),
      },
    ]);
  }

  #shopEvent(
    shop: { id: string; partyId: string },
    action:
      | 'shop_deployed'
      | 'shop_updated'
      | 'shop_closed'
      | 'item_traded'
      | 'shop_request_created'
      | 'shop_request_approved'
      | 'shop_request_declined'
      | 'shop_request_cancelled',
    actor: LedgerActor | null,
    summary: string,
    ids: Record<string, string | null> = {},
  ): DomainEvent {
    return {
      channel: 'PartyInventoryChannel',
      partyId: shop.partyId,
      action,
      actor: actor ? { id: actor.id, name: actor.username } : null,
      summary,
      ids: { shop_instance_id: shop.id, ...ids },
    };
  }

  async #partyAccess(db: Executor, userId: string, partyId: string, lock?: 'share') {
    const found = await partiesRepository.findPartyWithAccess(db, partyId, userId, lock ? { lock } : {});
    const party = found?.party;
    const membership = found?.role ? { role: found.role } : undefined;
    const hasCharacter = found?.hasCharacter ?? false;
    return { party, access: policy.shopAccess(membership, hasCharacter, party?.itemConjuring) };
  }

  #shopContext(
    shop: ShopInstanceRow,
    container: ContainerContext['container'],
    party: { name: string; gameMasterId: string; isArchived: boolean },
  ): ContainerContext {
    return {
      container,
      character: null,
      // A shop's shelves have no capacity limits (its container has none), whatever the party's style.
      party: {
        id: shop.partyId,
        name: party.name,
        encumbranceStyle: 'none',
        gameMasterId: party.gameMasterId,
        isArchived: party.isArchived,
      },
      ownerName: shop.name,
      ownerId: shop.id,
    };
  }

  // ---- templates --------------------------------------------------------------------------------------

  async #readableTemplate(db: Executor, userId: string, id: string): Promise<ShopTemplateView> {
    const view = await repo.templateView(db, id);
    if (!view || !policy.canReadTemplate(view.template, userId))
      throw AppError.notFound(shopMessages.templateNotFound);
    return view;
  }

  async #shopItemsJson(
    db: Executor,
    userId: string,
    templateIds: string[],
    modifiers: Map<string, { buy: number; sell: number }>,
  ) {
    const rows = await repo.shopItems(db, templateIds, userId);
    const byTemplate = new Map<string, ShopItem[]>();
    for (const row of rows) {
      const mod = modifiers.get(row.item.shopTemplateId) ?? { buy: 1, sell: 0.5 };
      const valueCp = row.template.baseValue * copperPer[row.template.currency as Currency];
      const line = {
        id: row.item.id,
        shop_template_id: row.item.shopTemplateId,
        item_template_id: row.item.itemTemplateId,
        quantity: row.item.quantity,
        price_cp: row.item.priceCp,
        restock_quantity: row.item.restockQuantity,
      };
      const unpriced = row.template.metadata.priced === false;
      const item: ShopItem = isHiddenFrom(row.template, userId)
        ? // Private to someone else: the line is there, nothing of the item; its prices would tell its worth.
          { ...line, item_template: null, buy_price_cp: null, sell_price_cp: null, available: false }
        : {
            ...line,
            item_template: toTemplateJson({ template: row.template, creatorName: row.creatorName }, userId),
            buy_price_cp: askingPriceCp({
              valueCp,
              buyModifier: mod.buy,
              discountRate: 0,
              unpriced,
              ownPriceCp: row.item.priceCp,
            }),
            // Capped, as the asking price beside it, by the template's buy modifier without a discount.
            sell_price_cp: sellOfferCp({
              valueCp,
              buyModifier: mod.buy,
              sellModifier: mod.sell,
              discountRate: 0,
              unpriced,
              ownPriceCp: row.item.priceCp,
            }),
            available: canReadItemTemplate(row.template, userId),
          };
      byTemplate.set(row.item.shopTemplateId, [...(byTemplate.get(row.item.shopTemplateId) ?? []), item]);
    }
    return byTemplate;
  }

  async #templateJson(db: Executor, userId: string, view: ShopTemplateView, withItems: boolean) {
    const ratings = await repo.myRatings(db, userId, [view.template.id]);
    const items = withItems
      ? ((
          await this.#shopItemsJson(
            db,
            userId,
            [view.template.id],
            new Map([
              [view.template.id, { buy: view.template.buyModifier, sell: view.template.sellModifier }],
            ]),
          )
        ).get(view.template.id) ?? [])
      : undefined;
    return toShopTemplateJson(view, userId, ratings.get(view.template.id) ?? null, items);
  }

  async listTemplates(userId: string, query: ShopTemplateListQuery, publicOnly = false) {
    if (query.party_id) {
      const { access } = await this.#partyAccess(this.db, userId, query.party_id);
      if (!access.canRead) throw AppError.notFound('Party not found.');
    }
    const { rows, total } = await repo.listTemplates(this.db, {
      userId,
      page: query.page,
      perPage: query.per_page,
      sort: query.sort,
      direction: query.direction,
      ...(publicOnly
        ? { visibility: 'public' as const }
        : query.visibility
          ? { visibility: query.visibility }
          : {}),
      ...(query.mine ? { mine: true } : {}),
      ...(query.party_id ? { partyId: query.party_id } : {}),
      ...(query.search && query.search !== '*' ? { search: query.search } : {}),
      ...(query.shop_type ? { shopType: query.shop_type } : {}),
      ...(query.location ? { location: query.location } : {}),
      ...(query.min_rating !== undefined ? { minRating: query.min_rating } : {}),
      ...(query.tags?.length ? { tags: query.tags } : {}),
    });
    const ids = rows.map((r) => r.template.id);
    const ratings = await repo.myRatings(this.db, userId, ids);
    const items = query.include?.includes('shop_items')
      ? await this.#shopItemsJson(
          this.db,
          userId,
          ids,
          new Map(
            rows.map((r) => [r.template.id, { buy: r.template.buyModifier, sell: r.template.sellModifier }]),
          ),
        )
      : undefined;
    return {
      data: rows.map((r) =>
        toShopTemplateJson(
          r,
          userId,
          ratings.get(r.template.id) ?? null,
          items ? (items.get(r.template.id) ?? []) : undefined,
        ),
      ),
      meta: pageMeta(query.page, query.per_page, total),
    };
  }

  async getTemplate(userId: string, id: string): Promise<ShopTemplate> {
    return this.#templateJson(this.db, userId, await this.#readableTemplate(this.db, userId, id), true);
  }

  async createTemplate(actor: LedgerActor, form: ShopTemplateForm): Promise<ShopTemplate> {
    const id = await this.db.transaction(async (tx) => {
      await this.deps.entitlements.requireLimit(tx, actor.id, 'shop_templates');
      return (
        await repo.insertTemplate(tx, { ...templateColumns(form), name: form.name, creatorId: actor.id })
      ).id;
    });
    return this.getTemplate(actor.id, id);
  }

  async #ownedTemplate(tx: Executor, userId: string, id: string) {
    const template = await repo.lockTemplate(tx, id);
    if (!template || !policy.canReadTemplate(template, userId))
      throw AppError.notFound(shopMessages.templateNotFound);
    policy.assertTemplateOwner(template, userId);
    return template;
  }

  async updateTemplate(actor: LedgerActor, id: string, changes: ShopTemplateUpdate): Promise<ShopTemplate> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      await repo.updateTemplate(tx, id, templateColumns(changes));
    });
    return this.getTemplate(actor.id, id);
  }

  /** Deployed shops keep running: they copied what they need when they were deployed. */
  async deleteTemplate(actor: LedgerActor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      await repo.deleteTemplate(tx, id);
    });
  }

  async cloneTemplate(actor: LedgerActor, id: string): Promise<ShopTemplate> {
    const newId = await this.db.transaction(async (tx) => {
      const source = await this.#readableTemplate(tx, actor.id, id);
      await this.deps.entitlements.requireLimit(tx, actor.id, 'shop_templates');
      const t = source.template;
      const name = await repo.copyName(tx, actor.id, t.name, 99);
      const copy = await repo.insertTemplate(tx, {
        name,
        description: t.description,
        ownerName: t.ownerName,
        location: t.location,
        shopType: t.shopType,
        buyModifier: t.buyModifier,
        sellModifier: t.sellModifier,
        defaultRestockDays: t.defaultRestockDays,
        tags: t.tags,
        visibility: 'private',
        nameOverride: t.nameOverride,
        ownerOverride: t.ownerOverride,
        locationOverride: t.locationOverride,
        descriptionOverride: t.descriptionOverride,
        creatorId: actor.id,
      });
      await repo.copyShopItems(tx, t.id, copy.id, actor.id);
      return copy.id;
    });
    return this.getTemplate(actor.id, newId);
  }

  async templateItems(userId: string, id: string): Promise<ShopItem[]> {
    return (await this.getTemplate(userId, id)).shop_items ?? [];
  }

  async addItem(actor: LedgerActor, id: string, form: ShopItemForm): Promise<ShopItem> {
    const itemId = await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      const item = await inventoryRepository.template(tx, form.item_template_id);
      const readable =
        item && !item.deletedAt && (item.visibility !== 'private' || item.creatorId === actor.id);
      if (!item || !readable) {
        throw AppError.validation([{ field: 'item_template_id', message: 'That item does not exist.' }]);
      }
      if (item.tags.includes('currency')) {
        throw AppError.validation([{ field: 'item_template_id', message: shopMessages.currencyNotSold }]);
      }
      const row = await repo.upsertShopItem(tx, {
        shopTemplateId: id,
        itemTemplateId: form.item_template_id,
        quantity: form.quantity,
        priceCp: form.price_cp,
        restockQuantity: form.restock_quantity,
      });
      await repo.updateTemplate(tx, id, {});
      return row.id;
    });
    return this.#oneShopItem(actor.id, id, itemId);
  }

  async updateItem(
    actor: LedgerActor,
    id: string,
    itemId: string,
    changes: {
      quantity?: number | undefined;
      price_cp?: number | null | undefined;
      restock_quantity?: number | null | undefined;
    },
  ): Promise<ShopItem> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      if (!(await repo.shopItem(tx, id, itemId))) throw AppError.notFound(shopMessages.shopItemNotFound);
      await repo.updateShopItem(tx, itemId, {
        ...(changes.quantity !== undefined ? { quantity: changes.quantity } : {}),
        ...(changes.price_cp !== undefined ? { priceCp: changes.price_cp } : {}),
        ...(changes.restock_quantity !== undefined ? { restockQuantity: changes.restock_quantity } : {}),
      });
      await repo.updateTemplate(tx, id, {});
    });
    return this.#oneShopItem(actor.id, id, itemId);
  }

  async removeItem(actor: LedgerActor, id: string, itemId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      if (!(await repo.shopItem(tx, id, itemId))) throw AppError.notFound(shopMessages.shopItemNotFound);
      await repo.deleteShopItem(tx, itemId);
      await repo.updateTemplate(tx, id, {});
    });
  }

  async #oneShopItem(userId: string, templateId: string, itemId: string): Promise<ShopItem> {
    const items = await this.templateItems(userId, templateId);
    const item = items.find((i) => i.id === itemId);
    if (!item) throw AppError.notFound(shopMessages.shopItemNotFound);
    return item;
  }

  async restockStatus(userId: string, id: string) {
    const template = await this.getTemplate(userId, id);
    const instances = await repo.instancesOfTemplate(this.db, id, userId);
    return {
      shop_template_id: id,
      default_restock_days: template.default_restock_days,
      label: restockBadge(template.default_restock_days).label,
      items: (template.shop_items ?? []).map((i) => ({
        shop_item_id: i.id,
        item_template_id: i.item_template_id,
        name: i.item_template?.name ?? null,
        quantity: i.quantity,
        restock_quantity: i.restock_quantity ?? i.quantity,
      })),
      instances: instances.map((s) => ({
        id: s.id,
        name: s.name,
        party_id: s.partyId,
        restock_days: s.restockDays,
        next_restock_at: s.nextRestockAt?.toISOString() ?? null,
      })),
    };
  }

  /** One rating per user and template, changed by rating again (issue 10 item 1). */
  async rate(actor: LedgerActor, id: string, rating: number): Promise<ShopTemplate> {
    await this.db.transaction(async (tx) => {
      // The owner may delete the template meanwhile: the rating must not point at a deleted row.
      await repo.holdTemplate(tx, id);
      const view = await this.#readableTemplate(tx, actor.id, id);
      if (view.template.visibility !== 'public')
        throw new AppError('FORBIDDEN', shopMessages.ratingNotPublic);
      if (view.template.creatorId === actor.id) throw new AppError('FORBIDDEN', shopMessages.ratingOwn);
      await repo.upsertRating(tx, id, actor.id, rating);
    });
    return this.getTemplate(actor.id, id);
  }

  // ---- instances --------------------------------------------------------------------------------------

  async #instanceJson(db: Executor, userId: string, shopId: string): Promise<ShopInstance> {
    const row = await repo.instance(db, shopId);
    if (!row) throw AppError.notFound(shopMessages.instanceNotFound);
    const { access } = await this.#partyAccess(db, userId, row.shop.partyId);
    if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    const container = await repo.containerOf(db, shopId);
    const stock = container ? await repo.stock(db, [container.id]) : [];
    const s = row.shop;
    const summary = this.#summaryJson(row, access, {
      container: container ?? null,
      // Kinds of goods, as a template counts its lines: five longswords are five stacks but one item on sale.
      itemsCount: new Set(stock.map((r) => r.template.id)).size,
      pendingRequests: await repo.pendingRequestCount(db, s.id, access.canManage ? null : userId),
    });
    return {
      ...summary,
      container: {
        ...summary.container,
        item_instances: stock.map((r) => this.#stockItem(s, r.instance, r.template)),
      },
      own_prices_cp: access.canManage
        ? s.prices
        : await this.#pricesFor(db, userId, s, new Set(stock.map((r) => r.template.id))),
    };
  }

  /** A shop without its stock: what a list row carries (`shopInstanceSummarySchema`) and the detail too. */
  #summaryJson(
    row: { shop: ShopInstanceRow; partyName: string; templateName: string | null },
    access: policy.ShopAccess,
    facts: {
      container: { id: string; name: string } | null;
      itemsCount: number;
      pendingRequests: number;
    },
  ): ShopInstanceSummary {
    const s = row.shop;
    return {
      id: s.id,
      shop_template_id: s.shopTemplateId,
      party_id: s.partyId,
      name: s.name,
      description: s.description,
      owner: s.ownerName,
      location: s.location,
      shop_type: s.shopType,
      shop_type_name: shopTypeNames[s.shopType],
      is_active: s.isActive,
      discount_rate: s.discountRate,
      buy_modifier: s.buyModifier,
      sell_modifier: s.sellModifier,
      currency: s.currency,
      restock_days: s.restockDays,
      next_restock_at: s.nextRestockAt?.toISOString() ?? null,
      tag_list: s.tags,
      shop_template:
        s.shopTemplateId && row.templateName ? { id: s.shopTemplateId, name: row.templateName } : null,
      party: { id: s.partyId, name: row.partyName },
      container: { id: facts.container?.id ?? '', name: facts.container?.name ?? '' },
      items_count: facts.itemsCount,
      can_manage: access.canManage,
      can_trade: access.canTrade,
      party_fund_allowed: s.partyFundAllowed,
      approval_threshold_cp: s.approvalThresholdCp,
      pending_requests_count: facts.pendingRequests,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
    };
  }

  /**
   * The own prices a member who cannot manage the shop is told (docs/decisions.md: so their sell list can
   * say whether it would buy an unpriced item): those of lines on the shelf and of items their characters
   * here hold, never those of a private item the GM has taken back off the shelf.
   */
  async #pricesFor(db: Executor, userId: string, shop: ShopInstanceRow, onShelf: Set<string>) {
    const priced = Object.entries(shop.prices);
    if (priced.length === 0) return {};
    const held = await repo.templateIdsHeldInParty(db, userId, shop.partyId);
    return Object.fromEntries(
      priced.filter(([templateId]) => onShelf.has(templateId) || held.has(templateId)),
    );
  }

  #stockItem(
    shop: ShopInstanceRow,
    instance: Parameters<typeof toInstanceJson>[0],
    template: Parameters<typeof toInstanceJson>[1],
  ): ShopStockItem {
    const facts = effectiveFacts(templateFacts(template), instance.instanceData);
    const own = shop.prices[template.id];
    const unpriced = isUnpricedItem({ item_template: template, instance_data: instance.instanceData });
    return {
      ...toInstanceJson(instance, template),
      buy_price_cp: askingPriceCp({
        valueCp: facts.valueCp,
        buyModifier: shop.buyModifier,
        discountRate: shop.discountRate,
        unpriced,
        ownPriceCp: own,
      }),
      sell_price_cp: sellOfferCp({
        valueCp: facts.valueCp,
        buyModifier: shop.buyModifier,
        sellModifier: shop.sellModifier,
        discountRate: shop.discountRate,
        unpriced,
        ownPriceCp: own,
      }),
      has_own_price: own !== undefined,
    };
  }

  async getInstance(userId: string, id: string): Promise<ShopInstance> {
    return this.#instanceJson(this.db, userId, id);
  }

  /**
   * The shop's name if the user may see it now (the rule of getInstance, without reading its stock);
   * undefined otherwise. A share link lists what it points at through this.
   */
  async seenBy(userId: string, id: string): Promise<{ name: string } | undefined> {
    const row = await repo.instance(this.db, id);
    if (!row) return undefined;
    const { access } = await this.#partyAccess(this.db, userId, row.shop.partyId);
    return access.canRead ? { name: row.shop.name } : undefined;
  }

  /**
   * spec/02 §7 GET shop_instances: the shops of the user's parties, without their stock (a card shows its
   * item count and stock label; the shop itself sends the stock). A fixed number of statements, whatever
   * the page's size: a year of play put 100 shops of 500 stacks in one party.
   */
  async listInstances(userId: string, query: ShopInstanceListQuery) {
    const { rows, total, summary } = await repo.listInstances(this.db, {
      userId,
      page: query.page,
      perPage: query.per_page,
      ...(query.party_id ? { partyId: query.party_id } : {}),
      ...(query.search ? { search: query.search } : {}),
      ...(query.shop_type ? { shopType: query.shop_type } : {}),
      ...(query.location ? { location: query.location } : {}),
      ...(query.is_active !== undefined ? { isActive: query.is_active } : {}),
    });
    const containerIds = rows.flatMap((r) => (r.container ? [r.container.id] : []));
    const [kinds, pending] = await Promise.all([
      repo.kindsCountByContainer(this.db, containerIds),
      repo.pendingRequestCounts(
        this.db,
        rows.map((r) => r.shop.id),
        userId,
      ),
    ]);
    const instances = rows.map((r) => {
      // The list holds only shops of the user's parties, so the role is there (the access rule of the shop).
      const access = policy.shopAccess(
        r.role ? { role: r.role } : undefined,
        r.hasCharacter,
        r.party.itemConjuring,
      );
      const requests = pending.get(r.shop.id);
      return this.#summaryJson({ ...r, partyName: r.party.name }, access, {
        container: r.container,
        itemsCount: r.container ? (kinds.get(r.container.id) ?? 0) : 0,
        pendingRequests: (access.canManage ? requests?.all : requests?.own) ?? 0,
      });
    });
    return {
      data: { instances },
      meta: { ...pageMeta(query.page, query.per_page, total), total, summary },
    };
  }

  /** Deploys a template into a party: a new shop with its own container, stocked through the ledger. */
  async deploy(actor: LedgerActor, input: ShopInstanceCreate): Promise<ShopInstance> {
    return this.#transaction(async (tx, record, emit) => {
      // Held until the shop is in: a deletion of the party takes turns with it, and then finds the new shop
      // among what it destroys (else the shop's stock would stop the party's rows from going: a 500).
      const { party, access } = await this.#partyAccess(tx, actor.id, input.party_id, 'share');
      if (!party || !access.canRead) throw AppError.notFound('Party not found.');
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      // The owner may delete the template meanwhile: the new shop's reference to it must not meet a deleted row.
      await repo.holdTemplate(tx, input.shop_template_id);
      const view = await repo.templateView(tx, input.shop_template_id);
      if (!view || !policy.canReadTemplate(view.template, actor.id)) {
        throw AppError.validation([
          { field: 'shop_instance.shop_template_id', message: shopMessages.templateNotFound },
        ]);
      }
      const context = { partyId: party.id };
      await this.deps.entitlements.requireFeature(tx, actor.id, 'shops_deployment', context);
      await this.deps.entitlements.requireLimit(tx, actor.id, 'shop_instances', 1, context);
      await this.deps.entitlements.requireLimit(tx, actor.id, 'shop_deployments_monthly', 1, context);
      const t = view.template;
      // A line whose item was deleted (or made private) since it was listed is left out, as the page says.
      const items = (await repo.shopItems(tx, [t.id], actor.id)).filter((row) =>
        canReadItemTemplate(row.template, actor.id),
      );
      const restockDays = input.restock_days !== undefined ? input.restock_days : t.defaultRestockDays;
      const now = this.deps.now();
      const next = restockDays ? new Date(now.getTime() + restockDays * DAY_MS) : null;
      const shop = await repo.insertInstance(tx, {
        partyId: party.id,
        shopTemplateId: t.id,
        name: input.name ?? (t.nameOverride || t.name),
        description: input.description ?? (t.descriptionOverride || t.description),
        ownerName: t.ownerOverride || t.ownerName,
        location: t.locationOverride || t.location,
        shopType: t.shopType,
        tags: t.tags,
        isActive: input.is_active,
        discountRate: input.discount_rate,
        buyModifier: input.buy_modifier ?? t.buyModifier,
        sellModifier: input.sell_modifier ?? t.sellModifier,
        restockDays,
        nextRestockAt: next,
        restockPlan: items.map(
          (i): RestockLine => ({
            item_template_id: i.item.itemTemplateId,
            restock_quantity: i.item.restockQuantity ?? i.item.quantity,
          }),
        ),
        prices: Object.fromEntries(
          items.flatMap((i) => (i.item.priceCp !== null ? [[i.item.itemTemplateId, i.item.priceCp]] : [])),
        ),
        partyFundAllowed: input.party_fund_allowed ?? false,
        approvalThresholdCp: input.approval_threshold_cp ?? null,
        createdBy: actor.id,
      });
      // The stock is the shop's primary container; purchase requests hold goods in others (issue 10 §8).
      const container = await inventoryRepository.insertContainer(tx, {
        name: `${shop.name} stock`,
        shopInstanceId: shop.id,
        isPrimary: true,
      });
      const shopContext = this.#shopContext(shop, container, party);
      // The whole stock in a few statements (a 100-line template made 500 stacks and 100 ledger rows one
      // statement at a time): the templates in one read, the stacks and the ledger rows in multi-row inserts.
      const templates = await inventoryRepository.templates(
        tx,
        items.map(({ template }) => template.id),
      );
      const lines = items.flatMap(({ item, template }) => {
        const full = templates.get(template.id);
        return item.quantity > 0 && full ? [{ template: full, quantity: item.quantity }] : [];
      });
      const stacks = await this.deps.moves.stockNew(tx, shopContext, lines);
      // Every row as before, in the same order: the container's, then one per line stocked.
      await record(
        [
          {
            transactionType: 'container_creation',
            partyId: party.id,
            actorId: actor.id,
            actorName: actor.username,
            targetName: shop.name,
            targetId: shop.id,
            destinationContainerId: container.id,
            destinationName: container.name,
            details: { reason: 'shop_deployment', shop_instance_id: shop.id, shop_template_id: t.id },
            summary: `${actor.username} deployed ${shop.name}`,
          },
          ...lines.map(
            ({ template: full, quantity }, line): LedgerEntry => ({
              transactionType: 'create',
              partyId: party.id,
              actorId: actor.id,
              actorName: actor.username,
              targetName: shop.name,
              targetId: shop.id,
              itemTemplateId: full.id,
              itemInstanceId: stacks[line]?.[0] ?? null,
              itemName: full.name,
              quantity,
              destinationContainerId: container.id,
              destinationName: container.name,
              details: { reason: 'shop_deployment', shop_instance_id: shop.id },
              summary: `${shop.name} stocked ${formatEnUs(quantity)} × ${full.name}`,
            }),
          ),
        ],
        false,
      );
      if (next) await this.#scheduleRestock(tx, shop.id, next);
      emit(this.#shopEvent(shop, 'shop_deployed', actor, `${actor.username} deployed ${shop.name}`));
      return this.#instanceJson(tx, actor.id, shop.id);
    });
  }

  async #scheduleRestock(tx: Executor, shopId: string, at: Date) {
    await this.deps.jobs.schedule(tx, {
      kind: RESTOCK_JOB,
      key: restockKey(shopId),
      runAt: at,
      payload: { shop_instance_id: shopId },
    });
  }

  /** Locks the shop and answers who the user is to it (404 for outsiders). */
  async #lockShop(tx: Executor, userId: string, shopId: string) {
    const locked = await repo.lockInstanceForUser(tx, userId, shopId);
    if (!locked) throw AppError.notFound(shopMessages.instanceNotFound);
    const { shop, party, role, hasCharacter, container } = locked;
    const access = policy.shopAccess(role ? { role } : undefined, hasCharacter, party?.itemConjuring);
    if (!party || !access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    if (!container) throw new AppError('INTERNAL_SERVER_ERROR', `shop ${shop.id} has no container`);
    return { shop, party, access, container };
  }

  async updateInstance(actor: LedgerActor, id: string, changes: ShopInstanceUpdate): Promise<ShopInstance> {
    return this.#transaction(async (tx, _record, emit) => {
      const { shop, party, access } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const now = this.deps.now();
      const restockChanged = changes.restock_days !== undefined && changes.restock_days !== shop.restockDays;
      const next =
        restockChanged && changes.restock_days
          ? new Date(now.getTime() + changes.restock_days * DAY_MS)
          : null;
      await repo.updateInstance(tx, id, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.is_active !== undefined ? { isActive: changes.is_active } : {}),
        ...(changes.discount_rate !== undefined ? { discountRate: changes.discount_rate } : {}),
        ...(changes.buy_modifier !== undefined ? { buyModifier: changes.buy_modifier } : {}),
        ...(changes.sell_modifier !== undefined ? { sellModifier: changes.sell_modifier } : {}),
        ...(restockChanged ? { restockDays: changes.restock_days ?? null, nextRestockAt: next } : {}),
        ...(changes.party_fund_allowed !== undefined ? { partyFundAllowed: changes.party_fund_allowed } : {}),
        ...(changes.approval_threshold_cp !== undefined
          ? { approvalThresholdCp: changes.approval_threshold_cp }
          : {}),
      });
      if (restockChanged) {
        if (next) await this.#scheduleRestock(tx, id, next);
        else await this.deps.jobs.cancel(tx, restockKey(id));
      }
      const name = changes.name ?? shop.name;
      if (changes.is_active === false && shop.isActive) {
        emit(this.#shopEvent(shop, 'shop_closed', actor, `${actor.username} closed ${name}`));
      } else if (changes.is_active === true && !shop.isActive) {
        // Told to those looking at its shelf (the web's notice): Buy and Sell come back without a word else.
        emit(this.#shopEvent(shop, 'shop_updated', actor, `${actor.username} reopened ${name}`));
      } else {
        emit(this.#shopEvent(shop, 'shop_updated', actor, `${actor.username} updated ${name}`));
      }
      // Answered as committed, read before the locks go: the shop may be deleted right after.
      return this.#instanceJson(tx, actor.id, id);
    });
  }

  /** The stock goes with the shop, one `delete` ledger row per stack. */
  async deleteInstance(actor: LedgerActor, id: string): Promise<void> {
    await this.#transaction(async (tx, record, emit) => {
      const { shop, party, access } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      // The stock and the holds of pending purchase requests (those requests go with the shop).
      const all = await repo.shopContainers(tx, shop.id);
      await destroyContainerContents(
        tx,
        all.map((c) => c.id),
        actor,
        'delete',
        { partyId: shop.partyId, characterId: null, targetName: shop.name, targetId: shop.id },
      );
      await record(
        all.map((c) => ({
          transactionType: 'container_deletion',
          partyId: shop.partyId,
          actorId: actor.id,
          actorName: actor.username,
          targetName: shop.name,
          targetId: shop.id,
          sourceContainerId: c.id,
          sourceName: c.name,
          details: { reason: 'shop_deletion', shop_instance_id: shop.id },
          summary: `${actor.username} removed ${shop.name} and its stock`,
        })),
        false,
      );
      await this.deps.jobs.cancel(tx, restockKey(id));
      for (const c of all) await inventoryRepository.deleteContainer(tx, c.id);
      await repo.deleteInstance(tx, id);
      emit(
        this.#shopEvent(shop, 'shop_closed', actor, `${actor.username} removed ${shop.name}`, {
          deleted: 'true',
        }),
      );
    });
  }

  async containers(userId: string, id: string) {
    const shop = await this.getInstance(userId, id);
    return [
      {
        id: shop.container.id,
        name: shop.container.name,
        items_count: shop.items_count,
        owner: { type: 'shop_instance' as const, id: shop.id, name: shop.name },
      },
    ];
  }

  async stock(userId: string, id: string): Promise<ShopStockItem[]> {
    return (await this.getInstance(userId, id)).container.item_instances;
  }

  async restockSchedule(userId: string, id: string) {
    const shop = await this.getInstance(userId, id);
    const row = (await repo.instance(this.db, id))?.shop;
    return {
      shop_instance_id: id,
      restock_days: shop.restock_days,
      label: restockBadge(shop.restock_days).label,
      next_restock_at: shop.next_restock_at,
      last_restock_at: row?.lastRestockAt?.toISOString() ?? null,
    };
  }

  async restockNow(actor: LedgerActor, id: string) {
    return this.#transaction(async (tx, record, emit) => {
      const { access, party } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const added: { item_template_id: string; name: string; quantity: number }[] = [];
      const next = await this.#restock(tx, record, actor, id, emit, added);
      if (next) await this.#scheduleRestock(tx, id, next);
      return { shop_instance_id: id, added, next_restock_at: next?.toISOString() ?? null };
    });
  }

  /**
   * Tops every line of the shop's restock plan up to its level (never removes anything), writes one
   * `create` row per line topped up, and returns when the next restock is due.
   */
  async #restock(
    tx: Executor,
    record: Record_,
    actor: LedgerActor | null,
    shopId: string,
    emit: Emit,
    added: { item_template_id: string; name: string; quantity: number }[] = [],
  ): Promise<Date | null> {
    const shop = await repo.lockInstance(tx, shopId);
    if (!shop) return null;
    const party = await partiesRepository.findParty(tx, shop.partyId);
    const container = await repo.containerOf(tx, shop.id);
    if (!party || !container) return null;
    const now = this.deps.now();
    const next = shop.restockDays ? new Date(now.getTime() + shop.restockDays * DAY_MS) : null;
    // An archived party is read-only for everyone, the scheduler too: its shops keep their schedule and
    // start restocking again once the party is unarchived.
    if (party.isArchived) return next;
    await inventoryRepository.lockContainers(tx, [container.id]);
    const context = this.#shopContext(shop, container, party);
    const who = actor?.username ?? 'Scheduled restock';
    for (const line of shop.restockPlan) {
      const template = await inventoryRepository.template(tx, line.item_template_id);
      // A deleted item is no longer made: what is left of it stays on sale.
      if (!template || template.deletedAt) continue;
      const stacks = await inventoryRepository.plainStacks(tx, container.id, template.id);
      const have = stacks.reduce((sum, s) => sum + s.quantity, 0);
      const missing = line.restock_quantity - have;
      if (missing <= 0) continue;
      const created = await this.deps.moves.place(tx, context, template, missing, {}, '', template.weight);
      await record(
        [
          {
            transactionType: 'create',
            partyId: shop.partyId,
            actorId: actor?.id ?? null,
            actorName: actor?.username ?? null,
            targetName: shop.name,
            targetId: shop.id,
            itemTemplateId: template.id,
            itemInstanceId: created[0] ?? null,
            itemName: template.name,
            quantity: missing,
            destinationContainerId: container.id,
            destinationName: container.name,
            details: { reason: 'restock', shop_instance_id: shop.id, source: actor ? 'web' : 'system' },
            summary: `${who} restocked ${formatEnUs(missing)} × ${template.name} in ${shop.name}`,
          },
        ],
        false,
      );
      added.push({ item_template_id: template.id, name: template.name, quantity: missing });
    }
    await repo.updateInstance(tx, shop.id, { lastRestockAt: now, nextRestockAt: next });
    emit(this.#shopEvent(shop, 'shop_updated', actor, `${shop.name} was restocked`));
    return next;
  }

  // ---- trading ----------------------------------------------------------------------------------------

  /** The trader's character (theirs, in this party) and one of its containers, locked with the shop's. */
  async #traderSide(
    tx: Executor,
    userId: string,
    shop: ShopInstanceRow,
    shopContainerId: string,
    characterId: string,
    containerId: string,
    field: 'buyer' | 'seller',
    alsoLock: string[] = [],
    /** The GM's split sale (issue 11 §8) may sell from a stash of the shop's party. */
    allowPartyStash = false,
  ) {
    // Every container of the trade at once, in id order, so trades never deadlock with other moves; the
    // trader's container located in the same statement.
    const located = await inventoryRepository.lockContextsForUser(tx, userId, [
      shopContainerId,
      containerId,
      ...alsoLock,
    ]);
    const context = located.get(containerId)?.context;
    if (allowPartyStash && context && context.container.partyId === shop.partyId) return { context, located };
    const owner = context?.character;
    // Only the GM's split sale from the stash names no seller (the schema's rule); anywhere else it needs one.
    if (!characterId) {
      throw AppError.validation([{ field: `${field}_character_id`, message: 'Choose a character' }]);
    }
    if (!owner || owner.userId !== userId || owner.partyId !== shop.partyId || owner.id !== characterId) {
      // One answer whatever was wrong with the container, so nobody learns about other people's characters
      // or containers; the container is blamed whenever the named character is the trader's own here.
      const named = await charactersRepository.find(tx, characterId);
      const wrongContainer = named?.userId === userId && named.partyId === shop.partyId;
      throw AppError.validation([
        wrongContainer
          ? { field: `${field}_container_id`, message: shopMessages.containerNotCharacters }
          : { field: `${field}_character_id`, message: shopMessages.characterNotInParty },
      ]);
    }
    // `located` holds the other containers locked with it (`alsoLock`), already located.
    return { context, located };
  }

  /**
   * What one unit costs here (`buy`: null, it refuses to sell it) and what the shop offers for one (`sell`:
   * null, it refuses the sale), never more than `buy` (`sellOfferCp`): buying and selling back makes no coins.
   */
  async #quote(
    shop: ShopInstanceRow,
    template: Parameters<typeof templateFacts>[0],
    instanceData: Record<string, unknown>,
  ) {
    const facts = effectiveFacts(templateFacts(template), instanceData);
    const ownPriceCp = shop.prices[template.id];
    const unpriced = isUnpricedItem({ item_template: template, instance_data: instanceData });
    return {
      facts,
      buy: askingPriceCp({
        valueCp: facts.valueCp,
        buyModifier: shop.buyModifier,
        discountRate: shop.discountRate,
        unpriced,
        ownPriceCp,
      }),
      sell: sellOfferCp({
        valueCp: facts.valueCp,
        buyModifier: shop.buyModifier,
        sellModifier: shop.sellModifier,
        discountRate: shop.discountRate,
        unpriced,
        ownPriceCp,
      }),
    };
  }

  /**
   * What one unit of a shelf stack costs, or the refusal of an unpriced item the shop has no price of its
   * own for: a purchase, a purchase request and the preview (calculate_buy_price) all ask here, so that
   * they agree.
   */
  async #askingPrice(
    shop: ShopInstanceRow,
    template: Parameters<typeof templateFacts>[0],
    instanceData: Record<string, unknown>,
  ) {
    const { facts, buy } = await this.#quote(shop, template, instanceData);
    if (buy === null) {
      throw AppError.validation(
        [{ field: 'item_instance_id', message: shopMessages.unpricedNotForSale }],
        shopMessages.unpricedNotForSale,
      );
    }
    return { facts, buy };
  }

  /**
   * What the shop pays for `quantity` of a stack, rounded down once for the line (`total`), and for one
   * piece alone (`unit`, the price each the lists show); or the refusal of coins, of an unpriced item it
   * has no price of its own for, and of a sale worth 0 cp: the sale and its preview (calculate_sell_price)
   * both ask here, so that they agree.
   */
  async #sellOffer(
    shop: ShopInstanceRow,
    template: Parameters<typeof templateFacts>[0] & { tags: string[] },
    instanceData: Record<string, unknown>,
    quantity: number,
  ) {
    if (template.tags.includes('currency')) {
      throw AppError.validation(
        [{ field: 'item_instance_id', message: shopMessages.currencyNotSold }],
        shopMessages.currencyNotSold,
      );
    }
    const { facts, buy, sell } = await this.#quote(shop, template, instanceData);
    if (sell === null) {
      throw AppError.validation(
        [{ field: 'item_instance_id', message: shopMessages.unpricedNoOffer }],
        shopMessages.unpricedNoOffer,
      );
    }
    // Capped at what the shop asks for as many (`sellLineCp`), as the price each is.
    const total = sellLineCp({
      valueCp: facts.valueCp,
      buyModifier: shop.buyModifier,
      sellModifier: shop.sellModifier,
      discountRate: shop.discountRate,
      unpriced: isUnpricedItem({ item_template: template, instance_data: instanceData }),
      ownPriceCp: shop.prices[template.id],
      quantity,
    });
    if (total === null || total <= 0) {
      // A shop that gives the item away (100% off, an own price of 0) buys none back: selling more at once
      // would not help, as it would for a candle worth less than 1 cp.
      const message = buy === 0 ? shopSaleMessages.givenAwayNoOffer : shopSaleMessages.worthlessNoOffer;
      throw AppError.validation([{ field: 'item_instance_id', message }], message);
    }
    return { facts, unit: sell, total };
  }

  /**
   * A shelf line's stacks other than `exceptId`, oldest first: the line's item (its name, overrides
   * included) at the line's price, and of its weight and value when the line knows them (the shelf and a
   * shared shop give a heavier or dearer stack a row of its own). Locked, as `plainStacks` locks them.
   */
  async #restOfLine(
    tx: Executor,
    shop: ShopInstanceRow,
    containerId: string,
    /** `buy` null: an unpriced line, whose stacks are all unpriced alike (taken back whole, never sold). */
    line: {
      template: TemplateRow;
      name: string;
      buy: number | null;
      unit?: LineUnit;
    },
    exceptId: string | undefined,
  ) {
    const rest: { id: string; quantity: number }[] = [];
    for (const other of await inventoryRepository.plainStacks(tx, containerId, line.template.id)) {
      if (other.id === exceptId) continue;
      const { facts, buy } = await this.#quote(shop, line.template, other.instanceData);
      const sameUnit =
        !line.unit || (facts.weight === line.unit.weight && facts.valueCp === line.unit.valueCp);
      if (facts.name === line.name && buy === line.buy && sameUnit) rest.push(other);
    }
    return rest;
  }

  /**
   * The stacks a purchase takes: `quantity` of the shelf line the named stack sits on (one item at one
   * price, as the shop page groups it: daggers, which do not stack, sit there as one stack each), the named
   * stack first, then the line's others oldest first. A buyer too late for the named stack (bought out since
   * they saw the shop) gets the rest of its line at the price that stack sold for. The caller holds the
   * shop container's lock, so the line cannot change underneath; its stacks are locked here.
   */
  async #shelfStock(
    tx: Executor,
    shop: ShopInstanceRow,
    containerId: string,
    itemInstanceId: string,
    quantity: number,
  ) {
    const locked = await inventoryRepository.lockInstanceWithTemplate(tx, itemInstanceId);
    const named = locked && locked.instance.containerId === containerId ? locked : undefined;
    let line: { template: TemplateRow; name: string; buy: number; unit?: LineUnit };
    if (named) {
      const { facts, buy } = await this.#askingPrice(shop, named.template, named.instance.instanceData);
      line = {
        template: named.template,
        name: facts.name,
        buy,
        unit: { weight: facts.weight, valueCp: facts.valueCp },
      };
    } else {
      // Gone since this buyer saw the shop: sold out, not "not for sale", unless its line has more.
      const sale = await ledgerRepository.soldFrom(tx, containerId, itemInstanceId);
      const template = sale?.itemTemplateId
        ? await inventoryRepository.template(tx, sale.itemTemplateId)
        : undefined;
      const sold = (sale?.details ?? null) as {
        unit_price_cp?: unknown;
        unit_weight?: unknown;
        unit_value_cp?: unknown;
      } | null;
      const unit = sold?.unit_price_cp;
      if (!sale || !template || typeof unit !== 'number') throw AppError.notFound(shopMessages.notInShop);
      line = { template, name: sale.itemName ?? template.name, buy: unit };
      // The sale's row keeps the line's weight and value (older rows do not): the rest of that line only.
      if (typeof sold?.unit_weight === 'number' && typeof sold.unit_value_cp === 'number')
        line.unit = { weight: sold.unit_weight, valueCp: sold.unit_value_cp };
    }
    // Only a purchase larger than the named stack reads the rest of the line (most buy from one stack).
    const rest =
      !named || quantity > named.instance.quantity
        ? await this.#restOfLine(tx, shop, containerId, line, named?.instance.id)
        : [];
    const { parts: stacks, inLine } = takeFromLine(named ? [named.instance, ...rest] : rest, quantity);
    if (inLine < quantity) {
      const message = inLine === 0 ? shopMessages.outOfStock : `Only ${inLine} left in stock.`;
      throw new AppError('ITEM_OUT_OF_STOCK', message, {
        details: [{ field: inLine === 0 ? 'item_instance_id' : 'quantity', message }],
      });
    }
    return { ...line, stacks };
  }

  /**
   * The party stash that pays for a purchase (issue 10 §8): only where the GM allows it, and only a stash
   * of this shop's party (the party's first one when none is named).
   */
  async #partyPayerId(tx: Executor, shop: ShopInstanceRow, requested: string | undefined): Promise<string> {
    if (!shop.partyFundAllowed) throw new AppError('FORBIDDEN', shopMessages.partyFundNotAllowed);
    // A stash named by the buyer is checked once locked with the trade's containers (#payerContext).
    if (requested !== undefined) return requested;
    const [first] = await inventoryRepository.listForOwner(tx, { partyId: shop.partyId });
    if (!first) {
      throw AppError.validation([{ field: 'payer_container_id', message: shopMessages.partyFundNoStash }]);
    }
    return first.id;
  }

  /** The party stash that pays, as the trader's lock located it: a container of the shop's party. */
  #payerContext(
    shop: ShopInstanceRow,
    located: Map<string, { context: ContainerContext }>,
    containerId: string,
  ): ContainerContext {
    const context = located.get(containerId)?.context;
    if (!context || context.container.partyId !== shop.partyId) {
      throw AppError.validation([
        { field: 'payer_container_id', message: shopMessages.partyFundWrongContainer },
      ]);
    }
    return context;
  }

  #insufficient(
    totalCp: number,
    missingCp: number,
    field: string,
    message = shopMessages.insufficientFunds(missingCp),
  ): AppError {
    return new AppError('INSUFFICIENT_FUNDS', message, {
      details: [{ field, message, limit: totalCp, used: totalCp - missingCp }],
    });
  }

  /**
   * Pays `total` from the payer's coins (change back to the payer in the largest coins), moves the goods
   * from `stacks` to the buyer and writes the `purchase` rows. The caller has locked the shop and every
   * container involved. Used by a purchase at once and by an approved request (goods from its hold).
   */
  async #completePurchase(
    tx: Executor,
    record: Record_,
    emit: Emit,
    args: {
      actor: LedgerActor;
      shop: ShopInstanceRow;
      source: ContainerContext['container'];
      stacks: { id: string; quantity: number }[];
      buyer: ContainerContext;
      payer: ContainerContext;
      paymentSource: PaymentSource;
      templateId: string;
      itemName: string;
      quantity: number;
      unit: number;
      /** The shelf line's weight and value per unit, kept on the row for a buyer too late for its stack. */
      lineUnit?: LineUnit;
      scope: 'party' | null;
      /** The request this purchase completes: its rows name who asked, and who asked is told. */
      approved?: ApprovedRequest;
    },
  ) {
    const { actor, shop, buyer, payer, source } = args;
    const total = args.unit * args.quantity;
    const { purse, stacks, coins } = await this.deps.moves.purse(tx, payer.container.id);
    const plan = planPayment(purse, total);
    if (!plan.ok) {
      const fromParty = args.paymentSource === 'party';
      // The GM approving someone else's request is told whose purse is short (the buyer's own purchase
      // says "Not enough coins", which is plain to them): the stash by its name, a character's bag as theirs.
      const payerName = fromParty ? payer.container.name : ownedContainerName(payer);
      throw this.#insufficient(
        total,
        plan.missingCp,
        fromParty ? 'payer_container_id' : 'buyer_container_id',
        args.approved ? shopMessages.payerShort(payerName, plan.missingCp) : undefined,
      );
    }
    const fromParty = args.paymentSource === 'party';
    const base = {
      partyId: shop.partyId,
      characterId: buyer.character?.id ?? null,
      actorId: actor.id,
      actorName: actor.username,
      targetName: buyer.ownerName,
      targetId: buyer.ownerId,
    };
    const shared = {
      shop_instance_id: shop.id,
      payment_source: args.paymentSource,
      ...(fromParty ? { payer_container_id: payer.container.id } : {}),
      ...(args.approved ? { shop_request_id: args.approved.id } : {}),
    };
    const paidBy = fromParty ? ` from ${payer.container.name} (${payer.ownerName})` : '';
    // An approved request is the asker's purchase, which the GM let through: the GM is the row's actor.
    const buyerName = args.approved?.requesterName ?? actor.username;
    const approvedBy = args.approved ? ` (approved by ${actor.username})` : '';
    const summary = `${buyerName} bought ${formatEnUs(args.quantity)} × ${args.itemName} from ${shop.name} for ${formatCopper(total)}${paidBy}${approvedBy}`;
    const coinRows: LedgerEntry[] = [];
    // Coins leave play (a shop has unlimited funds, DESIGN §4); change comes back in the largest coins.
    for (const currency of currencies) {
      let left = plan.pay[currency];
      if (left === 0) continue;
      for (const s of stacks[currency]) {
        if (left === 0) break;
        const take = Math.min(s.quantity, left);
        if (take === s.quantity) await inventoryRepository.deleteInstance(tx, s.id);
        else await inventoryRepository.updateInstance(tx, s.id, { quantity: s.quantity - take });
        left -= take;
      }
      coinRows.push({
        ...base,
        transactionType: 'purchase',
        itemTemplateId: coins[currency].id,
        itemName: coins[currency].name,
        quantity: plan.pay[currency],
        amountCp: plan.pay[currency] * copperPer[currency],
        // The amount is in copper, the ledger's one unit for money; the coin is the item.
        currency: 'cp',
        sourceContainerId: payer.container.id,
        // Named as every other row names a container: whose it is too ("Backpack (Cyra Vale)").
        sourceName: `${payer.container.name} (${payer.ownerName})`,
        destinationName: shop.name,
        details: { role: 'payment', ...shared },
        // Each coin row says what it is, so the Activity list does not read as several purchases, and
        // whose coins they are: the party fund's are not the buyer's purse.
        summary: `${buyerName} paid ${formatEnUs(plan.pay[currency])} × ${coins[currency].name}${paidBy} to ${shop.name} for ${formatEnUs(args.quantity)} × ${args.itemName}${approvedBy}`,
      });
    }
    for (const currency of currencies) {
      const n = plan.change[currency];
      if (n === 0) continue;
      const coin = coins[currency];
      const ids = await this.deps.moves.place(tx, payer, coin, n, {}, '', coin.weight);
      coinRows.push({
        ...base,
        transactionType: 'purchase',
        itemTemplateId: coin.id,
        itemInstanceId: ids[0] ?? null,
        itemName: coin.name,
        quantity: n,
        amountCp: n * copperPer[currency],
        currency: 'cp',
        sourceName: shop.name,
        destinationContainerId: payer.container.id,
        destinationName: `${payer.container.name} (${payer.ownerName})`,
        details: { role: 'change', ...shared },
        summary: `${buyerName} got ${formatEnUs(n)} × ${coin.name} in change from ${shop.name}${fromParty ? ` into ${payer.container.name} (${payer.ownerName})` : ''}`,
      });
    }
    const targetIds: string[] = [];
    for (const s of args.stacks) {
      const moved = await this.deps.moves.moveStack(tx, s.id, buyer, s.quantity);
      targetIds.push(...moved.targetIds);
    }
    const itemRow: LedgerEntry = {
      ...base,
      transactionType: 'purchase',
      // Only the item's row counts as the inventory action (DESIGN §5); coin rows carry no scope.
      scope: args.scope,
      itemTemplateId: args.templateId,
      itemInstanceId: targetIds[0] ?? null,
      itemName: args.itemName,
      quantity: args.quantity,
      amountCp: total,
      currency: 'cp',
      sourceContainerId: source.id,
      sourceName: shopPlace(source, shop),
      destinationContainerId: buyer.container.id,
      destinationName: `${buyer.container.name} (${buyer.ownerName})`,
      // The stacks bought from: a buyer too late for the last of one is told it sold out (purchase).
      details: {
        ...shared,
        unit_price_cp: args.unit,
        ...lineUnitDetails(args.lineUnit),
        source_instance_ids: args.stacks.map((s) => s.id),
      },
      summary,
    };
    const transactionIds = await record([itemRow, ...coinRows], false);
    emit(
      this.#shopEvent(shop, 'item_traded', actor, summary, {
        item_instance_id: args.stacks[0]?.id ?? null,
        destination_container_id: buyer.container.id,
        character_id: buyer.character?.id ?? null,
        ...(fromParty ? { source_container_id: payer.container.id } : {}),
        ...(args.approved ? { shop_request_id: args.approved.id } : {}),
        ...requesterIds(args.approved?.notice),
      }),
    );
    return {
      kind: 'purchase' as const,
      unit: args.unit,
      total,
      paid: plan.pay,
      change: plan.change,
      received: emptyPurse(),
      targetIds,
      transactionIds,
      paymentSource: args.paymentSource,
    };
  }

  async purchase(
    actor: LedgerActor,
    id: string,
    input: Purchase,
  ): Promise<TradeResult & { request?: ShopRequest | null }> {
    const result = await this.#transaction(async (tx, record, emit) => {
      const { shop, party, access, container } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanTrade(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      if (!shop.isActive) throw new AppError('SHOP_CLOSED', shopMessages.shopClosed);
      const paymentSource = input.payment_source ?? 'character';
      const payerId =
        paymentSource === 'party' ? await this.#partyPayerId(tx, shop, input.payer_container_id) : null;
      const { context: buyer, located } = await this.#traderSide(
        tx,
        actor.id,
        shop,
        container.id,
        input.buyer_character_id,
        input.buyer_container_id,
        'buyer',
        payerId ? [payerId] : [],
      );
      const payer = payerId ? this.#payerContext(shop, located, payerId) : buyer;
      const { template, name, buy, unit, stacks } = await this.#shelfStock(
        tx,
        shop,
        container.id,
        input.item_instance_id,
        input.quantity,
      );
      // The GM repriced the line after the buyer saw it: nobody pays a price they did not agree to.
      if (input.expected_unit_price_cp !== undefined && input.expected_unit_price_cp !== buy) {
        const message = shopMessages.priceChanged(buy);
        throw new AppError('CONFLICT', message, {
          details: [{ field: 'expected_unit_price_cp', message }],
        });
      }
      const total = buy * input.quantity;
      await this.deps.moves.countAction(tx, actor.id, 'party', shop.partyId);
      // Above the threshold, a player's purchase waits for the GM (issue 10 §8); the GM's team buys at once.
      if (shop.approvalThresholdCp !== null && total > shop.approvalThresholdCp && !access.canManage) {
        // The coins must cover this request on top of those already waiting on the same purse (locked with
        // the trade): else one purse could hold a shop's whole stock in requests it can never pay for.
        const waiting = await repo.pendingRequestsCp(tx, payer.container.id);
        const purse = (await this.deps.moves.purse(tx, payer.container.id)).purse;
        const plan = planPayment(purse, total + waiting);
        if (!plan.ok) {
          const field = paymentSource === 'party' ? 'payer_container_id' : 'buyer_container_id';
          if (waiting === 0) throw this.#insufficient(total, plan.missingCp, field);
          const message = shopMessages.insufficientWithRequests(plan.missingCp, waiting);
          throw new AppError('INSUFFICIENT_FUNDS', message, {
            details: [{ field, message, limit: total + waiting, used: total + waiting - plan.missingCp }],
          });
        }
        // The goods must fit where they are to go, as the approval will check again: else the request
        // waits for a GM who can only fail it (the buyer's bag is already full). What the buyer's other
        // requests hold for the same bag counts as already there: each holds its room until decided.
        const [first] = stacks;
        if (first) {
          const holds = await repo.pendingHoldsFor(tx, buyer.container.id);
          const coming = [...(await inventoryRepository.usage(tx, holds)).values()].reduce(
            (sum, held) => ({ weight: sum.weight + held.weight, slots: sum.slots + held.slots }),
            { weight: 0, slots: 0 },
          );
          await this.deps.moves.assertRoom(tx, buyer, first.id, input.quantity, coming);
        }
        const requestId = await this.#holdForRequest(tx, record, emit, {
          actor,
          shop,
          party,
          container,
          buyer,
          payer,
          paymentSource,
          stacks,
          templateId: template.id,
          itemName: name,
          quantity: input.quantity,
          unit: buy,
          lineUnit: unit,
        });
        // Answered as committed: read after the commit, the request may be withdrawn already.
        return { request: await this.#requestJson(tx, actor.id, requestId) };
      }
      const trade = await this.#completePurchase(tx, record, emit, {
        actor,
        shop,
        source: container,
        stacks,
        buyer,
        payer,
        paymentSource,
        templateId: template.id,
        itemName: name,
        quantity: input.quantity,
        unit: buy,
        lineUnit: unit,
        scope: 'party',
      });
      return { trade };
    });
    if (result.request !== undefined) {
      const { request } = result;
      return {
        kind: 'purchase',
        message: shopMessages.requestCreated,
        quantity: request.quantity,
        unit_price_cp: request.unit_price_cp,
        total_price_cp: request.total_price_cp,
        paid: emptyPurse(),
        change: emptyPurse(),
        received: emptyPurse(),
        item_instances: [],
        transaction_ids: [],
        payment_source: request.payment_source,
        request,
      };
    }
    if (!result.trade) throw new AppError('INTERNAL_SERVER_ERROR', 'purchase finished without a trade');
    return this.#tradeResult(result.trade, input.quantity, shopMessages.purchased);
  }

  // ---- purchase requests (issue 10 §8: shopping while the GM is away) ---------------------------------

  /**
   * Moves the goods out of sale into a hold container of the shop (through the ledger, so replaying it
   * still gives every container), and files the request. No coin moves until the GM approves.
   */
  async #holdForRequest(
    tx: Executor,
    record: Record_,
    emit: Emit,
    args: {
      actor: LedgerActor;
      shop: ShopInstanceRow;
      party: { name: string; gameMasterId: string; isArchived: boolean };
      container: ContainerContext['container'];
      buyer: ContainerContext;
      payer: ContainerContext;
      paymentSource: PaymentSource;
      stacks: { id: string; quantity: number }[];
      templateId: string;
      itemName: string;
      quantity: number;
      unit: number;
      lineUnit?: LineUnit;
    },
  ): Promise<string> {
    const { actor, shop, container, buyer } = args;
    const total = args.unit * args.quantity;
    const hold = await inventoryRepository.insertContainer(tx, {
      name: `${shop.name} hold`,
      shopInstanceId: shop.id,
      isPrimary: false,
    });
    const request = await repo.insertRequest(tx, {
      shopInstanceId: shop.id,
      partyId: shop.partyId,
      requesterId: actor.id,
      requesterName: actor.username,
      characterId: buyer.character?.id ?? null,
      characterName: buyer.ownerName,
      buyerContainerId: buyer.container.id,
      paymentSource: args.paymentSource,
      payerContainerId: args.paymentSource === 'party' ? args.payer.container.id : null,
      holdContainerId: hold.id,
      itemTemplateId: args.templateId,
      itemName: args.itemName,
      quantity: args.quantity,
      unitPriceCp: args.unit,
      totalPriceCp: total,
    });
    const holdContext = this.#shopContext(shop, hold, args.party);
    const heldIds: string[] = [];
    for (const stack of args.stacks) {
      const moved = await this.deps.moves.moveStack(tx, stack.id, holdContext, stack.quantity);
      heldIds.push(...moved.targetIds);
    }
    const details = { reason: 'shop_request', shop_instance_id: shop.id, shop_request_id: request.id };
    const summary = `${actor.username} asked to buy ${formatEnUs(args.quantity)} × ${args.itemName} from ${shop.name} for ${formatCopper(total)}`;
    await record(
      [
        {
          transactionType: 'container_creation',
          partyId: shop.partyId,
          actorId: actor.id,
          actorName: actor.username,
          targetName: shop.name,
          targetId: shop.id,
          destinationContainerId: hold.id,
          destinationName: hold.name,
          details,
          // Not the request's sentence again: the Activity list would show every request twice.
          summary: `${shop.name} sets goods aside for ${actor.username}’s request`,
        },
        {
          transactionType: 'transfer',
          partyId: shop.partyId,
          characterId: buyer.character?.id ?? null,
          actorId: actor.id,
          actorName: actor.username,
          targetName: shop.name,
          targetId: shop.id,
          // The buyer's one inventory action for this purchase (DESIGN §5); approval counts no other.
          scope: 'party',
          itemTemplateId: args.templateId,
          itemInstanceId: heldIds[0] ?? null,
          itemName: args.itemName,
          quantity: args.quantity,
          sourceContainerId: container.id,
          sourceName: shopPlace(container, shop),
          destinationContainerId: hold.id,
          destinationName: hold.name,
          // As a sale's row does: a buyer naming a stack that went into the hold is sold the rest of its line.
          details: {
            ...details,
            hold: 'held',
            unit_price_cp: args.unit,
            ...lineUnitDetails(args.lineUnit),
            source_instance_ids: args.stacks.map((s) => s.id),
          },
          summary,
        },
      ],
      false,
    );
    emit(
      this.#shopEvent(shop, 'shop_request_created', actor, summary, {
        shop_request_id: request.id,
        character_id: buyer.character?.id ?? null,
        status: 'pending',
      }),
    );
    return request.id;
  }

  async #requestJson(db: Executor, userId: string, requestId: string): Promise<ShopRequest> {
    const row = await repo.request(db, requestId);
    if (!row) throw AppError.notFound(shopMessages.requestNotFound);
    const { access } = await this.#partyAccess(db, userId, row.partyId);
    if (!access.canRead || (!access.canManage && row.requesterId !== userId))
      throw AppError.notFound(shopMessages.requestNotFound);
    return toRequestJson(row, userId, access.canManage);
  }

  /** The GM and managers see every request of the shop; a player sees their own. */
  async listRequests(userId: string, shopId: string, status: ShopRequestStatus | 'all') {
    const row = await repo.instance(this.db, shopId);
    if (!row) throw AppError.notFound(shopMessages.instanceNotFound);
    const { access } = await this.#partyAccess(this.db, userId, row.shop.partyId);
    if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    const rows = await repo.requests(this.db, {
      shopInstanceId: shopId,
      ...(status === 'all' ? {} : { status }),
      ...(access.canManage ? {} : { requesterId: userId }),
    });
    return rows.map((r) => toRequestJson(r, userId, access.canManage));
  }

  /**
   * Locks the shop, then the request: every decision on a request is serialised by its shop's row, so of
   * two racing decisions exactly one finds it pending.
   */
  async #lockRequest(tx: Executor, userId: string, requestId: string) {
    const found = await repo.request(tx, requestId);
    if (!found) throw AppError.notFound(shopMessages.requestNotFound);
    const shop = await repo.lockInstance(tx, found.shopInstanceId);
    if (!shop) throw AppError.notFound(shopMessages.requestNotFound);
    const { party, access } = await this.#partyAccess(tx, userId, shop.partyId);
    if (!party || !access.canRead || (!access.canManage && found.requesterId !== userId))
      throw AppError.notFound(shopMessages.requestNotFound);
    const request = await repo.lockRequest(tx, requestId);
    if (!request) throw AppError.notFound(shopMessages.requestNotFound);
    const container = await repo.containerOf(tx, shop.id);
    if (!container) throw new AppError('INTERNAL_SERVER_ERROR', `shop ${shop.id} has no container`);
    return { request, shop, party, access, container };
  }

  #assertPending(request: ShopRequestRow) {
    if (request.status !== 'pending')
      throw new AppError('CONFLICT', shopMessages.requestDecided(request.status));
  }

  /**
   * A request sells at the price agreed when it was made, but never an item the shop has no price for any
   * more (the GM cleared the own price of an unpriced item since): that would hand it over for whatever
   * was agreed, or for nothing. Repricing it, or declining the request, is the GM's choice.
   */
  async #assertStillPriced(tx: Executor, shop: ShopInstanceRow, held: { id: string }[]) {
    const rows = await inventoryRepository.instancesWithTemplates(
      tx,
      held.map((stack) => stack.id),
    );
    for (const row of rows) {
      const { buy } = await this.#quote(shop, row.template, row.instance.instanceData);
      if (buy === null) throw new AppError('CONFLICT', shopMessages.requestUnpriced);
    }
  }

  async approveRequest(actor: LedgerActor, requestId: string): Promise<ShopRequestResult> {
    const { trade, quantity, answer } = await this.#transaction(async (tx, record, emit) => {
      const { request, shop, party, access, container } = await this.#lockRequest(tx, actor.id, requestId);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      this.#assertPending(request);
      const hold = request.holdContainerId;
      const payerId = request.paymentSource === 'party' ? request.payerContainerId : request.buyerContainerId;
      if (!request.buyerContainerId || !request.characterId || !hold || !payerId)
        throw new AppError('CONFLICT', shopMessages.requestBuyerGone);
      const located = await inventoryRepository.lockContextsForUser(tx, actor.id, [
        container.id,
        hold,
        request.buyerContainerId,
        payerId,
      ]);
      const buyer = located.get(request.buyerContainerId)?.context;
      const payer = located.get(payerId)?.context;
      const holdContext = located.get(hold)?.context;
      if (!buyer || buyer.character?.id !== request.characterId || !payer || !holdContext)
        throw new AppError('CONFLICT', shopMessages.requestBuyerGone);
      // A member who left took their character along: the party's shop no longer trades with it.
      if (buyer.character.partyId !== shop.partyId)
        throw new AppError('CONFLICT', shopMessages.requestBuyerLeft);
      const stacks = await inventoryRepository.allInstances(tx, hold);
      await this.#assertStillPriced(tx, shop, stacks);
      const result = await this.#completePurchase(tx, record, emit, {
        actor,
        shop,
        source: holdContext.container,
        stacks: stacks.map((s) => ({ id: s.id, quantity: s.quantity })),
        buyer,
        payer,
        paymentSource: request.paymentSource,
        templateId: request.itemTemplateId ?? stacks[0]?.itemTemplateId ?? '',
        itemName: request.itemName,
        quantity: request.quantity,
        unit: request.unitPriceCp,
        // The buyer's action was counted when they asked (DESIGN §5).
        scope: null,
        approved: {
          id: request.id,
          requesterName: request.requesterName,
          notice: {
            userId: request.requesterId,
            text: `${actor.username} approved your purchase of ${formatEnUs(request.quantity)} × ${request.itemName}`,
          },
        },
      });
      await this.#decisionNotice(
        tx,
        actor,
        shop,
        party,
        request.requesterId,
        'purchase_approved',
        `${actor.username} approved your purchase of ${formatEnUs(request.quantity)} × ${request.itemName} at ${shop.name}`,
      );
      await this.#dropHold(tx, record, actor, shop, holdContext.container, request, 'approved');
      await repo.decideRequest(tx, request.id, {
        status: 'approved',
        decidedById: actor.id,
        decidedByName: actor.username,
        decidedAt: this.deps.now(),
      });
      emit(
        this.#shopEvent(
          shop,
          'shop_request_approved',
          actor,
          `${actor.username} approved ${request.requesterName}’s purchase of ${formatEnUs(request.quantity)} × ${request.itemName}`,
          { shop_request_id: request.id, character_id: request.characterId, status: 'approved' },
        ),
      );
      return {
        trade: result,
        quantity: request.quantity,
        answer: await this.#requestJson(tx, actor.id, requestId),
      };
    });
    return {
      request: answer,
      trade: await this.#tradeResult(trade, quantity, shopMessages.requestApproved),
    };
  }

  /** Declined by the GM or cancelled by the buyer: the goods go back on sale, no coin moves. */
  async releaseRequest(
    actor: LedgerActor,
    requestId: string,
    outcome: 'declined' | 'cancelled',
    reason = '',
  ): Promise<ShopRequestResult> {
    const request = await this.#transaction(async (tx, record, emit) => {
      const locked = await this.#lockRequest(tx, actor.id, requestId);
      if (outcome === 'declined') policy.assertCanManage(locked.access);
      else if (locked.request.requesterId !== actor.id)
        throw new AppError('FORBIDDEN', shopMessages.requestNotYours);
      if (locked.party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      this.#assertPending(locked.request);
      await this.#release(tx, record, emit, actor, locked, outcome, reason);
      return this.#requestJson(tx, actor.id, requestId);
    });
    return { request, trade: null };
  }

  /** The goods of a pending request back from its hold to the shelf, through the ledger; the request decided. */
  async #release(
    tx: Executor,
    record: Record_,
    emit: Emit,
    actor: LedgerActor,
    locked: {
      request: ShopRequestRow;
      shop: ShopInstanceRow;
      party: { name: string; gameMasterId: string; isArchived: boolean };
      container: ContainerContext['container'];
    },
    outcome: 'declined' | 'cancelled',
    reason: string,
  ) {
    const { request, shop, party, container } = locked;
    const summary =
      outcome === 'declined'
        ? `${actor.username} declined ${request.requesterName}’s purchase of ${formatEnUs(request.quantity)} × ${request.itemName}`
        : `${actor.username} cancelled their request for ${formatEnUs(request.quantity)} × ${request.itemName}`;
    if (request.holdContainerId) {
      await inventoryRepository.lockContainers(tx, [container.id, request.holdContainerId]);
      const hold = await inventoryRepository.context(tx, request.holdContainerId);
      if (hold) {
        const back = this.#shopContext(shop, container, party);
        for (const stack of await inventoryRepository.allInstances(tx, hold.container.id)) {
          const moved = await this.deps.moves.moveStack(tx, stack.id, back, stack.quantity);
          await record(
            [
              {
                transactionType: 'transfer',
                partyId: shop.partyId,
                characterId: request.characterId,
                actorId: actor.id,
                actorName: actor.username,
                targetName: shop.name,
                targetId: shop.id,
                itemTemplateId: moved.template.id,
                itemInstanceId: moved.targetIds[0] ?? null,
                itemName: moved.facts.name,
                quantity: stack.quantity,
                sourceContainerId: hold.container.id,
                sourceName: hold.container.name,
                destinationContainerId: container.id,
                destinationName: shopPlace(container, shop),
                details: {
                  reason: 'shop_request',
                  hold: 'released',
                  // What became of the request, which its summary alone says: the history's badge.
                  outcome,
                  shop_instance_id: shop.id,
                  shop_request_id: request.id,
                },
                summary,
              },
            ],
            false,
          );
        }
        await this.#dropHold(tx, record, actor, shop, hold.container, request, outcome);
      }
    }
    await repo.decideRequest(tx, request.id, {
      status: outcome,
      decidedById: actor.id,
      decidedByName: actor.username,
      decidedAt: this.deps.now(),
      reason,
    });
    if (outcome === 'declined')
      await this.#decisionNotice(
        tx,
        actor,
        shop,
        party,
        request.requesterId,
        'purchase_declined',
        `${actor.username} declined your purchase of ${formatEnUs(request.quantity)} × ${request.itemName} at ${shop.name}${reason ? `: ${reason}` : ''}`,
      );
    emit(
      this.#shopEvent(shop, `shop_request_${outcome}`, actor, summary, {
        shop_request_id: request.id,
        character_id: request.characterId,
        status: outcome,
        ...(outcome === 'declined'
          ? requesterIds({
              userId: request.requesterId,
              text: `${actor.username} declined your purchase of ${formatEnUs(request.quantity)} × ${request.itemName}${reason ? `: ${reason}` : ''}`,
            })
          : {}),
      }),
    );
  }

  /**
   * The buyer's character, or the container a request's goods were to go into or be paid from, is being
   * deleted, or the character is leaving the party (`leftPartyId`: only that party's requests), in `tx` (its
   * caller's transaction): each pending request of it goes back on sale there and then, as the release of a
   * leaving member's requests does, cancelled when the one acting asked for it, else declined by them; with
   * the reason. Approve could only refuse it afterwards. One in an archived party stays as it is (the party
   * is frozen). Called before the caller locks the character's containers, as Approve locks the shop and
   * then the containers. Answers the events to publish after the commit.
   */
  async releaseRequestsOfBuyer(tx: Executor, actor: LedgerActor, gone: BuyerGone): Promise<DomainEvent[]> {
    // A character's deletion or leaving holds every shop of its party first, as a purchase holds one before
    // the buyer's containers: a request filed after this read would be left pending for a character that is
    // gone, and on PostgreSQL its row, set null twice by the deletion's cascades, would wait for the shop
    // that purchase holds while it waits for the containers the deletion holds (a deadlock).
    if ('characterId' in gone)
      await repo.lockInstancesOfBuyer(
        tx,
        gone.characterId,
        'leftPartyId' in gone ? gone.leftPartyId : undefined,
      );
    const pending = await repo.pendingRequestsOfBuyer(tx, gone);
    const events: DomainEvent[] = [];
    if (pending.length === 0) return events;
    const emit: Emit = (event) => events.push(event);
    const written: LedgerEntry[] = [];
    const record = this.#recorder(tx, emit, written);
    for (const found of pending) {
      const shop = await repo.lockInstance(tx, found.shopInstanceId);
      const request = shop ? await repo.lockRequest(tx, found.id) : undefined;
      if (!shop || !request || request.status !== 'pending') continue;
      const party = await partiesRepository.findParty(tx, shop.partyId);
      const container = await repo.containerOf(tx, shop.id);
      if (!party || party.isArchived || !container) continue;
      const reason = releaseReason(request, gone);
      const outcome = request.requesterId === actor.id ? 'cancelled' : 'declined';
      await this.#release(tx, record, emit, actor, { request, shop, party, container }, outcome, reason);
    }
    events.push(...partyActivityEvents(written));
    return events;
  }

  /**
   * A member on their way out of a party (or out of every party, their account deleted) leaves no request
   * behind that nobody may cancel any more: their own go back on sale as cancelled by them, or, when the GM
   * removes them, as declined by the GM. Each in a transaction of its own, before they go, while they may
   * still act in the party; one decided meanwhile, or in an archived party, stays as it is.
   */
  async withdrawPendingRequests(
    memberId: string,
    partyId: string | null,
    removedById: string | null = null,
  ): Promise<number> {
    const pending = await repo.requests(this.db, { partyId, requesterId: memberId, status: 'pending' });
    if (pending.length === 0) return 0;
    const remover = removedById ? await accountsRepository.findUserById(this.db, removedById) : undefined;
    let withdrawn = 0;
    for (const request of pending) {
      try {
        if (remover) await this.releaseRequest(remover, request.id, 'declined', shopMessages.requesterGone);
        else
          await this.releaseRequest(
            { id: memberId, username: request.requesterName },
            request.id,
            'cancelled',
          );
        withdrawn += 1;
      } catch (error) {
        if (!(error instanceof AppError) || !['CONFLICT', 'FORBIDDEN'].includes(error.code)) throw error;
      }
    }
    return withdrawn;
  }

  async #dropHold(
    tx: Executor,
    record: Record_,
    actor: LedgerActor,
    shop: ShopInstanceRow,
    hold: ContainerContext['container'],
    request: { id: string; requesterName: string },
    outcome: Exclude<ShopRequestStatus, 'pending'>,
  ) {
    await record(
      [
        {
          transactionType: 'container_deletion',
          partyId: shop.partyId,
          actorId: actor.id,
          actorName: actor.username,
          targetName: shop.name,
          targetId: shop.id,
          sourceContainerId: hold.id,
          sourceName: hold.name,
          details: {
            reason: 'shop_request',
            outcome,
            shop_instance_id: shop.id,
            shop_request_id: request.id,
          },
          summary: `${shop.name} no longer sets goods aside for ${request.requesterName}’s request`,
        },
      ],
      false,
    );
    await inventoryRepository.deleteContainer(tx, hold.id);
  }

  /**
   * Who shares the proceeds of a split sale (issue 11 §8): characters of the shop's party, in the order
   * given, each with the container their share is paid into (their main one).
   */
  async #splitRecipients(tx: Executor, shop: ShopInstanceRow, ids: string[]) {
    const refuse = () =>
      AppError.validation([{ field: 'split_among', message: SPLIT_NOT_IN_PARTY }], SPLIT_NOT_IN_PARTY);
    const recipients: { id: string; name: string; containerId: string }[] = [];
    for (const characterId of ids) {
      const character = await charactersRepository.find(tx, characterId);
      if (!character || character.partyId !== shop.partyId) throw refuse();
      const [main] = await inventoryRepository.listForOwner(tx, { characterId });
      if (!main) {
        const message = `${character.name} has no container to receive coins.`;
        throw AppError.validation([{ field: 'split_among', message }], message);
      }
      recipients.push({ id: character.id, name: character.name, containerId: main.id });
    }
    return recipients;
  }

  async sell(actor: LedgerActor, id: string, input: Sell): Promise<TradeResult> {
    let message: string = shopMessages.sold;
    const result = await this.#transaction(async (tx, record, emit) => {
      const { shop, party, access, container } = await this.#lockShop(tx, actor.id, id);
      const splitAmong = input.split_among;
      if (splitAmong) {
        // Only the party's GM shares the proceeds; they need no character of their own to do it.
        const membership = await partiesRepository.membership(tx, shop.partyId, actor.id);
        if (membership?.role !== 'gm') throw new AppError('FORBIDDEN', SPLIT_GM_ONLY);
      } else policy.assertCanTrade(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      if (!shop.isActive) throw new AppError('SHOP_CLOSED', shopMessages.shopClosed);
      const recipients = splitAmong ? await this.#splitRecipients(tx, shop, splitAmong) : [];
      const { context: seller, located } = await this.#traderSide(
        tx,
        actor.id,
        shop,
        container.id,
        input.seller_character_id ?? '',
        input.seller_container_id,
        'seller',
        recipients.map((r) => r.containerId),
        splitAmong !== undefined,
      );
      const locked = await inventoryRepository.lockInstanceWithTemplate(tx, input.item_instance_id);
      if (!locked || locked.instance.containerId !== seller.container.id)
        throw AppError.notFound(inventoryMessages.itemGone);
      const { instance: stack, template } = locked;
      // Rounded down once for the line; refused for coins, an unpriced item and 0 cp.
      const {
        facts,
        unit: sell,
        total,
      } = await this.#sellOffer(shop, template, stack.instanceData, input.quantity);
      const sold = await this.#sellLine(tx, seller.container.id, stack, input.quantity);
      await this.deps.moves.countAction(tx, actor.id, 'party', shop.partyId);
      const shopContext = this.#shopContext(shop, container, party);
      const targetIds: string[] = [];
      for (const part of sold) {
        targetIds.push(
          ...(await this.deps.moves.moveStack(tx, part.id, shopContext, part.quantity)).targetIds,
        );
      }
      // The character who sold is the row's target, as the buyer is a purchase's (the shop's sales log
      // names it): the shop is the item's destination.
      const base = {
        partyId: shop.partyId,
        characterId: seller.character?.id ?? null,
        actorId: actor.id,
        actorName: actor.username,
        targetName: seller.ownerName,
        targetId: seller.ownerId,
      };
      // Shares in copper, the remainder dealt one each to whoever has received the least from earlier split
      // sales (ties in list order): they always add up to the total.
      const shares = splitAmong
        ? splitProceeds(
            total,
            recipients.length,
            await ledgerRepository.splitSaleShares(
              tx,
              shop.partyId,
              recipients.map((r) => r.id),
            ),
          )
        : [];
      const parts = recipients.map((r, i) => `${r.name} (${formatCopper(shares[i]?.cp ?? 0)})`);
      const splitText =
        parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
      const soldText = `${actor.username} sold ${formatEnUs(input.quantity)} × ${facts.name} to ${shop.name} for ${formatCopper(total)}`;
      const summary = splitAmong ? `${soldText}, split among ${splitText}` : soldText;
      if (splitAmong) message = `${shopMessages.sold}: ${formatCopper(total)} split among ${splitText}.`;
      const rows: LedgerEntry[] = [
        {
          ...base,
          transactionType: 'sale',
          scope: 'party',
          itemTemplateId: template.id,
          itemInstanceId: targetIds[0] ?? null,
          itemName: facts.name,
          quantity: input.quantity,
          amountCp: total,
          currency: 'cp',
          sourceContainerId: seller.container.id,
          sourceName: `${seller.container.name} (${seller.ownerName})`,
          destinationContainerId: container.id,
          destinationName: shopPlace(container, shop),
          details: {
            shop_instance_id: shop.id,
            unit_price_cp: sell,
            ...(splitAmong ? { split_among: recipients.map((r) => r.id) } : {}),
          },
          summary,
        },
      ];
      // Who is paid: the seller's container, or each character's main container for their share.
      const payees: {
        context: ContainerContext;
        characterId: string | null;
        name: string | null;
        cp: number;
        coins: Purse;
      }[] = splitAmong
        ? []
        : [
            {
              context: seller,
              characterId: seller.character?.id ?? null,
              name: null,
              cp: total,
              coins: makeChange(total),
            },
          ];
      for (const [i, r] of recipients.entries()) {
        // Each recipient's container was locked and located with the seller's.
        const context = located.get(r.containerId)?.context;
        if (!context) throw AppError.notFound('Container not found.');
        const share = shares[i] ?? { cp: 0, coins: emptyPurse() };
        payees.push({ context, characterId: r.id, name: r.name, ...share });
      }
      const received = emptyPurse();
      for (const payee of payees) {
        const coins = payee.coins;
        for (const currency of currencies) {
          const n = coins[currency];
          if (n === 0) continue;
          received[currency] += n;
          const coin = await this.deps.moves.coin(tx, currency);
          const ids = await this.deps.moves.place(tx, payee.context, coin, n, {}, '', coin.weight);
          rows.push({
            ...base,
            characterId: payee.characterId,
            targetName: payee.name ?? seller.ownerName,
            targetId: payee.name !== null ? payee.characterId : seller.ownerId,
            transactionType: 'sale',
            itemTemplateId: coin.id,
            itemInstanceId: ids[0] ?? null,
            itemName: coin.name,
            quantity: n,
            amountCp: n * copperPer[currency],
            currency: 'cp',
            sourceName: shop.name,
            destinationContainerId: payee.context.container.id,
            destinationName: `${payee.context.container.name} (${payee.name ?? payee.context.ownerName})`,
            details: {
              role: 'payment',
              shop_instance_id: shop.id,
              ...(splitAmong ? { split_share: true, share_cp: payee.cp } : {}),
            },
            summary: `${payee.name ?? seller.ownerName} received ${formatEnUs(n)} × ${coin.name} from ${shop.name} for ${formatEnUs(input.quantity)} × ${facts.name}`,
          });
        }
      }
      const transactionIds = await record(rows, false);
      emit(
        this.#shopEvent(shop, 'item_traded', actor, summary, {
          item_instance_id: stack.id,
          source_container_id: seller.container.id,
          character_id: seller.character?.id ?? null,
          // The shares land in other characters' containers: the party's screens refresh them all.
          ...(splitAmong ? { split_sale: 'true' } : {}),
        }),
      );
      return {
        kind: 'sale' as const,
        unit: sell,
        total,
        paid: emptyPurse(),
        change: emptyPurse(),
        received,
        targetIds,
        transactionIds,
      };
    });
    return this.#tradeResult(result, input.quantity, message);
  }

  /**
   * The stacks a sale takes: `quantity` of the seller's line the named stack is on (`sellLineKey`: plain
   * stacks of its template with the same notes, so three daggers, a stack each, sell in one sale), the
   * named stack first, then the others oldest first. The caller holds the seller's container lock; the
   * stacks are locked here. A stack that keeps to itself (renamed, equipped) sells only from itself.
   */
  async #sellLine(tx: Executor, containerId: string, named: InstanceRow, quantity: number) {
    if (quantity <= named.quantity) return [{ id: named.id, quantity }];
    const key = sellLineKey(named);
    const others = key
      ? (await inventoryRepository.plainStacks(tx, containerId, named.itemTemplateId)).filter(
          (other) => other.id !== named.id && sellLineKey(other) === key,
        )
      : [];
    const parts = [{ id: named.id, quantity: named.quantity }];
    let left = quantity - named.quantity;
    for (const other of others) {
      if (left === 0) break;
      const take = Math.min(other.quantity, left);
      parts.push({ id: other.id, quantity: take });
      left -= take;
    }
    if (left > 0) {
      const have = quantity - left;
      const message = have === named.quantity ? inventoryMessages.quantityTooLarge : `You have only ${have}.`;
      throw AppError.validation([{ field: 'quantity', message }]);
    }
    return parts;
  }

  async #tradeResult(
    r: {
      kind: 'purchase' | 'sale';
      unit: number;
      total: number;
      paid: Purse;
      change: Purse;
      received: Purse;
      targetIds: string[];
      transactionIds: string[];
      paymentSource?: PaymentSource;
    },
    quantity: number,
    message: string,
  ): Promise<TradeResult> {
    const rows = await inventoryRepository.instancesWithTemplates(this.db, r.targetIds);
    return {
      kind: r.kind,
      message,
      quantity,
      unit_price_cp: r.unit,
      total_price_cp: r.total,
      paid: r.paid,
      change: r.change,
      received: r.received,
      item_instances: rows.map((row) => toInstanceJson(row.instance, row.template)),
      transaction_ids: r.transactionIds,
      ...(r.paymentSource ? { payment_source: r.paymentSource } : {}),
    };
  }

  /**
   * A container locked with the shop's (`lockContextsForUser`, which brings the user's role and character in
   * its party) that the user may act on: 404 when they cannot see it, 403 when they may only look.
   */
  #actableContainer(
    row: ReturnType<Awaited<ReturnType<typeof inventoryRepository.lockContextsForUser>>['get']>,
    userId: string,
  ) {
    if (!row) throw AppError.notFound('Container not found.');
    const { context, role, hasCharacter } = row;
    const access = containerAccess(context, userId, role ? { role } : undefined, hasCharacter);
    if (!access.canRead) throw AppError.notFound('Container not found.');
    if (!access.canAct) throw new AppError('FORBIDDEN', 'You can look at this container but not change it.');
    return context;
  }

  async stockItem(actor: LedgerActor, id: string, input: Stock): Promise<ShopInstance> {
    return this.#transaction(async (tx, record, emit) => {
      const { shop, party, access, container } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const located = await inventoryRepository.lockContextsForUser(tx, actor.id, [
        container.id,
        input.source_container_id,
      ]);
      const source = this.#actableContainer(located.get(input.source_container_id), actor.id);
      // As for any move: another party's container would lose goods that only this party's ledger records.
      if (source.party && source.party.id !== shop.partyId) {
        throw AppError.validation([{ field: 'source_container_id', message: inventoryMessages.otherParty }]);
      }
      const stack = await inventoryRepository.lockInstance(tx, input.item_id);
      if (!stack || stack.containerId !== source.container.id)
        throw AppError.notFound(inventoryMessages.itemGone);
      const quantity = input.quantity ?? stack.quantity;
      if (quantity > stack.quantity) {
        throw AppError.validation([{ field: 'quantity', message: 'There are not that many in the stack' }]);
      }
      const moved = await this.deps.moves.moveStack(
        tx,
        stack.id,
        this.#shopContext(shop, container, party),
        quantity,
      );
      if (moved.template.tags.includes('currency')) {
        throw AppError.validation([{ field: 'item_id', message: shopMessages.currencyNotSold }]);
      }
      if (input.price !== undefined) {
        const prices = { ...shop.prices };
        if (input.price === null) delete prices[moved.template.id];
        else prices[moved.template.id] = input.price;
        await repo.updateInstance(tx, shop.id, { prices });
      }
      await this.deps.moves.countAction(tx, actor.id, 'party', shop.partyId);
      await record(
        [
          {
            transactionType: 'transfer',
            partyId: shop.partyId,
            characterId: source.character?.id ?? null,
            actorId: actor.id,
            actorName: actor.username,
            targetName: shop.name,
            targetId: shop.id,
            itemTemplateId: moved.template.id,
            itemInstanceId: moved.targetIds[0] ?? null,
            itemName: moved.facts.name,
            quantity,
            sourceContainerId: source.container.id,
            sourceName: `${source.container.name} (${source.ownerName})`,
            destinationContainerId: container.id,
            destinationName: shopPlace(container, shop),
            scope: 'party',
            details: { reason: 'stock', shop_instance_id: shop.id },
            summary: `${actor.username} stocked ${formatEnUs(quantity)} × ${moved.facts.name} in ${shop.name}`,
          },
        ],
        false,
      );
      emit(
        this.#shopEvent(shop, 'shop_updated', actor, `${actor.username} stocked ${shop.name}`, {
          // The goods left this container: its screens refresh with the shop's.
          source_container_id: source.container.id,
          character_id: source.character?.id ?? null,
        }),
      );
      // Answered as committed, read before the locks go: the shop may be deleted right after.
      return this.#instanceJson(tx, actor.id, id);
    });
  }

  /**
   * The shop's own price for an item on its shelf, set or cleared (`priceCp` null), by its GM or a manager:
   * every one of it on the shelf sells at it (less the discount), and an unpriced one is bought at it (times
   * the sell modifier). A setting of the shop's, like those updateInstance changes: no item or coin moves,
   * so no ledger row. A purchase request already made keeps the price it agreed to.
   */
  async setPrice(
    actor: LedgerActor,
    id: string,
    itemTemplateId: string,
    priceCp: number | null,
  ): Promise<ShopInstance> {
    return this.#transaction(async (tx, _record, emit) => {
      const { shop, party, access, container } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const name = await repo.shelvedTemplateName(tx, container.id, itemTemplateId);
      if (name === undefined) {
        throw AppError.validation(
          [{ field: 'item_template_id', message: shopMessages.priceNotOnShelf }],
          shopMessages.priceNotOnShelf,
        );
      }
      // The prices as the shop's lock found them: a change racing this one (another line's price, a stock
      // with a price) waits for it, then starts from what it wrote, and neither is lost.
      const prices = { ...shop.prices };
      if (priceCp === null) delete prices[itemTemplateId];
      else prices[itemTemplateId] = priceCp;
      await repo.updateInstance(tx, shop.id, { prices });
      const summary =
        priceCp === null
          ? `${actor.username} cleared ${shop.name}’s own price for ${name}`
          : `${actor.username} priced ${name} at ${formatCopper(priceCp)} in ${shop.name}`;
      emit(this.#shopEvent(shop, 'shop_updated', actor, summary));
      // Answered as committed, read before the locks go: the shop may be deleted right after.
      return this.#instanceJson(tx, actor.id, id);
    });
  }

  /**
   * Stock taken back off the shelf (GM or manager): `quantity` of one stack of the shop's stock (never goods
   * held for a purchase request, which wait in a hold container of their own) into a container of the
   * shop's party that the user may act on. It is the inventory's own move, so the target's capacity applies
   * (refused whole) and plain stacks merge. The shop's own price for the item stays where it is: a price is
   * the shop's for that item, and applies again to stock put back or restocked later.
   */
  async unstockItem(actor: LedgerActor, id: string, input: Unstock): Promise<ShopInstance> {
    return this.#transaction(async (tx, record, emit) => {
      const { shop, party, access, container } = await this.#lockShop(tx, actor.id, id);
      policy.assertCanManage(access);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      // The shop's container and the target at once, in id order, as every shop operation locks them.
      const located = await inventoryRepository.lockContextsForUser(tx, actor.id, [
        container.id,
        input.target_container_id,
      ]);
      const targetRow = located.get(input.target_container_id);
      // A shop's stock or hold and a loot's contents belong to nobody here (as for the container routes):
      // stock moves between shops only through a character's or the party's hands.
      if (
        !targetRow ||
        targetRow.context.container.shopInstanceId ||
        targetRow.context.container.lootInstanceId
      )
        throw AppError.notFound('Container not found.');
      const target = this.#actableContainer(targetRow, actor.id);
      // The shop's goods stay in its party, as a purchase or a loot take leaves them (docs/decisions.md).
      if (target.party?.id !== shop.partyId) {
        throw AppError.validation([
          { field: 'target_container_id', message: shopMessages.unstockNotInParty },
        ]);
      }
      const named = await inventoryRepository.lockInstanceWithTemplate(tx, input.item_id);
      if (!named || named.instance.containerId !== container.id)
        throw AppError.notFound(shopMessages.unstockNotInShop);
      // The shelf line the named stack sits on, as the shop page shows it: ten quivers' worth of arrows
      // are one line of 200, taken back from the named stack first and then from the line's others.
      const quantity = input.quantity ?? named.instance.quantity;
      const { facts, buy } = await this.#quote(shop, named.template, named.instance.instanceData);
      const line = {
        template: named.template,
        name: facts.name,
        buy,
        unit: { weight: facts.weight, valueCp: facts.valueCp },
      };
      const stacks = takeFromLine(
        [
          named.instance,
          ...(quantity > named.instance.quantity
            ? await this.#restOfLine(tx, shop, container.id, line, named.instance.id)
            : []),
        ],
        quantity,
      );
      if (stacks.inLine < quantity) {
        throw AppError.validation([{ field: 'quantity', message: shopMessages.onlyOnShelf(stacks.inLine) }]);
      }
      const targetIds: string[] = [];
      for (const part of stacks.parts)
        targetIds.push(...(await this.deps.moves.moveStack(tx, part.id, target, part.quantity)).targetIds);
      await this.deps.moves.countAction(tx, actor.id, 'party', shop.partyId);
      const summary = `${actor.username} took ${formatEnUs(quantity)} × ${facts.name} back from ${shop.name}`;
      await record(
        [
          {
            transactionType: 'transfer',
            partyId: shop.partyId,
            characterId: target.character?.id ?? null,
            actorId: actor.id,
            actorName: actor.username,
            targetName: target.ownerName,
            targetId: target.ownerId,
            itemTemplateId: named.template.id,
            itemInstanceId: targetIds[0] ?? null,
            itemName: facts.name,
            quantity,
            sourceContainerId: container.id,
            sourceName: shopPlace(container, shop),
            destinationContainerId: target.container.id,
            destinationName: `${target.container.name} (${target.ownerName})`,
            scope: 'party',
            details: {
              reason: 'unstock',
              shop_instance_id: shop.id,
              source_item_instance_id: named.instance.id,
              source_instance_ids: stacks.parts.map((part) => part.id),
            },
            summary,
          },
        ],
        false,
      );
      emit(
        this.#shopEvent(shop, 'shop_updated', actor, summary, {
          // The goods went into this container: its screens refresh with the shop's.
          destination_container_id: target.container.id,
          character_id: target.character?.id ?? null,
        }),
      );
      // Answered as committed, read before the locks go: the shop may be deleted right after.
      return this.#instanceJson(tx, actor.id, id);
    });
  }

  async buyPrice(userId: string, id: string, itemId: string, quantity: number): Promise<PriceQuote> {
    const row = await repo.instance(this.db, id);
    if (!row) throw AppError.notFound(shopMessages.instanceNotFound);
    const { access } = await this.#partyAccess(this.db, userId, row.shop.partyId);
    if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    const container = await repo.containerOf(this.db, id);
    const [stack] = await inventoryRepository.instancesWithTemplates(this.db, [itemId]);
    if (!stack || !container || stack.instance.containerId !== container.id)
      throw AppError.notFound(shopMessages.notInShop);
    const { facts, buy } = await this.#askingPrice(row.shop, stack.template, stack.instance.instanceData);
    return {
      item_instance_id: itemId,
      name: facts.name,
      quantity,
      unit_price_cp: buy,
      total_price_cp: buy * quantity,
      formatted: formatCopper(buy * quantity),
      has_own_price: row.shop.prices[stack.template.id] !== undefined,
      discount_rate: row.shop.discountRate,
      modifier: row.shop.buyModifier,
    };
  }

  /** What this shop would pay for an item the user can see (in their own or the party's containers). */
  async sellPrice(userId: string, id: string, itemId: string, quantity: number): Promise<PriceQuote> {
    const row = await repo.instance(this.db, id);
    if (!row) throw AppError.notFound(shopMessages.instanceNotFound);
    const { access } = await this.#partyAccess(this.db, userId, row.shop.partyId);
    if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    const [stack] = await inventoryRepository.instancesWithTemplates(this.db, [itemId]);
    const context = stack
      ? await inventoryRepository.context(this.db, stack.instance.containerId)
      : undefined;
    const membership = context?.party
      ? await partiesRepository.membership(this.db, context.party.id, userId)
      : undefined;
    const readable = context ? containerAccess(context, userId, membership, false).canRead : false;
    if (!stack || !readable) throw AppError.notFound('Item not found.');
    const { facts, unit, total } = await this.#sellOffer(
      row.shop,
      stack.template,
      stack.instance.instanceData,
      quantity,
    );
    return {
      item_instance_id: itemId,
      name: facts.name,
      quantity,
      // What one piece alone fetches; the total is rounded down once for the line, so it may be more than
      // unit × quantity (20 arrows at 0.33: 1 cp each, 33 cp in all).
      unit_price_cp: unit,
      total_price_cp: total,
      formatted: formatCopper(total),
      // An offer for an unpriced item is the shop's own price for it; a priced one goes by its value.
      has_own_price: isUnpricedItem({
        item_template: stack.template,
        instance_data: stack.instance.instanceData,
      }),
      discount_rate: 0,
      modifier: row.shop.sellModifier,
    };
  }

  /** The GM's sales log: who bought or sold what here, for how much, from the ledger. */
  async sales(userId: string, id: string, page: number, perPage: number) {
    const row = await repo.instance(this.db, id);
    if (!row) throw AppError.notFound(shopMessages.instanceNotFound);
    const { access } = await this.#partyAccess(this.db, userId, row.shop.partyId);
    if (!access.canRead) throw AppError.notFound(shopMessages.instanceNotFound);
    policy.assertCanManage(access);
    const { rows, total } = await repo.sales(this.db, row.shop.partyId, id, page, perPage);
    return { rows, meta: pageMeta(page, perPage, total) };
  }
}
