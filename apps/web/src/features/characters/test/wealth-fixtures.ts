import type { CharacterWealth, Holding } from '@haversack/contracts';

export function buildHolding(overrides: Partial<Holding> = {}): Holding {
  return {
    coins: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
    coins_value_cp: 0,
    items_value_cp: 0,
    total_value_cp: 0,
    carried_weight: 0,
    ...overrides,
  };
}

export function buildCharacterWealth(overrides: Partial<CharacterWealth> = {}): CharacterWealth {
  return {
    ...buildHolding(),
    character_id: 'char-1',
    name: 'Aria',
    user_id: 'user-1',
    player_name: 'aria_player',
    is_owner: true,
    max_weight: 60,
    weight_tracked: true,
    encumbrance: 'unencumbered',
    ...overrides,
  };
}
