import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  ACCOUNT_EXPORT_LEDGER_CAP,
  accountExportSchema,
  type CurrentSubscription,
  templateCategory,
} from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
import { streamedArray, streamedObject } from '../../lib/indented-json.js';
import { effectiveFacts } from '../inventory/inventory-rules.js';
import { accountExportRepository as repo } from './account-export.repository.js';
import type { UserRow } from './accounts.repository.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const dates = (row: { createdAt: Date; updatedAt: Date }) => ({
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const textOr = (value: unknown) => (typeof value === 'string' ? value : null);
const numberOr = (value: unknown) => (typeof value === 'number' ? value : null);

type ContainerRow = Awaited<ReturnType<typeof repo.containersOf>>[number];
type StackRow = Awaited<ReturnType<typeof repo.itemsIn>>[number];

/** A stack as the export writes it, in a bag, a stash, on a shelf or in loot alike. */
function exportItem({ item, template }: StackRow) {
  const facts = effectiveFacts(template, item.instanceData);
  const data = item.instanceData;
  return {
    id: item.id,
    item_template_id: item.itemTemplateId,
    name: facts.name,
    quantity: item.quantity,
    weight: facts.weight,
    value: facts.value,
    currency: facts.currency,
    overrides: {
      name: textOr(data.name_override),
      description: textOr(data.description_override),
      weight: numberOr(data.weight_override),
      value: numberOr(data.value_override),
      currency: textOr(data.currency_override),
    },
    notes: item.notes,
    is_identified: item.isIdentified,
    instance_data: item.instanceData,
  };
}

/** Stacks read in one statement: a big account's are read in several, the event loop answering between. */
export const EXPORT_STACK_PAGE = 1_000;
/** Ledger rows read in one statement (keyset pages, newest first, up to `ACCOUNT_EXPORT_LEDGER_CAP`). */
export const EXPORT_LEDGER_PAGE = 1_000;

const shape = accountExportSchema.shape;
const partyShape = shape.parties.element.shape;
const detailsShape = partyShape.details.unwrap().shape;
const partyHead = shape.parties.element.omit({ details: true });
const detailsHead = partyShape.details.unwrap().omit({ containers: true, shops: true, loot: true });

/**
 * The containers' stacks, by container, each container's oldest first: read in pages of about
 * `EXPORT_STACK_PAGE` stacks (whole containers, in the export's order), with a turn of the event loop
 * after each, so that a GM's thousands of shelves do not hold every other request up.
 */
async function stacksByContainer(db: Executor, bags: ContainerRow[]): Promise<Map<string, StackRow[]>> {
  const pages: string[][] = [];
  let page: string[] = [];
  let inPage = 0;
  for (const bag of bags) {
    if (bag.stacks === 0) continue;
    if (page.length > 0 && inPage + bag.stacks > EXPORT_STACK_PAGE) {
      pages.push(page);
      page = [];
      inPage = 0;
    }
    page.push(bag.id);
    inPage += bag.stacks;
  }
  if (page.length > 0) pages.push(page);
  const byContainer = new Map<string, StackRow[]>();
  for (const ids of pages) {
    for (const stack of await repo.itemsIn(db, ids)) {
      const list = byContainer.get(stack.item.containerId);
      if (list) list.push(stack);
      else byContainer.set(stack.item.containerId, [stack]);
    }
    await nextTurn();
  }
  return byContainer;
}

/** What the export lists, read in a fixed number of statements (the stacks in pages, see above). */
async function readHoldings(db: Executor, userId: string) {
  const [discordLinked, owned, memberships, templates, requests, holdings] = await Promise.all([
    repo.discordLinked(db, userId),
    repo.characters(db, userId),
    repo.memberships(db, userId),
    repo.templates(db, userId),
    repo.purchaseRequests(db, userId),
    repo.partyHoldings(db, userId),
  ]);
  // A fixed number of queries whatever the account holds: every container in one, the stacks in pages.
  const bags = await repo.containersOf(db, {
    characterIds: owned.map((character) => character.id),
    partyIds: memberships.filter(runs).map((membership) => membership.party.id),
    shopIds: holdings.shops.map((shop) => shop.id),
    lootIds: holdings.loot.map((loot) => loot.id),
  });
  const stacks = await stacksByContainer(db, bags);
  return { discordLinked, owned, memberships, templates, requests, holdings, bags, stacks };
}

type Holdings = Awaited<ReturnType<typeof readHoldings>>;

const runs = (membership: { role: string }) => membership.role === 'gm';

/**
 * The person's ledger rows (`ledgerRowsOf`), newest first, the newest `ACCOUNT_EXPORT_LEDGER_CAP`, read in
 * keyset pages of `EXPORT_LEDGER_PAGE` (so at most cap / page statements), each entry as the file writes it.
 */
async function* ledgerEntries(db: Executor, userId: string, written: { count: number }) {
  let cursor: { date: string; writeOrder: number } | undefined;
  while (written.count < ACCOUNT_EXPORT_LEDGER_CAP) {
    const limit = Math.min(EXPORT_LEDGER_PAGE, ACCOUNT_EXPORT_LEDGER_CAP - written.count);
    const page = await repo.ledgerPage(db, userId, limit, cursor);
    for (const { row } of page) {
      written.count += 1;
      yield shape.ledger.shape.entries.element.parse({
        id: row.id,
        character_id: row.characterId,
        transaction_type: row.transactionType,
        summary: row.summary,
        item_name: row.itemName,
        quantity: row.quantity,
        source_name: row.sourceName,
        destination_name: row.destinationName,
        source: row.source,
        transaction_date: row.transactionDate.toISOString(),
      });
    }
    const last = page[page.length - 1];
    if (!last || page.length < limit) return;
    cursor = { date: last.date, writeOrder: last.row.writeOrder };
    await nextTurn();
  }
}

/**
 * Everything Haversack keeps about one person (the right of access), enough to rebuild what deleting the
 * account destroys: their profile, preferences, plan and patronages, characters with what they carry,
 * parties (and, for those they run as a GM, the party's settings, notes, containers, shops and loot), the
 * templates they wrote with their contents, their purchase requests, and their ledger rows (made by them
 * or about their characters; the newest `ACCOUNT_EXPORT_LEDGER_CAP`). The stashes and notes of parties
 * they only play in, and other players' rows, are others', and stay out.
 *
 * Answered as a document to write (lib/indented-json.ts): nothing is read until it is written, so the
 * download starts at once; each part is passed through its piece of `accountExportSchema` as it is
 * written, so the file is what serialising the whole through the schema would give, field for field.
 */
export function accountExportDocument(
  db: Executor,
  user: UserRow,
  currentPlan: () => Promise<CurrentSubscription>,
  now: Date,
) {
  let reading: Promise<Holdings> | undefined;
  const holdings = () => {
    reading ??= readHoldings(db, user.id);
    return reading;
  };
  const written = { count: 0 };
  let ledgerTotal: Promise<number> | undefined;
  // Read after the headers too (counting the plan's usage takes a while for a big account), once.
  let planRead: Promise<CurrentSubscription> | undefined;
  const plan = () => {
    planRead ??= currentPlan();
    return planRead;
  };
  return streamedObject({
    format: shape.format.parse('haversack-export'),
    version: shape.version.parse(1),
    exported_at: now.toISOString(),
    profile: async () =>
      shape.profile.parse({
        id: user.id,
        email: user.email,
        username: user.username,
        display_name: user.displayName,
        email_verified_at: iso(user.emailVerifiedAt),
        discord_linked: (await holdings()).discordLinked,
        admin: user.admin,
        tier_upgraded_at: iso(user.tierUpgradedAt),
        created_at: user.createdAt.toISOString(),
        updated_at: user.updatedAt.toISOString(),
      }),
    preferences: shape.preferences.parse(user.preferences),
    subscription: async () => {
      const { subscription, tier } = await plan();
      const { billing_provider: _billingProvider, ...kept } = subscription;
      return shape.subscription.parse({ ...kept, tier_name: tier.name });
    },
    patronages: async () => shape.patronages.parse((await plan()).patronages),
    characters: async () => streamedArray(characterEntries(await holdings())),
    parties: async () => streamedArray(partyEntries(await holdings(), user.id)),
    templates: async () => shape.templates.parse(templatesJson(await holdings())),
    purchase_requests: async () => shape.purchase_requests.parse(requestsJson(await holdings())),
    ledger: streamedObject({
      entries: () => {
        // Counted alongside the pages: `total_count` follows them in the file.
        ledgerTotal = repo.ledgerCount(db, user.id);
        return streamedArray(ledgerEntries(db, user.id, written));
      },
      total_count: async () => (await ledgerTotal) ?? 0,
      truncated: async () => ((await ledgerTotal) ?? 0) > written.count,
    }),
  });
}

function itemsOf(held: Holdings, containerId: string | undefined) {
  return containerId === undefined ? [] : (held.stacks.get(containerId) ?? []).map(exportItem);
}

function containersWhere(held: Holdings, belongs: (bag: ContainerRow) => boolean) {
  return held.bags.filter(belongs).map((bag) => ({
    id: bag.id,
    name: bag.name,
    description: bag.description,
    is_primary: bag.isPrimary,
    max_weight: bag.maxWeight,
    max_slots: bag.maxSlots,
    items: itemsOf(held, bag.id),
  }));
}

function* characterEntries(held: Holdings) {
  for (const character of held.owned) {
    yield shape.characters.element.parse({
      id: character.id,
      name: character.name,
      race: character.race,
      character_class: character.characterClass,
      level: character.level,
      notes: character.notes,
      image_url: character.imageUrl,
      max_weight: character.maxWeight,
      max_slots: character.maxSlots,
      party_id: character.partyId,
      created_at: character.createdAt.toISOString(),
      containers: containersWhere(held, (bag) => bag.characterId === character.id),
    });
  }
}

function* partyEntries(held: Holdings, userId: string) {
  for (const { party, role, joinedAt } of held.memberships) {
    const head = partyHead.parse({
      id: party.id,
      name: party.name,
      role,
      is_owner: party.gameMasterId === userId,
      joined_at: joinedAt.toISOString(),
    });
    if (!runs({ role })) {
      yield { ...head, details: null };
      continue;
    }
    // A party a GM runs holds its shops' whole stock: written shop by shop.
    yield streamedObject({
      ...head,
      details: streamedObject({
        ...detailsHead.parse({
          description: party.description,
          game_system: party.gameSystem,
          setting: party.setting,
          notes: party.notes,
          notes_updated_at: iso(party.notesUpdatedAt),
          join_permission: party.joinPermission,
          encumbrance_style: party.encumbranceStyle,
          item_conjuring: party.itemConjuring,
          is_public: party.isPublic,
          is_archived: party.isArchived,
          created_at: party.createdAt.toISOString(),
        }),
        containers: detailsShape.containers.parse(containersWhere(held, (bag) => bag.partyId === party.id)),
        shops: streamedArray(shopEntries(held, party.id)),
        loot: streamedArray(lootEntries(held, party.id)),
      }),
    });
  }
}

function* shopEntries(held: Holdings, partyId: string) {
  for (const shop of held.holdings.shops) {
    if (shop.partyId !== partyId) continue;
    yield detailsShape.shops.element.parse({
      id: shop.id,
      shop_template_id: shop.shopTemplateId,
      name: shop.name,
      description: shop.description,
      owner: shop.ownerName,
      location: shop.location,
      shop_type: shop.shopType,
      tag_list: shop.tags,
      is_active: shop.isActive,
      discount_rate: shop.discountRate,
      buy_modifier: shop.buyModifier,
      sell_modifier: shop.sellModifier,
      currency: shop.currency,
      restock_days: shop.restockDays,
      next_restock_at: iso(shop.nextRestockAt),
      last_restock_at: iso(shop.lastRestockAt),
      restock_plan: shop.restockPlan.map((line) => ({
        item_template_id: line.item_template_id,
        restock_quantity: line.restock_quantity,
      })),
      own_prices_cp: shop.prices,
      party_fund_allowed: shop.partyFundAllowed,
      approval_threshold_cp: shop.approvalThresholdCp,
      created_at: shop.createdAt.toISOString(),
      stock: itemsOf(held, held.bags.find((bag) => bag.shopInstanceId === shop.id)?.id).map((stack) => ({
        ...stack,
        price_cp: shop.prices[stack.item_template_id] ?? null,
      })),
    });
  }
}

function* lootEntries(held: Holdings, partyId: string) {
  for (const loot of held.holdings.loot) {
    if (loot.partyId !== partyId) continue;
    yield detailsShape.loot.element.parse({
      id: loot.id,
      loot_template_id: loot.lootTemplateId,
      name: loot.name,
      description: loot.description,
      source: loot.source,
      source_type: loot.sourceType,
      location_name: loot.instanceData.location_name ?? null,
      is_revealed: loot.isRevealed,
      revealed_at: iso(loot.revealedAt),
      distributed_at: iso(loot.distributedAt),
      distribution_mode: loot.distributionMode,
      created_at: loot.createdAt.toISOString(),
      items: itemsOf(held, held.bags.find((bag) => bag.lootInstanceId === loot.id)?.id),
    });
  }
}

function templatesJson({ templates }: Holdings) {
  return {
    items: templates.items.map((template) => ({
      id: template.id,
      name: template.name,
      description: template.description,
      visibility: template.visibility,
      tags: template.tags,
      weight: template.weight,
      base_value: template.baseValue,
      currency: template.currency,
      stack_size: template.stackSize,
      category: templateCategory(template.tags, template.metadata),
      metadata: template.metadata,
      ...dates(template),
    })),
    shops: templates.shops.map((shop) => ({
      id: shop.id,
      name: shop.name,
      description: shop.description,
      visibility: shop.visibility,
      tag_list: shop.tags,
      owner: shop.ownerName,
      location: shop.location,
      shop_type: shop.shopType,
      buy_modifier: shop.buyModifier,
      sell_modifier: shop.sellModifier,
      default_restock_days: shop.defaultRestockDays,
      name_override: shop.nameOverride,
      owner_override: shop.ownerOverride,
      location_override: shop.locationOverride,
      description_override: shop.descriptionOverride,
      items: templates.shopItems
        .filter(({ line }) => line.shopTemplateId === shop.id)
        .map(({ line, itemName }) => ({
          item_template_id: line.itemTemplateId,
          item_name: itemName,
          quantity: line.quantity,
          price_cp: line.priceCp,
          restock_quantity: line.restockQuantity,
        })),
      ...dates(shop),
    })),
    loot: templates.loot.map((loot) => ({
      id: loot.id,
      name: loot.name,
      description: loot.description,
      visibility: loot.visibility,
      tag_list: loot.tags,
      source_type: loot.sourceType,
      source: loot.source,
      items: templates.lootItems
        .filter(({ line }) => line.lootTemplateId === loot.id)
        .map(({ line, itemName }) => ({
          item_template_id: line.itemTemplateId,
          item_name: itemName,
          quantity: line.quantity,
        })),
      ...dates(loot),
    })),
  };
}

function requestsJson({ requests }: Holdings) {
  return requests.map(({ request, shopName }) => ({
    id: request.id,
    status: request.status,
    party_id: request.partyId,
    shop_instance_id: request.shopInstanceId,
    shop_name: shopName,
    character_id: request.characterId,
    character_name: request.characterName,
    item_template_id: request.itemTemplateId,
    item_name: request.itemName,
    quantity: request.quantity,
    unit_price_cp: request.unitPriceCp,
    total_price_cp: request.totalPriceCp,
    payment_source: request.paymentSource,
    reason: request.reason,
    decided_at: iso(request.decidedAt),
    created_at: request.createdAt.toISOString(),
  }));
}
