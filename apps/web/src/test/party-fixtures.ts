import type { Character, Party, PartyPreview } from '@haversack/contracts';

const now = new Date('2026-01-01T00:00:00Z').toISOString();

/** A party as the server sends it to a member; override what the test is about. */
export function buildParty(overrides: Partial<Party> = {}): Party {
  return {
    id: 'party-1',
    name: 'The Copper Lanterns',
    description: 'A band of lamplighters.',
    game_system: 'D&D 5e',
    setting: 'Waterdeep',
    join_permission: 'limited',
    encumbrance_style: 'both',
    item_conjuring: 'free',
    join_code: 'ABCD2345',
    is_public: false,
    is_archived: false,
    member_count: 2,
    player_count: 1,
    character_count: 0,
    gm_name: 'gamemaster',
    game_master_id: 'user-gm',
    user_role: 'player',
    is_gm: false,
    is_member: true,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

export function buildPreview(overrides: Partial<PartyPreview> = {}): PartyPreview {
  return {
    id: 'party-1',
    name: 'The Copper Lanterns',
    description: 'A band of lamplighters.',
    game_system: 'D&D 5e',
    setting: 'Waterdeep',
    member_count: 2,
    gm_name: 'gamemaster',
    is_public: false,
    join_permission: 'limited',
    is_member: false,
    ...overrides,
  };
}

export function buildCharacter(overrides: Partial<Character> = {}): Character {
  return {
    id: 'character-1',
    user_id: 'user-1',
    player_name: 'ranger',
    name: 'Aria',
    race: 'Elf',
    character_class: 'Ranger',
    level: 3,
    notes: '',
    image_url: '',
    max_weight: 50,
    max_slots: 20,
    party_id: null,
    party_name: null,
    primary_container_id: 'container-1',
    is_owner: true,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

export function pageMeta(totalCount: number, perPage: number, currentPage = 1) {
  return {
    current_page: currentPage,
    total_pages: Math.max(1, Math.ceil(totalCount / perPage)),
    total_count: totalCount,
    per_page: perPage,
  };
}
