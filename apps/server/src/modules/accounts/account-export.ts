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

/**
 * Everything Haversack keeps about one person (the right of access), enough to rebuild what deleting the
 * account destroys: their profile, preferences, plan and patronages, characters with what they carry,
 * parties, the templates they wrote with their contents, their purchase requests, and their ledger rows
 * (made by them or about their characters; the newest `ACCOUNT_EXPORT_LEDGER_CAP`). Parties' shared
 * stashes and other players' rows are theirs, not this person's, and stay out.
 */
export async function buildAccountExport(
  db: Executor,
  user: UserRow,
  plan: CurrentSubscription,
  now: Date,
): Promise<AccountExport> {
  const [discordLinked, owned, memberships, templates, requests, ledger] = await Promise.all([
    repo.discordLinked(db, user.id),
    repo.characters(db, user.id),
    repo.memberships(db, user.id),
    repo.templates(db, user.id),
    repo.purchaseRequests(db, user.id),
    repo.ledgerRows(db, user.id, ACCOUNT_EXPORT_LEDGER_CAP),
  ]);
  const bags = await repo.containersOf(
    db,
    owned.map((character) => character.id),
  );
  const items = await repo.itemsIn(
    db,
    bags.map((bag) => bag.id),
  );
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
      containers: bags
        .filter((bag) => bag.characterId === character.id)
        .map((bag) => ({
          id: bag.id,
          name: bag.name,
          description: bag.description,
          is_primary: bag.isPrimary,
          max_weight: bag.maxWeight,
          max_slots: bag.maxSlots,
          items: items
            .filter(({ item }) => item.containerId === bag.id)
            .map(({ item, template }) => {
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
            }),
        })),
    })),
    parties: memberships.map((party) => ({
      id: party.id,
      name: party.name,
      role: party.role,
      is_owner: party.gameMasterId === user.id,
      joined_at: party.joinedAt.toISOString(),
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
