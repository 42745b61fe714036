import { randomInt } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type Currency,
  coinOfSystemKey,
  copperPer,
  copperValue,
  currencies,
  formatEnUs,
  type ItemInstance,
  type LootClaim,
  type LootDistribute,
  type LootDistribution,
  type LootInstance,
  type LootInstanceCreate,
  type LootInstanceListQuery,
  type LootInstanceSummary,
  type LootInstanceUpdate,
  type LootItem,
  type LootItemForm,
  type LootSummary,
  type LootTake,
  type LootTakeResult,
  type LootTemplate,
  type LootTemplateForm,
  type LootTemplateListQuery,
  type LootTemplateUpdate,
  lootContentsFingerprint,
  lootLineKey,
  lootMessages,
  lootSourceTypeNames,
  MAX_LOOT_ITEMS,
  MAX_STACK_QUANTITY,
  type Purse,
  partyMessages,
  purseValueCp,
  saturatingSum,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isLockNotAvailable } from '../../lib/db-errors.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { DomainEvent } from '../../realtime/events.js';
import { templateFacts, toInstanceJson } from '../inventory/inventory.json.js';
import { type ContainerContext, inventoryRepository } from '../inventory/inventory.repository.js';
import type { InventoryMoves } from '../inventory/inventory.service.js';
import { destroyContainerContents, type LedgerActor } from '../inventory/inventory-ledger.js';
import { effectiveFacts, hasOverrides } from '../inventory/inventory-rules.js';
import { takeFromLine } from '../inventory/stack-line.js';
import { canRead as canReadItemTemplate, isHiddenFrom } from '../items/items.policy.js';
import { toTemplateJson } from '../items/items.service.js';
import { type LedgerEntry, ledgerRepository } from '../ledger/ledger.repository.js';
import { partyActivityEvents } from '../ledger/ledger-events.js';
import { type Notice, type NoticeBoard, NoticeWriter, noticeLinks } from '../notifications/notices.js';
import { partiesRepository } from '../parties/parties.repository.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { systemLoot, systemLootItemKey } from './loot.catalogue.js';
import * as policy from './loot.policy.js';
import { type LootInstanceRow, type LootTemplateView, lootRepository as repo } from './loot.repository.js';
import { type PlanStack, planDistribution, seededRandom } from './loot-distribution.js';

type Record_ = (entries: LedgerEntry[]) => Promise<string[]>;
type Emit = (event: DomainEvent) => void;
type LootAction =
  | 'loot_deployed'
  | 'loot_updated'
  | 'loot_revealed'
  | 'loot_hidden'
  | 'loot_deleted'
  | 'loot_taken'
  | 'loot_claimed'
  | 'loot_distributed';
type PartyRow = NonNullable<Awaited<ReturnType<typeof partiesRepository.findParty>>>;

/**
 * A distribution lets the event loop turn after this many moves. On PGlite (one connection, in this
 * process) a distribution of hundreds of stacks would otherwise run every statement back to back without
 * the loop turning once: no socket read, no timer, no other request's work until it committed.
 */
const MOVES_BETWEEN_TURNS = 16;

/** Thrown to roll a preview's transaction back once it has answered (nothing it did is kept). */
class PreviewRollback extends Error {
  constructor(readonly result: LootDistribution) {
    super('loot distribution preview');
  }
}

function pageMeta(page: number, perPage: number, total: number) {
  return {
    current_page: page,
    per_page: perPage,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}

function toLootTemplateJson(view: LootTemplateView, userId: string, items?: LootItem[]): LootTemplate {
  const t = view.template;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    source_type: t.sourceType,
    source_type_name: lootSourceTypeNames[t.sourceType],
    source: t.source,
    tag_list: t.tags,
    visibility: t.visibility,
    items_count: view.itemsCount,
    item_units: view.itemUnits,
    coin_units: view.coinUnits,
    total_value_cp: view.totalValueCp,
    ...(items ? { loot_items: items } : {}),
    creator_id: t.creatorId,
    creator_name: view.creatorName,
    is_system: t.systemKey !== null,
    is_owner: t.creatorId !== null && t.creatorId === userId,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** Form fields → columns, for create and update alike. */
function templateColumns(form: Partial<LootTemplateForm>) {
  return {
    ...(form.name !== undefined ? { name: form.name } : {}),
    ...(form.description !== undefined ? { description: form.description } : {}),
    ...(form.source_type !== undefined ? { sourceType: form.source_type } : {}),
    ...(form.source !== undefined ? { source: form.source } : {}),
    ...(form.tag_list !== undefined ? { tags: form.tag_list } : {}),
    ...(form.visibility !== undefined ? { visibility: form.visibility } : {}),
  };
}

/** Rows about a loot carry it, and are the GM's alone while it is hidden (spec/02 §6). */
function lootTag(loot: Pick<LootInstanceRow, 'id' | 'isRevealed'>) {
  return { lootInstanceId: loot.id, gmOnly: !loot.isRevealed };
}

/**
 * Loot templates, loot deployed into parties, taking, claiming and distributing (issue 11). Every change
 * of a deployed loot runs in one transaction that locks the loot row first, then the containers in id
 * order, and writes its ledger rows; events are published after the commit, hidden loot's to the GM only.
 */
/**
 * A loot's container as the ledger names a place ("Backpack (Aria)"): "Loot (Cragmaw Ambush)". Its own
 * name, "Cragmaw Ambush loot", would name the loot twice ("Cragmaw Ambush loot (Cragmaw Ambush)").
 */
function lootPlace(loot: { name: string }): string {
  return `Loot (${loot.name})`;
}

/**
 * A character's share of a distribution, told to its player: "Mira distributed Goblin hoard: Pip received
 * 3 × Healing potion, 12 × Gold piece". A long share names its first few lines and how many more.
 */
function distributedNotice(
  actor: string,
  loot: string,
  character: string,
  items: { name: string; quantity: number }[],
): string {
  const shown = items.slice(0, 4).map((item) => `${formatEnUs(item.quantity)} × ${item.name}`);
  const more = items.length - shown.length;
  return `${actor} distributed ${loot}: ${character} received ${shown.join(', ')}${more > 0 ? ` and ${formatEnUs(more)} more` : ''}`;
}

export class LootService {
  /** Users with a distribution or preview running in this process (attack review: one at a time each). */
  readonly #distributing = new Set<string>();
  readonly #notices = new NoticeWriter();

  /** Where a player whose character the GM dealt loot to finds it told, when away (app.ts). */
  setNoticeBoard(board: NoticeBoard): void {
    this.#notices.setBoard(board);
  }

  /** Loot put into a character of someone else's, told to its player. */
  #lootNotice(
    actor: LedgerActor,
    loot: { partyId: string },
    party: { name: string },
    character: { id: string; name: string; userId: string },
    message: string,
  ): Notice {
    return {
      userId: character.userId,
      actorId: actor.id,
      kind: 'loot_received',
      partyId: loot.partyId,
      partyName: party.name,
      message,
      link: noticeLinks.character(character.id, character.name),
    };
  }

  constructor(
    private readonly db: Database,
    private readonly deps: {
      entitlements: EntitlementService;
      events: EventBus;
      moves: InventoryMoves;
      now: () => Date;
    },
  ) {
    const { entitlements } = deps;
    entitlements.registerUsageCounter('loot_templates', (db, userId) => repo.countTemplatesOf(db, userId));
    entitlements.registerUsageCounter('loot_instances', (db, userId) => repo.countInstancesOf(db, userId));
    entitlements.registerUsageCounter('loot_deployments_monthly', (db, userId, window) =>
      repo.countDeployments(db, userId, window.month),
    );
  }

  /** Upserts the system loot by key (idempotent, like the item catalogue), after the item catalogue. */
  static async seedCatalogue(tx: Executor): Promise<number> {
    const existing = await repo.systemTemplateIds(tx);
    const itemIds = await repo.itemTemplatesBySystemKey(
      tx,
      systemLoot.flatMap((l) => l.items.map(systemLootItemKey)),
    );
    for (const loot of systemLoot) {
      const values = {
        name: loot.name,
        description: loot.description,
        sourceType: loot.sourceType,
        source: loot.source,
        tags: loot.tags,
        visibility: 'public' as const,
        systemKey: loot.systemKey,
        creatorId: null,
      };
      let id = existing.get(loot.systemKey);
      if (id) await repo.updateTemplate(tx, id, values);
      else id = (await repo.insertTemplate(tx, values)).id;
      const items = loot.items.flatMap((item) => {
        const itemTemplateId = itemIds.get(systemLootItemKey(item));
        return itemTemplateId ? [{ itemTemplateId, quantity: item.quantity }] : [];
      });
      await repo.replaceSystemLootItems(tx, id, items);
    }
    return systemLoot.length;
  }

  // ---- plumbing ---------------------------------------------------------------------------------------

  /** Loot rows are never announced as plain inventory events: their own events say who may hear them. */
  #transaction<T>(work: (tx: Executor, record: Record_, emit: Emit) => Promise<T>): Promise<T> {
    return this.#notices.around((track) => this.#inTransaction(work, track));
  }

  #inTransaction<T>(
    work: (tx: Executor, record: Record_, emit: Emit) => Promise<T>,
    track: (tx: Executor) => void,
  ): Promise<T> {
    return this.deps.events.inTransaction(this.db, async (tx, emit) => {
      track(tx);
      const written: LedgerEntry[] = [];
      const result = await work(
        tx,
        (entries) => {
          written.push(...entries);
          return ledgerRepository.recordReturningIds(tx, entries);
        },
        emit,
      );
      // The activity log refreshes too; rows of hidden loot are announced to the GMs only.
      for (const event of partyActivityEvents(written)) emit(event);
      return result;
    });
  }

  #lootEvent(
    loot: Pick<LootInstanceRow, 'id' | 'partyId'>,
    action: LootAction,
    actor: LedgerActor,
    summary: string,
    options: { gmOnly: boolean; ids?: Record<string, string | null> },
  ): DomainEvent {
    return {
      channel: 'PartyInventoryChannel',
      partyId: loot.partyId,
      action,
      actor: { id: actor.id, name: actor.username },
      summary,
      ids: { loot_instance_id: loot.id, ...options.ids },
      ...(options.gmOnly ? { gmOnly: true } : {}),
    };
  }

  async #partyAccess(db: Executor, userId: string, partyId: string, lock?: 'share') {
    const found = await partiesRepository.findPartyWithAccess(db, partyId, userId, lock ? { lock } : {});
    const party = found?.party;
    const membership = found?.role ? { role: found.role } : undefined;
    const hasCharacter = found?.hasCharacter ?? false;
    return { party, access: policy.lootAccess(membership, hasCharacter) };
  }

  #lootContext(
    loot: LootInstanceRow,
    container: ContainerContext['container'],
    party: Pick<PartyRow, 'name' | 'gameMasterId' | 'isArchived'>,
  ) {
    return {
      container,
      character: null,
      // Loot has no capacity limits (its container has none), whatever the party's style.
      party: {
        id: loot.partyId,
        name: party.name,
        encumbranceStyle: 'none',
        gameMasterId: party.gameMasterId,
        isArchived: party.isArchived,
      },
      ownerName: loot.name,
      ownerId: loot.id,
    } satisfies ContainerContext;
  }

  /**
   * Locks the loot and answers who the user is to it (404 for outsiders, and for non-GMs while hidden).
   * `noWait`: a loot another transaction holds is refused at once (409) rather than waited for.
   */
  async #lockLoot(tx: Executor, userId: string, lootId: string, options: { noWait?: boolean } = {}) {
    let locked: Awaited<ReturnType<typeof repo.lockInstanceForUser>>;
    try {
      locked = await repo.lockInstanceForUser(tx, userId, lootId, options);
    } catch (error) {
      if (isLockNotAvailable(error)) throw new AppError('CONFLICT', lootMessages.lootBusy);
      throw error;
    }
    if (!locked) throw AppError.notFound(lootMessages.instanceNotFound);
    const { loot, party, role, hasCharacter, container } = locked;
    const access = policy.lootAccess(role ? { role } : undefined, hasCharacter);
    if (!party || !policy.canSee(access, loot)) throw AppError.notFound(lootMessages.instanceNotFound);
    if (!container) throw new AppError('INTERNAL_SERVER_ERROR', `loot ${loot.id} has no container`);
    return { loot, party, access, container };
  }

  // ---- templates --------------------------------------------------------------------------------------

  async #readableTemplate(db: Executor, userId: string, id: string): Promise<LootTemplateView> {
    const view = await repo.templateView(db, id, userId);
    if (!view || !policy.canReadTemplate(view.template, userId))
      throw AppError.notFound(lootMessages.templateNotFound);
    return view;
  }

  async #lootItemsJson(db: Executor, userId: string, templateIds: string[]) {
    const rows = await repo.lootItems(db, templateIds, userId);
    const byTemplate = new Map<string, LootItem[]>();
    for (const row of rows) {
      const line = {
        id: row.item.id,
        loot_template_id: row.item.lootTemplateId,
        item_template_id: row.item.itemTemplateId,
        quantity: row.item.quantity,
      };
      const value = copperValue(row.template.baseValue, row.template.currency);
      const item: LootItem = isHiddenFrom(row.template, userId)
        ? // Private to someone else: the line is there, but nothing of the item, its worth included.
          {
            ...line,
            item_template: null,
            coin: null,
            value_cp: null,
            total_value_cp: null,
            available: false,
          }
        : {
            ...line,
            item_template: toTemplateJson({ template: row.template, creatorName: row.creatorName }, userId),
            coin: coinOfSystemKey(row.template.systemKey),
            value_cp: value,
            total_value_cp: value * row.item.quantity,
            available: canReadItemTemplate(row.template, userId),
          };
      byTemplate.set(row.item.lootTemplateId, [...(byTemplate.get(row.item.lootTemplateId) ?? []), item]);
    }
    return byTemplate;
  }

  async listTemplates(userId: string, query: LootTemplateListQuery) {
    const { rows, total } = await repo.listTemplates(this.db, {
      userId,
      page: query.page,
      perPage: query.per_page,
      sort: query.sort,
      direction: query.direction,
      ...(query.visibility ? { visibility: query.visibility } : {}),
      ...(query.mine ? { mine: true } : {}),
      ...(query.creator_id ? { creatorId: query.creator_id } : {}),
      ...(query.search && query.search !== '*' ? { search: query.search } : {}),
      ...(query.source_type ? { sourceType: query.source_type } : {}),
      ...(query.tags.length ? { tags: query.tags } : {}),
    });
    const ids = rows.map((r) => r.template.id);
    const items = query.include?.includes('loot_items')
      ? await this.#lootItemsJson(this.db, userId, ids)
      : undefined;
    return {
      data: rows.map((r) =>
        toLootTemplateJson(r, userId, items ? (items.get(r.template.id) ?? []) : undefined),
      ),
      meta: pageMeta(query.page, query.per_page, total),
    };
  }

  async getTemplate(userId: string, id: string): Promise<LootTemplate> {
    const view = await this.#readableTemplate(this.db, userId, id);
    const items = await this.#lootItemsJson(this.db, userId, [id]);
    return toLootTemplateJson(view, userId, items.get(id) ?? []);
  }

  async createTemplate(actor: LedgerActor, form: LootTemplateForm): Promise<LootTemplate> {
    const id = await this.db.transaction(async (tx) => {
      await this.deps.entitlements.requireLimit(tx, actor.id, 'loot_templates');
      return (
        await repo.insertTemplate(tx, { ...templateColumns(form), name: form.name, creatorId: actor.id })
      ).id;
    });
    return this.getTemplate(actor.id, id);
  }

  async #ownedTemplate(tx: Executor, userId: string, id: string) {
    const template = await repo.lockTemplate(tx, id);
    if (!template || !policy.canReadTemplate(template, userId))
      throw AppError.notFound(lootMessages.templateNotFound);
    policy.assertTemplateOwner(template, userId);
    return template;
  }

  async updateTemplate(actor: LedgerActor, id: string, changes: LootTemplateUpdate): Promise<LootTemplate> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      await repo.updateTemplate(tx, id, templateColumns(changes));
    });
    return this.getTemplate(actor.id, id);
  }

  /** Deployed loot stays: it was stocked from the template when it was deployed. */
  async deleteTemplate(actor: LedgerActor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      await repo.deleteTemplate(tx, id);
    });
  }

  /** A private copy of a template the user can read (the catalogue's included); counts as a template. */
  async duplicateTemplate(actor: LedgerActor, id: string): Promise<LootTemplate> {
    const newId = await this.db.transaction(async (tx) => {
      const source = await this.#readableTemplate(tx, actor.id, id);
      await this.deps.entitlements.requireLimit(tx, actor.id, 'loot_templates');
      const t = source.template;
      const copy = await repo.insertTemplate(tx, {
        name: await repo.copyName(tx, actor.id, t.name, 99),
        description: t.description,
        sourceType: t.sourceType,
        source: t.source,
        tags: t.tags,
        visibility: 'private',
        creatorId: actor.id,
      });
      await repo.copyLootItems(tx, t.id, copy.id, actor.id);
      return copy.id;
    });
    return this.getTemplate(actor.id, newId);
  }

  async lootItems(userId: string, id: string): Promise<LootItem[]> {
    return (await this.getTemplate(userId, id)).loot_items ?? [];
  }

  /** Adding an item (or a coin) already on the list adds to its quantity instead of listing it twice. */
  async addItem(actor: LedgerActor, id: string, form: LootItemForm): Promise<LootItem> {
    const itemId = await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      let itemTemplateId: string;
      if (form.currency) {
        itemTemplateId = (await this.deps.moves.coin(tx, form.currency)).id;
      } else {
        const item = await inventoryRepository.template(tx, form.item_template_id ?? '');
        const readable =
          item && !item.deletedAt && (item.visibility !== 'private' || item.creatorId === actor.id);
        if (!item || !readable) {
          throw AppError.validation([{ field: 'item_template_id', message: lootMessages.itemDoesNotExist }]);
        }
        itemTemplateId = item.id;
      }
      const existing = await repo.lootItemByItemTemplate(tx, id, itemTemplateId);
      let rowId: string;
      if (existing) {
        const quantity = existing.quantity + form.quantity;
        if (quantity > MAX_STACK_QUANTITY) {
          throw AppError.validation([{ field: 'quantity', message: 'Quantity can be at most 10,000,000' }]);
        }
        await repo.updateLootItem(tx, existing.id, quantity);
        rowId = existing.id;
      } else {
        if ((await repo.countLootItems(tx, id)) >= MAX_LOOT_ITEMS) {
          throw AppError.validation([{ field: 'item_template_id', message: lootMessages.tooManyItems }]);
        }
        rowId = (
          await repo.insertLootItem(tx, { lootTemplateId: id, itemTemplateId, quantity: form.quantity })
        ).id;
      }
      await repo.updateTemplate(tx, id, {});
      return rowId;
    });
    return this.#oneLootItem(actor.id, id, itemId);
  }

  async updateItem(actor: LedgerActor, id: string, itemId: string, quantity: number): Promise<LootItem> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      if (!(await repo.lootItem(tx, id, itemId))) throw AppError.notFound(lootMessages.lootItemNotFound);
      await repo.updateLootItem(tx, itemId, quantity);
      await repo.updateTemplate(tx, id, {});
    });
    return this.#oneLootItem(actor.id, id, itemId);
  }

  async removeItem(actor: LedgerActor, id: string, itemId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#ownedTemplate(tx, actor.id, id);
      if (!(await repo.lootItem(tx, id, itemId))) throw AppError.notFound(lootMessages.lootItemNotFound);
      await repo.deleteLootItem(tx, itemId);
      await repo.updateTemplate(tx, id, {});
    });
  }

  async #oneLootItem(userId: string, templateId: string, itemId: string): Promise<LootItem> {
    const item = (await this.lootItems(userId, templateId)).find((i) => i.id === itemId);
    if (!item) throw AppError.notFound(lootMessages.lootItemNotFound);
    return item;
  }

  // ---- instances --------------------------------------------------------------------------------------

  async #instanceJson(
    db: Executor,
    userId: string,
    lootId: string,
    known?: { access: policy.LootAccess },
  ): Promise<LootInstance> {
    const row = await repo.instance(db, lootId);
    if (!row) throw AppError.notFound(lootMessages.instanceNotFound);
    const access = known?.access ?? (await this.#partyAccess(db, userId, row.loot.partyId)).access;
    if (!policy.canSee(access, row.loot)) throw AppError.notFound(lootMessages.instanceNotFound);
    const container = await repo.containerOf(db, lootId);
    const stacks = container ? await repo.stacks(db, container.id) : [];
    const claimedBy = (await repo.claimedBy(db, [lootId])).get(lootId) ?? [];
    const items = stacks.map((s) => toInstanceJson(s.instance, s.template));
    const summary = this.#summaryJson(row, access, container ?? null, items, claimedBy);
    return { ...summary, container: { ...summary.container, item_instances: items } };
  }

  /** A loot without its stacks: what a row of the party's list carries, and the detail too. */
  #summaryJson(
    row: { loot: LootInstanceRow; partyName: string; templateName: string | null },
    access: policy.LootAccess,
    container: { id: string; name: string } | null,
    items: ItemInstance[],
    claimedBy: { id: string; name: string }[],
  ): LootInstanceSummary {
    const l = row.loot;
    return {
      id: l.id,
      loot_template_id: l.lootTemplateId,
      loot_template:
        l.lootTemplateId && row.templateName ? { id: l.lootTemplateId, name: row.templateName } : null,
      party_id: l.partyId,
      party: { id: l.partyId, name: row.partyName },
      name: l.name,
      description: l.description,
      source: l.source,
      source_type: l.sourceType,
      is_revealed: l.isRevealed,
      revealed_at: l.revealedAt?.toISOString() ?? null,
      instance_data: { location_name: l.instanceData.location_name ?? null },
      claimed_by: claimedBy,
      distributed_at: l.distributedAt?.toISOString() ?? null,
      distribution_mode: l.distributionMode,
      container: { id: container?.id ?? '', name: container?.name ?? '' },
      // Kinds of items, as a template counts its lines (non-stacking items are a stack each).
      items_count: new Set(items.map((i) => i.item_template_id)).size,
      // By the unit, as the template's card counts them: coins apart, since they show as worth.
      item_units: saturatingSum(items.filter((i) => i.item_template.coin === null).map((i) => i.quantity)),
      coin_units: saturatingSum(items.filter((i) => i.item_template.coin !== null).map((i) => i.quantity)),
      // Each stack's worth is exact; their sum may pass the safe range (MAX_REPORTED_SUM) and saturates.
      total_value_cp: saturatingSum(items.map((i) => i.value_cp * i.quantity)),
      can_manage: access.isGm,
      can_take: access.canTake && l.isRevealed,
      created_at: l.createdAt.toISOString(),
      updated_at: l.updatedAt.toISOString(),
    };
  }

  async getInstance(userId: string, id: string): Promise<LootInstance> {
    return this.#instanceJson(this.db, userId, id);
  }

  /**
   * The loot's name and whether it is revealed, if the user may see it now (the rule of getInstance, without
   * reading its contents); undefined otherwise. A share link lists what it points at through this.
   */
  async seenBy(userId: string, id: string): Promise<{ name: string; isRevealed: boolean } | undefined> {
    const row = await repo.instance(this.db, id);
    if (!row) return undefined;
    const { access } = await this.#partyAccess(this.db, userId, row.loot.partyId);
    if (!policy.canSee(access, row.loot)) return undefined;
    return { name: row.loot.name, isRevealed: row.loot.isRevealed };
  }

  /**
   * spec/02 §7 GET parties/{id}/loot_instances: every loot for the GM, revealed loot for the others, each
   * without its stacks (the detail has them). A fixed number of statements, whatever the page's size.
   */
  async listForParty(userId: string, partyId: string, query: LootInstanceListQuery) {
    const { party, access } = await this.#partyAccess(this.db, userId, partyId);
    if (!party || !access.isMember) throw AppError.notFound('Party not found.');
    const { rows, total } = await repo.listInstances(this.db, {
      partyId,
      revealedOnly: !access.isGm,
      page: query.page,
      perPage: query.per_page,
      ...(query.is_revealed !== undefined ? { isRevealed: query.is_revealed } : {}),
      ...(query.search ? { search: query.search } : {}),
    });
    const ids = rows.map((r) => r.loot.id);
    const containers = await repo.containersOf(this.db, ids);
    const stacks = await repo.stacksOf(
      this.db,
      [...containers.values()].map((c) => c.id),
    );
    const claimed = await repo.claimedBy(this.db, ids);
    const data = rows.map((r) => {
      const container = containers.get(r.loot.id) ?? null;
      const items = (container ? (stacks.get(container.id) ?? []) : []).map((s) =>
        toInstanceJson(s.instance, s.template),
      );
      return this.#summaryJson(r, access, container, items, claimed.get(r.loot.id) ?? []);
    });
    return { data, meta: pageMeta(query.page, query.per_page, total) };
  }

  /** Issue 11 §8 GET parties/{id}/loot_summary: what each character has received from loot so far. */
  async summary(userId: string, partyId: string): Promise<LootSummary> {
    const { party, access } = await this.#partyAccess(this.db, userId, partyId);
    if (!party || !access.isMember) throw AppError.notFound('Party not found.');
    const rows = await repo.receivedSummary(this.db, partyId);
    return rows.map((r) => ({
      character_id: r.id,
      name: r.name,
      value_cp: r.valueCp,
      items_count: r.items,
    }));
  }

  /** Deploys a template into a party (the GM): hidden, with its own container stocked through the ledger. */
  async deploy(actor: LedgerActor, input: LootInstanceCreate): Promise<LootInstance> {
    return this.#transaction(async (tx, record, emit) => {
      // Held until the loot is in: a deletion of the party takes turns with it, and then finds the new loot
      // among what it destroys (else the loot's contents would stop the party's rows from going: a 500).
      const { party, access } = await this.#partyAccess(tx, actor.id, input.party_id, 'share');
      if (!party || !access.isMember) throw AppError.notFound('Party not found.');
      if (!access.isGm) throw new AppError('FORBIDDEN', partyMessages.gmOnly);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      // The GM may delete the template meanwhile: the new loot's reference to it must not meet a deleted row.
      await repo.holdTemplate(tx, input.loot_template_id);
      const view = await repo.templateView(tx, input.loot_template_id, actor.id);
      if (!view || !policy.canReadTemplate(view.template, actor.id)) {
        throw AppError.validation([
          { field: 'loot_instance.loot_template_id', message: lootMessages.templateNotFound },
        ]);
      }
      const context = { partyId: party.id };
      await this.deps.entitlements.requireLimit(tx, actor.id, 'loot_instances', 1, context);
      await this.deps.entitlements.requireLimit(tx, actor.id, 'loot_deployments_monthly', 1, context);
      const t = view.template;
      const locationName =
        input.location_name !== undefined
          ? input.location_name
          : (input.instance_data?.location_name ?? null);
      const loot = await repo.insertInstance(tx, {
        partyId: party.id,
        lootTemplateId: t.id,
        name: input.name ?? t.name,
        description: input.description ?? t.description,
        source: input.source ?? t.source,
        sourceType: t.sourceType,
        instanceData: { location_name: locationName || null },
        isRevealed: false,
        createdBy: actor.id,
      });
      const container = await inventoryRepository.insertContainer(tx, {
        name: `${loot.name} loot`,
        lootInstanceId: loot.id,
        isPrimary: true,
      });
      const tag = lootTag(loot);
      const lootContext = this.#lootContext(loot, container, party);
      // The whole loot in a few statements, as a shop's stock (a 100-line template made 300 stacks and 100
      // ledger rows one statement at a time): the lines' templates in one read, the stacks and the ledger
      // rows in multi-row inserts. A template is on a loot template once (its unique index).
      const items = await repo.lootItems(tx, [t.id], actor.id);
      const templates = await inventoryRepository.templates(
        tx,
        items.map(({ item }) => item.itemTemplateId),
      );
      const lines = items.flatMap(({ item }) => {
        const template = templates.get(item.itemTemplateId);
        // A line whose item was deleted (or made private) since it was listed is left out, as the page says.
        return template && canReadItemTemplate(template, actor.id)
          ? [{ template, quantity: item.quantity }]
          : [];
      });
      const stacks = await this.deps.moves.stockNew(tx, lootContext, lines);
      // Every row as before, in the same order: the container's, then one per line.
      await record([
        {
          transactionType: 'container_creation',
          partyId: party.id,
          actorId: actor.id,
          actorName: actor.username,
          targetName: loot.name,
          targetId: loot.id,
          destinationContainerId: container.id,
          destinationName: container.name,
          details: { reason: 'loot_deployment', loot_instance_id: loot.id, loot_template_id: t.id },
          summary: `${actor.username} deployed ${loot.name}`,
          ...tag,
        },
        ...lines.map(
          ({ template, quantity }, line): LedgerEntry => ({
            transactionType: 'create',
            partyId: party.id,
            actorId: actor.id,
            actorName: actor.username,
            targetName: loot.name,
            targetId: loot.id,
            itemTemplateId: template.id,
            itemInstanceId: stacks[line]?.[0] ?? null,
            itemName: template.name,
            quantity,
            destinationContainerId: container.id,
            destinationName: container.name,
            details: { reason: 'loot_deployment', loot_instance_id: loot.id },
            summary: `${loot.name} holds ${formatEnUs(quantity)} × ${template.name}`,
            ...tag,
          }),
        ),
      ]);
      // Hidden on deploy: only the GM hears of it (spec/02 §6).
      emit(
        this.#lootEvent(loot, 'loot_deployed', actor, `${actor.username} deployed ${loot.name}`, {
          gmOnly: true,
        }),
      );
      return this.#instanceJson(tx, actor.id, loot.id);
    });
  }

  /** Edits, reveals (is_revealed true) or hides (is_revealed false) a loot: the GM only. */
  async updateInstance(actor: LedgerActor, id: string, changes: LootInstanceUpdate): Promise<LootInstance> {
    return this.#transaction(async (tx, _record, emit) => {
      const { loot, party, access } = await this.#lockLoot(tx, actor.id, id);
      policy.assertGm(access, loot);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const locationName =
        changes.location_name !== undefined ? changes.location_name : changes.instance_data?.location_name;
      const revealing = changes.is_revealed === true && !loot.isRevealed;
      const hiding = changes.is_revealed === false && loot.isRevealed;
      // Hiding makes the loot's rows the GMs' alone (spec/02 §6): once it is distributed, that would
      // erase from every player's history how they came by what they now hold.
      if (hiding && loot.distributedAt) {
        throw new AppError('ALREADY_DISTRIBUTED', lootMessages.alreadyDistributed);
      }
      // The same for a take or a claim: what a player received from it would vanish from their history.
      if (hiding && (await repo.anythingTaken(tx, loot.id))) {
        throw new AppError('CONFLICT', lootMessages.takenCannotHide);
      }
      const edited =
        changes.name !== undefined ||
        changes.description !== undefined ||
        changes.source !== undefined ||
        locationName !== undefined;
      await repo.updateInstance(tx, id, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.source !== undefined ? { source: changes.source } : {}),
        ...(locationName !== undefined
          ? { instanceData: { ...loot.instanceData, location_name: locationName || null } }
          : {}),
        ...(revealing ? { isRevealed: true, revealedAt: this.deps.now() } : {}),
        ...(hiding ? { isRevealed: false, revealedAt: null } : {}),
      });
      const name = changes.name ?? loot.name;
      const hiddenNow = hiding || (!loot.isRevealed && !revealing);
      if (edited) {
        emit(
          this.#lootEvent(loot, 'loot_updated', actor, `${actor.username} updated ${name}`, {
            gmOnly: hiddenNow,
          }),
        );
      }
      if (revealing) {
        emit(
          this.#lootEvent(loot, 'loot_revealed', actor, `${actor.username} revealed ${name}`, {
            gmOnly: false,
          }),
        );
        // Told to every member with a character in the party, found on their return (review "returning"
        // finding 4); not to the GM who revealed it. Only hidden loot becoming revealed is told.
        const members = await repo.membersWithCharacters(tx, loot.partyId);
        await this.#notices.write(
          tx,
          members.map(
            (userId): Notice => ({
              userId,
              actorId: actor.id,
              kind: 'loot_revealed',
              partyId: loot.partyId,
              partyName: party.name,
              message: `${actor.username} revealed ${name} in ${party.name}`,
              link: noticeLinks.partyLoot(loot.partyId),
            }),
          ),
        );
      }
      if (hiding) {
        // The party is told only that it went (the id it already knew), so its screens drop it.
        emit(this.#lootEvent(loot, 'loot_hidden', actor, lootMessages.hidden, { gmOnly: false }));
      }
      // Answered as committed, read before the locks go: the loot may be taken or deleted right after.
      return this.#instanceJson(tx, actor.id, id);
    });
  }

  async reveal(actor: LedgerActor, id: string): Promise<LootInstance> {
    return this.updateInstance(actor, id, { is_revealed: true });
  }

  /** The contents go with the loot, one `delete` ledger row per stack. */
  async deleteInstance(actor: LedgerActor, id: string): Promise<void> {
    await this.#transaction(async (tx, record, emit) => {
      const { loot, party, access, container } = await this.#lockLoot(tx, actor.id, id);
      policy.assertGm(access, loot);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const tag = lootTag(loot);
      const details = { reason: 'loot_deletion', loot_instance_id: loot.id };
      await destroyContainerContents(
        tx,
        [container.id],
        actor,
        'delete',
        { partyId: loot.partyId, characterId: null, targetName: loot.name, targetId: loot.id },
        { ...tag, details },
      );
      await record([
        {
          transactionType: 'container_deletion',
          partyId: loot.partyId,
          actorId: actor.id,
          actorName: actor.username,
          targetName: loot.name,
          targetId: loot.id,
          sourceContainerId: container.id,
          sourceName: container.name,
          details,
          summary: `${actor.username} removed ${loot.name} and what was left in it`,
          ...tag,
        },
      ]);
      await inventoryRepository.deleteContainer(tx, container.id);
      await repo.markDeleted(tx, id, this.deps.now());
      emit(
        this.#lootEvent(loot, 'loot_deleted', actor, `${actor.username} removed ${loot.name}`, {
          gmOnly: !loot.isRevealed,
        }),
      );
    });
  }

  // ---- taking and claiming ----------------------------------------------------------------------------

  /** A stack of this loot, locked; a stack already taken says so (409), anything else is not here (404). */
  async #lootStack(tx: Executor, loot: LootInstanceRow, containerId: string, stackId: string) {
    const stack = await inventoryRepository.lockInstance(tx, stackId);
    if (stack && stack.containerId === containerId) return stack;
    if (await repo.stackWasTaken(tx, loot.id, stackId))
      throw new AppError('CONFLICT', lootMessages.alreadyTaken);
    throw AppError.notFound(lootMessages.notInLoot);
  }

  /**
   * The stacks a take or a claim moves: `quantity` (undefined: all of it) of the line the named stack is
   * on, as the loot page groups it (`lootLineKey`: three swords, a stack each, are one line of 3), the
   * named stack first, then the line's others oldest first. The caller holds the loot container's lock, so
   * the line cannot change underneath; its stacks are locked here.
   */
  async #lootLine(
    tx: Executor,
    loot: LootInstanceRow,
    containerId: string,
    stackId: string,
    quantity: number | undefined,
  ) {
    const named = await this.#lootStack(tx, loot, containerId, stackId);
    const key = lootLineKey(named);
    // Only a take larger than the named stack reads the rest of its line (most take from one stack).
    const rest =
      key !== null && (quantity === undefined || quantity > named.quantity)
        ? (await inventoryRepository.plainStacks(tx, containerId, named.itemTemplateId)).filter(
            (other) => other.id !== named.id && lootLineKey(other) === key,
          )
        : [];
    const line = [named, ...rest];
    const wanted = quantity ?? line.reduce((sum, stack) => sum + stack.quantity, 0);
    const { parts, inLine } = takeFromLine(line, wanted);
    if (inLine < wanted) {
      const message = lootMessages.onlyLeft(inLine);
      throw new AppError('CONFLICT', message, { details: [{ field: 'quantity', message }] });
    }
    return { quantity: wanted, parts };
  }

  /**
   * Moves the parts of a loot line into a character's container and writes its one `loot` row (one action,
   * naming every stack it took from). The caller has locked the loot, both containers and authorised the
   * actor.
   */
  async #takeInto(
    tx: Executor,
    record: Record_,
    emit: Emit,
    args: {
      kind: 'take' | 'claim';
      actor: LedgerActor;
      loot: LootInstanceRow;
      lootContainer: ContainerContext['container'];
      target: ContainerContext;
      parts: { id: string; quantity: number }[];
      quantity: number;
    },
  ) {
    const { actor, loot, lootContainer, target } = args;
    await this.deps.moves.countAction(tx, actor.id, 'party', loot.partyId);
    const targetIds: string[] = [];
    let moved: Awaited<ReturnType<InventoryMoves['moveStack']>> | undefined;
    for (const part of args.parts) {
      moved = await this.deps.moves.moveStack(tx, part.id, target, part.quantity);
      targetIds.push(...moved.targetIds);
    }
    const [first] = args.parts;
    if (!moved || !first) throw AppError.notFound(lootMessages.notInLoot);
    const verb = args.kind === 'claim' ? 'claimed' : 'took';
    const summary = `${actor.username} ${verb} ${formatEnUs(args.quantity)} × ${moved.facts.name} from ${loot.name} for ${target.ownerName}`;
    // The GM taking from the loot for a player's character: the player is told.
    if (target.character && target.character.userId !== actor.id)
      await this.#notices.write(tx, [
        this.#lootNotice(actor, loot, target.party ?? { name: loot.name }, target.character, summary),
      ]);
    const transactionIds = await record([
      {
        transactionType: 'loot',
        partyId: loot.partyId,
        characterId: target.character?.id ?? null,
        actorId: actor.id,
        actorName: actor.username,
        targetName: target.ownerName,
        targetId: target.ownerId,
        scope: 'party',
        itemTemplateId: moved.template.id,
        itemInstanceId: targetIds[0] ?? null,
        itemName: moved.facts.name,
        quantity: args.quantity,
        sourceContainerId: lootContainer.id,
        sourceName: lootPlace(loot),
        destinationContainerId: target.container.id,
        destinationName: `${target.container.name} (${target.ownerName})`,
        details: {
          reason: args.kind,
          loot_instance_id: loot.id,
          source_item_instance_id: first.id,
          // Every stack of the line it took from: a taker too late for any of them is told it was taken.
          source_item_instance_ids: args.parts.map((part) => part.id),
          // What it was worth when received (overrides included), for the Loot received summary; the
          // line's stacks are identical, so worth the same each.
          value_cp: moved.facts.valueCp * args.quantity,
        },
        summary,
        ...lootTag(loot),
      },
    ]);
    emit(
      this.#lootEvent(loot, args.kind === 'claim' ? 'loot_claimed' : 'loot_taken', actor, summary, {
        gmOnly: false,
        ids: {
          item_instance_id: first.id,
          destination_container_id: target.container.id,
          character_id: target.character?.id ?? null,
        },
      }),
    );
    return { targetIds, transactionIds };
  }

  async #takeResult(
    kind: 'take' | 'claim',
    lootId: string,
    quantity: number,
    r: { targetIds: string[]; transactionIds: string[] },
  ): Promise<LootTakeResult> {
    const rows = await inventoryRepository.instancesWithTemplates(this.db, r.targetIds);
    return {
      kind,
      message: kind === 'claim' ? lootMessages.claimed : lootMessages.taken,
      loot_instance_id: lootId,
      quantity,
      item_instances: rows.map((row) => toInstanceJson(row.instance, row.template)),
      transaction_ids: r.transactionIds,
    };
  }

  /**
   * spec/02 §4 loot to container (take): part or all of a line of identical stacks (all of it when no
   * quantity is given) into a container of my character.
   */
  async take(actor: LedgerActor, id: string, input: LootTake): Promise<LootTakeResult> {
    let quantity = 0;
    const result = await this.#transaction(async (tx, record, emit) => {
      const { loot, party, access, container } = await this.#lockLoot(tx, actor.id, id);
      policy.assertCanTake(access, loot);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      // Every container of the move at once, in id order, so takes never deadlock with other moves.
      const located = await inventoryRepository.lockContextsForUser(tx, actor.id, [
        container.id,
        input.target_container_id,
      ]);
      const target = located.get(input.target_container_id)?.context;
      const owner = target?.character;
      if (
        !target ||
        !owner ||
        owner.partyId !== loot.partyId ||
        (owner.userId !== actor.id && !access.isGm)
      ) {
        throw AppError.validation([
          { field: 'target_container_id', message: lootMessages.containerNotCharacters },
        ]);
      }
      const line = await this.#lootLine(tx, loot, container.id, input.item_instance_id, input.quantity);
      quantity = line.quantity;
      return this.#takeInto(tx, record, emit, {
        kind: 'take',
        actor,
        loot,
        lootContainer: container,
        target,
        ...line,
      });
    });
    return this.#takeResult('take', id, quantity, result);
  }

  /** spec/02 §3 Claim: a whole line of identical stacks to a character (into its main container). */
  async claim(actor: LedgerActor, id: string, input: LootClaim): Promise<LootTakeResult> {
    let quantity = 0;
    const result = await this.#transaction(async (tx, record, emit) => {
      const { loot, party, access, container } = await this.#lockLoot(tx, actor.id, id);
      policy.assertCanTake(access, loot);
      if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
      const [recipient] = await repo.recipients(tx, [input.character_id]);
      const wrong = () =>
        AppError.validation([
          {
            field: 'claim.character_id',
            message: access.isGm ? lootMessages.characterNotInParty : lootMessages.notYourCharacter,
          },
        ]);
      if (!recipient?.containerId || recipient.partyId !== loot.partyId) throw wrong();
      const located = await inventoryRepository.lockContextsForUser(tx, actor.id, [
        container.id,
        recipient.containerId,
      ]);
      const target = located.get(recipient.containerId)?.context;
      const owner = target?.character;
      if (!target || !owner || owner.partyId !== loot.partyId || (owner.userId !== actor.id && !access.isGm))
        throw wrong();
      const line = await this.#lootLine(tx, loot, container.id, input.item_instance_id, undefined);
      quantity = line.quantity;
      return this.#takeInto(tx, record, emit, {
        kind: 'claim',
        actor,
        loot,
        lootContainer: container,
        target,
        ...line,
      });
    });
    return this.#takeResult('claim', id, quantity, result);
  }

  // ---- distribution -----------------------------------------------------------------------------------

  /**
   * spec/02 §3 Distribute (DESIGN §4 modes). A preview runs the very same distribution in a transaction
   * that is then rolled back, so it answers exactly what confirming would do, overflow to the stash
   * included; a random draw is repeated by sending the preview's seed back.
   */
  async distribute(actor: LedgerActor, id: string, input: LootDistribute): Promise<LootDistribution> {
    // Attack review: each run holds a database connection for as long as it moves things, so one user
    // runs one at a time. Checked and taken before any await, so two sent together cannot both pass.
    if (this.#distributing.has(actor.id)) {
      throw new AppError('RATE_LIMITED', lootMessages.distributionRunning, {
        headers: { 'retry-after': '1' },
      });
    }
    this.#distributing.add(actor.id);
    try {
      return await this.#distributeOnce(actor, id, input);
    } finally {
      this.#distributing.delete(actor.id);
    }
  }

  async #distributeOnce(actor: LedgerActor, id: string, input: LootDistribute): Promise<LootDistribution> {
    const seed = input.seed ?? randomInt(2_147_483_647);
    if (input.preview) {
      try {
        await this.db.transaction(async (tx) => {
          const result = await this.#distribute(
            tx,
            (entries) => ledgerRepository.recordReturningIds(tx, entries),
            () => {},
            actor,
            id,
            input,
            seed,
          );
          throw new PreviewRollback({ ...result, preview: true, transaction_ids: [] });
        });
      } catch (error) {
        if (error instanceof PreviewRollback) return error.result;
        throw error;
      }
      throw new AppError('INTERNAL_SERVER_ERROR', 'a preview finished without an answer');
    }
    return this.#transaction((tx, record, emit) =>
      this.#distribute(tx, record, emit, actor, id, input, seed),
    );
  }

  async #distribute(
    tx: Executor,
    record: Record_,
    emit: Emit,
    actor: LedgerActor,
    id: string,
    input: LootDistribute,
    seed: number,
  ): Promise<LootDistribution> {
    // Attack review: a distribution queued behind another one (or a take) held its pooled connection the
    // whole time, and enough of them left every other request waiting for one. It is refused instead.
    const { loot, party, access, container } = await this.#lockLoot(tx, actor.id, id, { noWait: true });
    policy.assertGm(access, loot);
    if (party.isArchived) throw new AppError('FORBIDDEN', partyMessages.archived);
    await this.deps.entitlements.requireFeature(tx, actor.id, 'loot_distribution', { partyId: loot.partyId });
    if (loot.distributedAt) throw new AppError('ALREADY_DISTRIBUTED', lootMessages.alreadyDistributed);
    if (!loot.isRevealed) throw new AppError('CONFLICT', lootMessages.revealBeforeDistributing);
    const found = await repo.recipients(tx, input.character_ids);
    const recipients = input.character_ids.map((cid) => found.find((r) => r.id === cid));
    if (recipients.some((r) => !r || r.partyId !== loot.partyId)) {
      throw AppError.validation([
        { field: 'distribute.character_ids', message: lootMessages.characterNotInParty },
      ]);
    }
    const [stash] = await inventoryRepository.listForOwner(tx, { partyId: loot.partyId });
    await inventoryRepository.lockContainers(tx, [
      container.id,
      ...recipients.flatMap((r) => (r?.containerId ? [r.containerId] : [])),
      ...(stash ? [stash.id] : []),
    ]);
    const stacks = await repo.stacks(tx, container.id);
    // A confirmation does what its preview said, or nothing: a take or claim since then refuses it.
    const contentsFingerprint = lootContentsFingerprint(stacks.map((s) => s.instance));
    if (input.contents_fingerprint !== undefined && input.contents_fingerprint !== contentsFingerprint) {
      throw new AppError('CONFLICT', lootMessages.changedSincePreview, {
        details: [{ field: 'distribute.contents_fingerprint', message: lootMessages.changedSincePreview }],
      });
    }
    if (stacks.length === 0) throw new AppError('CONFLICT', lootMessages.nothingToDistribute);

    const planStacks: PlanStack[] = stacks.map(({ instance, template }) => {
      const plain = !hasOverrides(instance.instanceData);
      return {
        id: instance.id,
        kind: plain ? `template:${template.id}` : `stack:${instance.id}`,
        quantity: instance.quantity,
        unitValueCp: effectiveFacts(templateFacts(template), instance.instanceData).valueCp,
        coin: plain ? coinOfSystemKey(template.systemKey) : null,
      };
    });
    const totalValueCp = saturatingSum(planStacks.map((s) => s.quantity * s.unitValueCp));
    const plan = planDistribution(planStacks, recipients.length, input.distribution_mode, seededRandom(seed));
    // One distribution is one inventory action of the GM (DESIGN §5), like one purchase.
    await this.deps.moves.countAction(tx, actor.id, 'party', loot.partyId);

    const lootContext = this.#lootContext(loot, container, party);
    const stashContext = stash ? await inventoryRepository.context(tx, stash.id) : undefined;
    const targets = await Promise.all(
      recipients.map(async (r) =>
        r?.containerId ? await inventoryRepository.context(tx, r.containerId) : undefined,
      ),
    );
    const shares: LootDistribution['recipients'] = recipients.map((r) => ({
      character_id: r?.id ?? '',
      name: r?.name ?? '',
      value_cp: 0,
      items: [],
    }));
    const rows: string[] = [];
    // The moves' ledger rows, written together once every move is done (in batches, not one INSERT each).
    const entries: LedgerEntry[] = [];
    let moves = 0;
    let overflow = false;
    const details = { reason: 'loot_distribution', loot_instance_id: loot.id, mode: input.distribution_mode };
    const summaryOf = (quantity: number, name: string, to: string) =>
      `${actor.username} gave ${formatEnUs(quantity)} × ${name} from ${loot.name} to ${to}`;

    /** One move of the distribution: to the character, or to the stash when the character's is full. */
    const deal = async (stackId: string, index: number, quantity: number) => {
      const character = recipients[index];
      const share = shares[index];
      if (!character || !share) return;
      const own = targets[index];
      let destination: ContainerContext | undefined = own;
      let moved: Awaited<ReturnType<InventoryMoves['moveStack']>> | undefined;
      if (own) {
        try {
          // Every character's first container is a Backpack: a refusal says whose.
          moved = await this.deps.moves.moveStack(tx, stackId, own, quantity, { nameOwner: true });
        } catch (error) {
          // The capacity check refuses before anything is written, so the same move can go to the stash.
          if (!(error instanceof AppError) || error.code !== 'CAPACITY_EXCEEDED') throw error;
        }
      }
      if (!moved) {
        if (!stashContext) {
          throw new AppError('CAPACITY_EXCEEDED', lootMessages.noStashForOverflow(character.name), {
            details: [
              { field: 'distribute.character_ids', message: lootMessages.noStashForOverflow(character.name) },
            ],
          });
        }
        destination = stashContext;
        moved = await this.deps.moves.moveStack(tx, stackId, stashContext, quantity);
        overflow = true;
      }
      if (!destination) return;
      moves += 1;
      if (moves % MOVES_BETWEEN_TURNS === 0) await nextTurn();
      const toStash = destination === stashContext;
      entries.push({
        transactionType: 'loot_distribution',
        partyId: loot.partyId,
        // A share kept in the stash is still the character's: it belongs in their history and names them.
        characterId: character.id,
        actorId: actor.id,
        actorName: actor.username,
        targetName: character.name,
        targetId: character.id,
        notes: toStash ? lootMessages.shareInStash(character.name) : null,
        // One distribution counts one action: only its first row carries the scope.
        scope: entries.length === 0 ? 'party' : null,
        itemTemplateId: moved.template.id,
        itemInstanceId: moved.targetIds[0] ?? null,
        itemName: moved.facts.name,
        quantity,
        sourceContainerId: container.id,
        sourceName: lootPlace(loot),
        destinationContainerId: destination.container.id,
        destinationName: `${destination.container.name} (${destination.ownerName})`,
        details: {
          ...details,
          for_character_id: character.id,
          destination: toStash ? 'party_stash' : 'character',
          source_item_instance_id: stackId,
          value_cp: moved.facts.valueCp * quantity,
        },
        summary: summaryOf(
          quantity,
          moved.facts.name,
          toStash ? `the party stash as ${character.name}'s share (no room)` : character.name,
        ),
        ...lootTag(loot),
      });
      // One stack's worth is exact; a share of many may pass the safe range and saturates, so that a
      // distribution already committed never fails to answer.
      const value = moved.facts.valueCp * quantity;
      share.value_cp = saturatingSum([share.value_cp, value]);
      const same = share.items.find(
        (i) =>
          i.item_template_id === moved.template.id &&
          i.container_id === destination.container.id &&
          i.name === moved.facts.name,
      );
      if (same) {
        same.quantity += quantity;
        same.value_cp = saturatingSum([same.value_cp, value]);
      } else {
        share.items.push({
          item_template_id: moved.template.id,
          name: moved.facts.name,
          quantity,
          value_cp: value,
          coin: hasOverrides(moved.instance.instanceData) ? null : coinOfSystemKey(moved.template.systemKey),
          destination: toStash ? 'party_stash' : 'character',
          container_id: destination.container.id,
          container_name: destination.container.name,
        });
      }
    };

    // An even split of coins first changes what must be changed, inside the loot, value for value.
    let conversion: LootDistribution['conversion'] = null;
    if (plan.coins && purseValueCp(plan.coins.take) > 0) {
      conversion = { taken: plan.coins.take, made: plan.coins.make };
      rows.push(
        ...(await this.#convertCoins(tx, record, actor, loot, lootContext, plan.coins.take, plan.coins.make)),
      );
    }
    for (const a of plan.allocations) await deal(a.stackId, a.recipient, a.quantity);
    for (const [index, purse] of (plan.coins?.shares ?? []).entries()) {
      for (const currency of currencies) {
        let owed = purse[currency];
        if (owed === 0) continue;
        const coin = await this.deps.moves.coin(tx, currency);
        const coinStacks = (await inventoryRepository.plainStacks(tx, container.id, coin.id)).filter(
          (s) => !hasOverrides(s.instanceData),
        );
        for (const s of coinStacks) {
          if (owed === 0) break;
          const give = Math.min(owed, s.quantity);
          await deal(s.id, index, give);
          owed -= give;
        }
        if (owed > 0) throw new AppError('INTERNAL_SERVER_ERROR', `the loot ran out of ${currency}`);
      }
    }
    rows.push(...(await record(entries)));
    // One notice per character dealt a share, to its player (not the GM's own characters).
    const notices: Notice[] = [];
    for (const [index, share] of shares.entries()) {
      const character = targets[index]?.character;
      if (!character || share.items.length === 0) continue;
      notices.push(
        this.#lootNotice(
          actor,
          loot,
          party,
          character,
          distributedNotice(actor.username, loot.name, character.name, share.items),
        ),
      );
    }
    await this.#notices.write(tx, notices);

    const now = this.deps.now();
    await repo.updateInstance(tx, loot.id, { distributedAt: now, distributionMode: input.distribution_mode });
    emit(
      this.#lootEvent(loot, 'loot_distributed', actor, `${actor.username} distributed ${loot.name}`, {
        gmOnly: false,
        ids: { mode: input.distribution_mode },
      }),
    );
    return {
      loot_instance_id: loot.id,
      preview: false,
      distribution_mode: input.distribution_mode,
      seed,
      recipients: shares,
      conversion,
      overflow,
      total_value_cp: totalValueCp,
      contents_fingerprint: contentsFingerprint,
      transaction_ids: rows,
    };
  }

  /**
   * Changes coins inside the loot (DESIGN §4 "change made down to copper"): `take` leaves it and `make`
   * enters it, of equal value, one `currency_conversion` row per denomination either way.
   */
  async #convertCoins(
    tx: Executor,
    record: Record_,
    actor: LedgerActor,
    loot: LootInstanceRow,
    lootContext: ContainerContext,
    take: Purse,
    make: Purse,
  ): Promise<string[]> {
    const container = lootContext.container;
    // Two rows (or more) make one change: each says which side of it it is, and what for.
    const coins = (purse: Purse) =>
      currencies
        .filter((c: Currency) => purse[c] > 0)
        .reverse()
        .map((c) => `${formatEnUs(purse[c])} ${c}`)
        .join(' ');
    const into = coins(make);
    const from = coins(take);
    const base = {
      transactionType: 'currency_conversion',
      partyId: loot.partyId,
      actorId: actor.id,
      actorName: actor.username,
      targetName: loot.name,
      targetId: loot.id,
      currency: 'cp',
      details: { reason: 'loot_distribution', loot_instance_id: loot.id },
      ...lootTag(loot),
    } satisfies Partial<LedgerEntry>;
    const entries: LedgerEntry[] = [];
    for (const currency of currencies) {
      let left = take[currency];
      if (left === 0) continue;
      const coin = await this.deps.moves.coin(tx, currency);
      const coinStacks = (await inventoryRepository.plainStacks(tx, container.id, coin.id)).filter(
        (s) => !hasOverrides(s.instanceData),
      );
      for (const s of coinStacks) {
        if (left === 0) break;
        const out = Math.min(left, s.quantity);
        if (out === s.quantity) await inventoryRepository.deleteInstance(tx, s.id);
        else await inventoryRepository.updateInstance(tx, s.id, { quantity: s.quantity - out });
        left -= out;
      }
      if (left > 0) throw new AppError('INTERNAL_SERVER_ERROR', `the loot has too few ${currency} to change`);
      entries.push({
        ...base,
        itemTemplateId: coin.id,
        itemName: coin.name,
        quantity: take[currency],
        amountCp: take[currency] * copperPer[currency],
        sourceContainerId: container.id,
        sourceName: lootPlace(loot),
        summary: `${actor.username} took ${formatEnUs(take[currency])} ${currency} out of ${loot.name} to change ${from} into ${into}, to share them evenly`,
      });
    }
    for (const currency of currencies) {
      const n = make[currency];
      if (n === 0) continue;
      const coin = await this.deps.moves.coin(tx, currency);
      const ids = await this.deps.moves.place(tx, lootContext, coin, n, {}, '', coin.weight);
      entries.push({
        ...base,
        itemTemplateId: coin.id,
        itemInstanceId: ids[0] ?? null,
        itemName: coin.name,
        quantity: n,
        amountCp: n * copperPer[currency],
        destinationContainerId: container.id,
        destinationName: lootPlace(loot),
        summary: `${actor.username} put ${formatEnUs(n)} ${currency} into ${loot.name} as change for ${from}, to share them evenly`,
      });
    }
    return record(entries);
  }
}
