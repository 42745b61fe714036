import {
  ACCOUNT_EXPORT_LEDGER_CAP,
  type AccountExport,
  type CurrentSubscription,
} from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
import { accountExportRepository as repo } from './account-export.repository.js';
import type { UserRow } from './accounts.repository.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

function templateJson(row: {
  id: string;
  name: string;
  description: string;
  visibility: string;
  createdAt: Date;
  updatedAt: Date;
}) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    visibility: row.visibility,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Everything Haversack keeps about one person (the right of access): their profile, preferences, plan and
 * patronages, characters with what they carry, parties, the templates they wrote, and the ledger rows they
 * made (the newest `ACCOUNT_EXPORT_LEDGER_CAP`). Parties' shared stashes and other players' rows are
 * theirs, not this person's, and stay out.
 */
export async function buildAccountExport(
  db: Executor,
  user: UserRow,
  plan: CurrentSubscription,
  now: Date,
): Promise<AccountExport> {
  const [discordLinked, owned, memberships, templates, ledger] = await Promise.all([
    repo.discordLinked(db, user.id),
    repo.characters(db, user.id),
    repo.memberships(db, user.id),
    repo.templates(db, user.id),
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
      party_id: character.partyId,
      created_at: character.createdAt.toISOString(),
      containers: bags
        .filter((bag) => bag.characterId === character.id)
        .map((bag) => ({
          id: bag.id,
          name: bag.name,
          description: bag.description,
          is_primary: bag.isPrimary,
          items: items
            .filter(({ item }) => item.containerId === bag.id)
            .map(({ item, templateName }) => ({
              id: item.id,
              item_template_id: item.itemTemplateId,
              name: typeof item.instanceData.name === 'string' ? item.instanceData.name : templateName,
              quantity: item.quantity,
              notes: item.notes,
              is_identified: item.isIdentified,
              instance_data: item.instanceData,
            })),
        })),
    })),
    parties: memberships.map((party) => ({
      id: party.id,
      name: party.name,
      role: party.role,
      joined_at: party.joinedAt.toISOString(),
    })),
    templates: {
      items: templates.items.map(templateJson),
      shops: templates.shops.map(templateJson),
      loot: templates.loot.map(templateJson),
    },
    ledger: {
      entries: ledger.rows.map((row) => ({
        id: row.id,
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
