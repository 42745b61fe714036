import { type Currency, coinSystemKey, currencies, saturate } from '@haversack/contracts';
import { asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { unitValueCp, unitWeight } from '../inventory/inventory.repository.js';

/**
 * The sums of one owner's containers: coin counts by denomination, item value (cp) and weight (lbs). Counts
 * and copper are exact up to MAX_REPORTED_SUM and saturate there (the database sums them exactly).
 */
export interface HoldingSums {
  coins: Record<Currency, number>;
  itemsValueCp: number;
  weight: number;
}

export interface WealthCharacterRow {
  id: string;
  name: string;
  userId: string;
  playerName: string | null;
  maxWeight: number | null;
}

const coinKeys = currencies.map(coinSystemKey);
const data = itemInstances.instanceData;
/** `hasOverrides` (contracts/stacking.ts) in SQL: a stack with an override of its own is one of a kind. */
const overridden = sql`coalesce(${sql.join(
  ['name_override', 'description_override', 'weight_override', 'value_override', 'currency_override'].map(
    (key) => sql`nullif(${data} ->> ${sql.raw(`'${key}'`)}, '')`,
  ),
  sql`, `,
)}) is not null`;
/**
 * Coins are the seeded coin templates, recognised by their system key, never by name (DESIGN §4), in plain
 * stacks: a stack with an override (a "cursed gold piece" worth 10 gp) is what payments and conversions
 * leave alone (`purse`), so the purse leaves it alone too and counts it with the items, at its own value.
 */
const isPurseCoin = sql`(${inArray(itemTemplates.systemKey, coinKeys)} and not ${overridden})`;
const coinCount = (currency: Currency) =>
  sql<string>`coalesce(sum(case when ${itemTemplates.systemKey} = ${coinSystemKey(currency)} and not ${overridden} then ${itemInstances.quantity} else 0 end), 0)`;

/**
 * One aggregate over every stack in the matching containers, grouped by the owning character (null: the
 * party's own containers). Loot and shop containers belong to neither, so hidden loot never counts. Every
 * matching container has its group, an empty one with sums of 0 (so that the party's stash is known to
 * exist without a statement of its own).
 */
async function sumsByCharacter(
  db: Executor,
  where: SQL | undefined,
): Promise<Map<string | null, HoldingSums>> {
  const rows = await db
    .select({
      characterId: containers.characterId,
      cp: coinCount('cp'),
      sp: coinCount('sp'),
      ep: coinCount('ep'),
      gp: coinCount('gp'),
      pp: coinCount('pp'),
      // A value override may be fractional; copper is whole. An empty container's null row adds nothing.
      itemsValueCp: sql<string>`coalesce(round(sum(case when ${isPurseCoin} then 0 else ${unitValueCp} * ${itemInstances.quantity} end)), 0)`,
      weight: sql<string>`coalesce(sum(${unitWeight} * ${itemInstances.quantity}), 0)`,
    })
    .from(containers)
    .leftJoin(itemInstances, eq(itemInstances.containerId, containers.id))
    .leftJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
    .where(where)
    .groupBy(containers.characterId);
  return new Map(
    rows.map((r) => [
      r.characterId,
      {
        coins: {
          cp: saturate(r.cp),
          sp: saturate(r.sp),
          ep: saturate(r.ep),
          gp: saturate(r.gp),
          pp: saturate(r.pp),
        },
        itemsValueCp: saturate(r.itemsValueCp),
        weight: Number(r.weight),
      },
    ]),
  );
}

export const emptySums = (): HoldingSums => ({
  coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
  itemsValueCp: 0,
  weight: 0,
});

export const characterWealthRepository = {
  /** Every container of the character counts: containers have no "carried" flag (docs/decisions.md). */
  async forCharacter(db: Executor, characterId: string): Promise<HoldingSums> {
    const sums = await sumsByCharacter(db, eq(containers.characterId, characterId));
    return sums.get(characterId) ?? emptySums();
  },

  /** The characters of a party (by name) with their players, for the party's table. */
  async partyCharacters(db: Executor, partyId: string): Promise<WealthCharacterRow[]> {
    return db
      .select({
        id: characters.id,
        name: characters.name,
        userId: characters.userId,
        playerName: users.username,
        maxWeight: characters.maxWeight,
      })
      .from(characters)
      .leftJoin(users, eq(users.id, characters.userId))
      .where(eq(characters.partyId, partyId))
      .orderBy(asc(characters.name), asc(characters.id));
  },

  /**
   * The sums of every character of the party and of the party's own containers (key null, present when the
   * party has a container of its own: a stash, even an empty one), in one query.
   */
  async forParty(db: Executor, partyId: string): Promise<Map<string | null, HoldingSums>> {
    const partyCharacterIds = db
      .select({ id: characters.id })
      .from(characters)
      .where(eq(characters.partyId, partyId));
    return sumsByCharacter(
      db,
      or(eq(containers.partyId, partyId), inArray(containers.characterId, partyCharacterIds)),
    );
  },
};
