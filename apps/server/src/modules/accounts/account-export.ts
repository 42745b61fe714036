import {
  ACCOUNT_EXPORT_LEDGER_CAP,
  type AccountExport,
  type CurrentSubscription,
  templateCategory,
} from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
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

/**
 * Everything Haversack keeps about one person (the right of access), enough to rebuild what deleting the
 * account destroys: their profile, preferences, plan and patronages, characters with what they carry,
 * parties (and, for those they run as a GM, the party's settings, notes, containers, shops and loot), the
 * templates they wrote with their contents, their purchase requests, and their ledger rows (made by them
 * or about their characters; the newest `ACCOUNT_EXPORT_LEDGER_CAP`). The stashes and notes of parties
 * they only play in, and other players' rows, are others', and stay out.
 */
export async function buildAccountExport(
  db: Executor,
  user: UserRow,
  plan: CurrentSubscription,
  now: Date,
): Promise<AccountExport> {
  const [discordLinked, owned, memberships, templates, requests, ledger, holdings] = await Promise.all([
    repo.discordLinked(db, user.id),
    repo.characters(db, user.id),
    repo.memberships(db, user.id),
    repo.templates(db, user.id),
    repo.purchaseRequests(db, user.id),
    repo.ledgerRows(db, user.id, ACCOUNT_EXPORT_LEDGER_CAP),
    repo.partyHoldings(db, user.id),
  ]);
  // A fixed number of queries whatever the account holds: every container in one, every stack in another.
  const runs = (membership: { role: string }) => membership.role === 'gm';
  const bags = await repo.containersOf(db, {
    characterIds: owned.map((character) => character.id),
    partyIds: memberships.filter(runs).map((membership) => membership.party.id),
    shopIds: holdings.shops.map((shop) => shop.id),
    lootIds: holdings.loot.map((loot) => loot.id),
  });
  const items = await repo.itemsIn(
    db,
    bags.map((bag) => bag.id),
  );
  const stacksByContainer = new Map<string, StackRow[]>();
  for (const stack of items) {
    const list = stacksByContainer.get(stack.item.containerId);
    if (list) list.push(stack);
    else stacksByContainer.set(stack.item.containerId, [stack]);
  }
  const itemsOf = (containerId: string | undefined) =>
    containerId === undefined ? [] : (stacksByContainer.get(containerId) ?? []).map(exportItem);
  const containersWhere = (belongs: (bag: ContainerRow) => boolean) =>
    bags.filter(belongs).map((bag) => ({
      id: bag.id,
      name: bag.name,
      description: bag.description,
      is_primary: bag.isPrimary,
      max_weight: bag.maxWeight,
      max_slots: bag.maxSlots,
      items: itemsOf(bag.id),
    }));
  const { billing_provider: _billingProvider, ...subscription } = plan.subscription;
  return {
    format: 'haversack-export',
    version: 1,
    exported_at: now.toISOString(),
    profile: {
      id: user.id,
      email: user.email,
      username: user.username,
      display_name: user.displayName,
      email_verified_at: iso(user.emailVerifiedAt),
      discord_linked: discordLinked,
      admin: user.admin,
      tier_upgraded_at: iso(user.tierUpgradedAt),
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    },
    preferences: user.preferences,
    subscription: { ...subscription, tier_name: plan.tier.name },
    patronages: plan.patronages,
    characters: owned.map((character) => ({
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
      containers: containersWhere((bag) => bag.characterId === character.id),
    })),
    parties: memberships.map(({ party, role, joinedAt }) => ({
      id: party.id,
      name: party.name,
      role,
      is_owner: party.gameMasterId === user.id,
      joined_at: joinedAt.toISOString(),
      details: runs({ role })
        ? {
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
            containers: containersWhere((bag) => bag.partyId === party.id),
            shops: holdings.shops
              .filter((shop) => shop.partyId === party.id)
              .map((shop) => ({
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
                stock: itemsOf(bags.find((bag) => bag.shopInstanceId === shop.id)?.id).map((stack) => ({
                  ...stack,
                  price_cp: shop.prices[stack.item_template_id] ?? null,
                })),
              })),
            loot: holdings.loot
              .filter((loot) => loot.partyId === party.id)
              .map((loot) => ({
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
                items: itemsOf(bags.find((bag) => bag.lootInstanceId === loot.id)?.id),
              })),
          }
        : null,
    })),
    templates: {
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
    },
    purchase_requests: requests.map(({ request, shopName }) => ({
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
    })),
    ledger: {
      entries: ledger.rows.map((row) => ({
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
      })),
      total_count: ledger.total,
      truncated: ledger.total > ledger.rows.length,
    },
  };
}
