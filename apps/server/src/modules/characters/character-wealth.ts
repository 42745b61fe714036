import {
  type CharacterWealth,
  copperPer,
  currencies,
  type EncumbranceStyle,
  encumbranceOf,
  type Holding,
  roundLoadWeight,
  saturate,
  saturatingSum,
} from '@haversack/contracts';
import { emptySums, type HoldingSums, type WealthCharacterRow } from './character-wealth.repository.js';

/**
 * Worth saturates at MAX_REPORTED_SUM rather than overflow (a player with eleven vaults of crown jewels must
 * not take the party's wealth page down): a part at the limit makes the total the limit too.
 */
export function toHoldingJson(sums: HoldingSums): Holding {
  const coinsValueCp = saturate(
    currencies.reduce((total, coin) => total + BigInt(sums.coins[coin]) * BigInt(copperPer[coin]), 0n),
  );
  return {
    coins: { ...sums.coins },
    coins_value_cp: coinsValueCp,
    items_value_cp: sums.itemsValueCp,
    total_value_cp: saturatingSum([coinsValueCp, sums.itemsValueCp]),
    carried_weight: roundLoadWeight(sums.weight),
  };
}

/** DESIGN §4: a party's encumbrance style decides whether weight counts; a character outside a party uses both. */
export function toCharacterWealthJson(
  character: WealthCharacterRow,
  sums: HoldingSums,
  style: EncumbranceStyle | null,
  viewerId: string,
): CharacterWealth {
  const maxWeight = character.maxWeight === null || character.maxWeight <= 0 ? null : character.maxWeight;
  const holding = toHoldingJson(sums);
  return {
    character_id: character.id,
    name: character.name,
    user_id: character.userId,
    player_name: character.playerName,
    is_owner: character.userId === viewerId,
    ...holding,
    max_weight: maxWeight,
    weight_tracked: style !== 'slots' && style !== 'none',
    encumbrance: encumbranceOf(sums.weight, maxWeight, style),
  };
}

/** Adds holdings up (the party's total row), saturating as each holding does. */
export function addSums(all: HoldingSums[]): HoldingSums {
  return all.reduce((total, sums) => {
    for (const coin of currencies) total.coins[coin] = saturatingSum([total.coins[coin], sums.coins[coin]]);
    total.itemsValueCp = saturatingSum([total.itemsValueCp, sums.itemsValueCp]);
    total.weight += sums.weight;
    return total;
  }, emptySums());
}
