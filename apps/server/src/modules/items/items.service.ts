import { isDeepStrictEqual } from 'node:util';
import {
  CATEGORY_TAG_PREFIX,
  CURRENCY_TAG,
  copperValue,
  gpToCopper,
  type ItemSearchQuery,
  type ItemTemplate,
  type ItemTemplateForm,
  type ItemTemplateListQuery,
  type ItemTemplateTag,
  type ItemTemplateUpdate,
  isStackable,
  itemTemplateMessages,
  templateCategory,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import { SYSTEM_METADATA_KEYS, systemTemplates } from './items.catalogue.js';
import * as policy from './items.policy.js';
import {
  type ItemTemplateInsert,
  type ItemTemplateRecord,
  type ItemTemplateView,
  type ListScope,
  itemsRepository as repo,
} from './items.repository.js';
import { TemplateSearchIndex } from './items.search-index.js';
import { otherSpellings, seededCatalogueSpellings } from './items.search-terms.js';

const NAME_MAX = 200;

/** What only a template's author reads of it (its detail): how far it went and whether it is held. */
interface AuthorsView {
  instanceCount: number;
  heldByOthers: boolean;
}

export function toTemplateJson(view: ItemTemplateView, userId: string, author?: AuthorsView): ItemTemplate {
  const t = view.template;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    weight: t.weight,
    base_value: t.baseValue,
    currency: t.currency,
    value_cp: copperValue(t.baseValue, t.currency),
    visibility: t.visibility,
    stack_size: t.stackSize,
    stackable: isStackable(t.stackSize),
    metadata: t.metadata,
    tags: t.tags,
    category: templateCategory(t.tags, t.metadata),
    is_currency: t.tags.includes(CURRENCY_TAG),
    rating: t.rating,
    creator_id: t.creatorId,
    creator_name: view.creatorName,
    is_system: t.systemKey !== null,
    is_owner: t.creatorId !== null && t.creatorId === userId,
    ...(author ? { instance_count: author.instanceCount, held_by_others: author.heldByOthers } : {}),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

function pageMeta(page: number, perPage: number, total: number) {
  return {
    current_page: page,
    per_page: perPage,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  };
}

interface Actor {
  id: string;
}

/**
 * The term of a template search and its other spellings, alike for item_templates and search/items (one
 * rule: items.search-query `searchTermRule`). `*` (the spec's default) and an empty box both mean everything; a new
 * player's "arrows", "short sword" or "gp" is searched in the catalogue's words too.
 */
function searchTerm(search: string | undefined): { term?: string; spellings?: string[] } {
  const term = search?.replace(/\*+$/, '').trim();
  if (!term) return {};
  const spellings = otherSpellings(term, seededCatalogueSpellings());
  return spellings.length > 0 ? { term, spellings } : { term };
}

/** spec/02 §7 Item templates and search/items; the seeded catalogue of DESIGN §4. */
export class ItemsService {
  readonly #searchIndex: TemplateSearchIndex;

  constructor(
    private readonly db: Database,
    private readonly entitlements: EntitlementService,
    private readonly now: () => Date = () => new Date(),
  ) {
    entitlements.registerUsageCounter('item_templates', (db, userId) => repo.countOwnedBy(db, userId));
    this.#searchIndex = new TemplateSearchIndex(db);
  }

  /** Idempotent: run at every start; an unchanged catalogue writes nothing. Returns rows written. */
  static seedCatalogue(db: Executor): Promise<number> {
    return repo.upsertSystemTemplates(db, systemTemplates());
  }

  async list(userId: string, query: ItemTemplateListQuery) {
    const { rows, total } = await repo.list(this.db, {
      ...searchTerm(query.search),
      scope: listScope(userId, query),
      page: query.page,
      perPage: query.per_page,
      sort: query.sort,
      direction:
        query.direction ?? (['rating', 'created_at', 'updated_at'].includes(query.sort) ? 'desc' : 'asc'),
      ...(query.tag ? { tag: query.tag } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.min_rating !== undefined ? { minRating: query.min_rating } : {}),
      ...(query.min_value !== undefined ? { minValueCp: gpToCopper(query.min_value) } : {}),
      ...(query.max_value !== undefined ? { maxValueCp: gpToCopper(query.max_value) } : {}),
    });
    return {
      data: rows.map((row) => toTemplateJson(row, userId)),
      meta: pageMeta(query.page, query.per_page, total),
    };
  }

  async search(userId: string, query: ItemSearchQuery) {
    const text = searchTerm(query.search);
    const sort = query.sort ?? (text.term ? 'relevance' : 'name');
    const { rows, total } = await this.#searchIndex.search({
      sort,
      direction: query.direction ?? (sort === 'relevance' ? 'desc' : 'asc'),
      page: query.page,
      perPage: query.per_page,
      ...text,
      ...(query.tags && query.tags.length > 0 ? { tags: query.tags } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.rarity ? { rarity: query.rarity } : {}),
      ...(query.min_value !== undefined ? { minValueCp: gpToCopper(query.min_value) } : {}),
      ...(query.max_value !== undefined ? { maxValueCp: gpToCopper(query.max_value) } : {}),
      ...(query.min_weight !== undefined ? { minWeight: query.min_weight } : {}),
      ...(query.max_weight !== undefined ? { maxWeight: query.max_weight } : {}),
    });
    return {
      data: rows.map((row) => toTemplateJson(row, userId)),
      meta: pageMeta(query.page, query.per_page, total),
    };
  }

  get(userId: string, id: string): Promise<ItemTemplate> {
    return this.#read(this.db, userId, id);
  }

  /** The template as `userId` may read it; a write reads its answer in its own transaction with it. */
  async #read(db: Executor, userId: string, id: string): Promise<ItemTemplate> {
    const view = await repo.view(db, id);
    if (!view) throw AppError.notFound(itemTemplateMessages.notFound);
    policy.assertReadable(view.template, userId);
    // The count is every stack made from it, hidden loot and other groups' inventories included: its
    // author's to know (how far their homebrew went), nobody else's (a player would learn of hidden loot).
    // Whether others hold it is the rule `update` refuses by, told before an edit rather than on Save.
    if (view.template.creatorId !== userId) return toTemplateJson(view, userId);
    return toTemplateJson(view, userId, {
      instanceCount: await repo.countInstances(db, id),
      heldByOthers: await repo.heldBeyondReachOf(db, id, userId),
    });
  }

  tags(userId: string): Promise<ItemTemplateTag[]> {
    return repo.tags(this.db, userId);
  }

  create(actor: Actor, form: ItemTemplateForm): Promise<ItemTemplate> {
    return this.db.transaction(async (tx) => {
      await this.entitlements.requireLimit(tx, actor.id, 'item_templates');
      const template = await repo.insert(tx, {
        creatorId: actor.id,
        name: form.name,
        description: form.description,
        weight: form.weight,
        baseValue: form.base_value,
        currency: form.currency,
        visibility: form.visibility,
        stackSize: form.stack_size,
        // spec/02 §3 keeps the currency in metadata too; the column is the truth, the copy follows it.
        metadata: { ...usersMetadata(form.metadata), currency: form.currency },
        tags: form.tags,
      });
      return this.#read(tx, actor.id, template.id);
    });
  }

  /** PUT and PATCH alike change only the fields sent; metadata is merged key by key. */
  update(actor: Actor, id: string, changes: ItemTemplateUpdate): Promise<ItemTemplate> {
    return this.db.transaction(async (tx) => {
      const template = await this.#ownedForUpdate(tx, actor.id, id);
      const currency = changes.currency ?? changes.metadata?.currency ?? template.currency;
      const values: Partial<ItemTemplateInsert> = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.weight !== undefined ? { weight: changes.weight } : {}),
        ...(changes.base_value !== undefined ? { baseValue: changes.base_value } : {}),
        ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
        ...(changes.stack_size !== undefined ? { stackSize: changes.stack_size } : {}),
        ...(changes.tags !== undefined ? { tags: changes.tags } : {}),
        currency,
        metadata: withoutUnpricedMark(
          { ...template.metadata, ...usersMetadata(changes.metadata), currency },
          changes,
        ),
      };
      // A dearer template makes its items dearer wherever they are, and a shop pays that value in coins.
      const before = copperValue(template.baseValue, template.currency);
      const after = copperValue(values.baseValue ?? template.baseValue, currency);
      // Its items change with it wherever they are: another player's load, wealth and stacks may not move
      // under them, without a ledger row or a capacity check, because the author edited a public template;
      // nor may what they read of their items (a potion renamed "of Poison", a price in its description).
      const changesFacts =
        after !== before ||
        (values.weight !== undefined && values.weight !== template.weight) ||
        (values.stackSize !== undefined && values.stackSize !== template.stackSize) ||
        (values.name !== undefined && values.name !== template.name) ||
        (values.description !== undefined && values.description !== template.description) ||
        !isDeepStrictEqual(values.metadata, template.metadata);
      const changesActedOnTags =
        values.tags !== undefined && !sameSet(actedOnTags(values.tags), actedOnTags(template.tags));
      const hidesFromHolders = values.visibility === 'private' && template.visibility !== 'private';
      if (
        (changesFacts || changesActedOnTags || hidesFromHolders) &&
        (await repo.heldBeyondReachOf(tx, id, actor.id))
      ) {
        throw new AppError(
          'CONFLICT',
          changesFacts
            ? itemTemplateMessages.heldByOthers
            : changesActedOnTags
              ? itemTemplateMessages.heldByOthersTags
              : itemTemplateMessages.heldByOthersPrivate,
        );
      }
      // DESIGN §4: a stack never holds more than stack_size (0: unlimited). A smaller size would leave the
      // stacks already made above it, so it waits until they are split: 409, as the state is in the way.
      if (
        values.stackSize !== undefined &&
        values.stackSize !== 0 &&
        values.stackSize !== template.stackSize
      ) {
        const largestStack = await repo.largestStackOf(tx, id);
        if (largestStack > values.stackSize) {
          const message = itemTemplateMessages.stackSizeBelowLargestStack(template.name, largestStack);
          throw new AppError('CONFLICT', message, {
            details: [{ field: 'item_template.stack_size', message }],
          });
        }
      }
      if (after > before && (await repo.heldInGmOnlyPartyOf(tx, id, actor.id))) {
        throw new AppError('FORBIDDEN', itemTemplateMessages.valueRaiseGmOnly);
      }
      await repo.update(tx, id, values);
      // DESIGN §4: no change may leave a container over its limit, and a heavier template makes every item
      // of it heavier where it lies (the author's own, or those of a party its author runs). Read after the
      // change, in its transaction, and rolled back with it.
      if (values.weight !== undefined && values.weight > template.weight) {
        const over = await repo.containerOverWeightWith(tx, id);
        if (over) {
          const where = over.owner ? `${over.container} (${over.owner})` : over.container;
          const message = itemTemplateMessages.weightOverCapacity(template.name, where);
          throw new AppError('CONFLICT', message, { details: [{ field: 'item_template.weight', message }] });
        }
      }
      return this.#read(tx, actor.id, id);
    });
  }

  /** Soft delete: the template leaves every list, and the instances made from it keep it. */
  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#ownedForUpdate(tx, actor.id, id);
      await repo.softDelete(tx, id, this.now());
    });
  }

  /** A private copy owned by the caller, of any template they can read (the catalogue included). */
  duplicate(actor: Actor, id: string): Promise<ItemTemplate> {
    return this.db.transaction(async (tx) => {
      const source = await repo.find(tx, id);
      policy.assertReadable(source, actor.id);
      await this.entitlements.requireLimit(tx, actor.id, 'item_templates');
      const copy = await repo.insert(tx, {
        creatorId: actor.id,
        name: await repo.copyName(tx, actor.id, source.name, NAME_MAX),
        description: source.description,
        weight: source.weight,
        baseValue: source.baseValue,
        currency: source.currency,
        visibility: 'private',
        stackSize: source.stackSize,
        metadata: { ...source.metadata, duplicated_from: source.id },
        tags: source.tags,
      });
      return this.#read(tx, actor.id, copy.id);
    });
  }

  async #ownedForUpdate(tx: Executor, userId: string, id: string): Promise<ItemTemplateRecord> {
    const template = await repo.find(tx, id, { lock: true });
    policy.assertReadable(template, userId);
    policy.assertOwner(template, userId);
    return template;
  }
}

/**
 * The tags the app acts on, which change what the items of a template do wherever they are: `currency` (a
 * shop neither buys nor sells them), `category:` (their category, icon and filters), `magic` and
 * `attunement` (attunement offered; contracts `isAttunable`). Other tags only describe.
 */
function actedOnTags(tags: readonly string[]): string[] {
  return tags.filter(
    (tag) =>
      tag === CURRENCY_TAG || tag.startsWith(CATEGORY_TAG_PREFIX) || tag === 'magic' || tag === 'attunement',
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((tag) => right.has(tag));
}

/**
 * The metadata a user sent, without the keys only the system writes (`SYSTEM_METADATA_KEYS`). Dropped, not
 * refused, as an update drops the unpriced mark: what the seed or a duplicate wrote stays, and nothing a
 * user sends sets it.
 */
function usersMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(metadata ?? {}).filter(([key]) => !SYSTEM_METADATA_KEYS.includes(key)),
  );
}

/**
 * The catalogue marks the SRD's magic items, which have no cost, `priced: false` ("Unpriced"); a copy given
 * a value of its own is priced from then on, or it read "Unpriced" at 500 gp.
 */
function withoutUnpricedMark(
  metadata: Record<string, unknown>,
  changes: Pick<ItemTemplateUpdate, 'base_value'>,
): Record<string, unknown> {
  if (changes.base_value === undefined || metadata.priced !== false) return metadata;
  const { priced: _unpriced, ...rest } = metadata;
  return rest;
}

/**
 * spec/02 §7 GET item_templates: my own templates; with visibility=public every public one. A
 * creator_id narrows to that author (only their public templates unless it is me), "system" to the
 * seeded catalogue.
 */
function listScope(userId: string, query: ItemTemplateListQuery): ListScope {
  const creator = query.creator_id?.toLowerCase();
  if (creator === 'system')
    return query.visibility && query.visibility !== 'public' ? { kind: 'none' } : { kind: 'system' };
  if (creator && creator !== userId) {
    return query.visibility && query.visibility !== 'public'
      ? { kind: 'none' }
      : { kind: 'public', creatorId: creator };
  }
  if (query.visibility === 'public' && !creator) return { kind: 'public' };
  return { kind: 'mine', userId, ...(query.visibility ? { visibility: query.visibility } : {}) };
}
