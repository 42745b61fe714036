import { describe, expect, it } from 'vitest';
import { buildContainer, buildPartyStash } from '../test/inventory-fixtures';
import {
  allowanceSpentMessage,
  containerAllowanceAt,
  containerScope,
  moveScope,
  partyActionAt,
} from './use-spent-allowances';

const mine = buildContainer({ id: 'c-mine', character_id: 'ch-1' });
const theirs = buildContainer({ id: 'c-theirs', character_id: 'ch-2' });
const stash = buildPartyStash({ id: 'p-1', name: 'Lanterns' });

describe('which monthly allowance an action spends (the server’s rule, inventory.service)', () => {
  it('counts a change in a character’s container as personal, in a party’s stash as the party’s', () => {
    expect(containerScope(mine)).toBe('personal');
    expect(containerScope(stash)).toBe('party');
  });

  it('counts a move as the party’s when either end is a stash, else personal (whoever’s the characters)', () => {
    expect(moveScope(mine, theirs)).toBe('personal');
    expect(moveScope(mine, stash)).toBe('party');
    expect(moveScope(stash, mine)).toBe('party');
    expect(moveScope(mine, undefined)).toBeNull();
  });

  it('counts a shop trade or a loot take as the party’s, in the shop’s or the loot’s party (shops/loot.service)', () => {
    expect(partyActionAt('p-1')).toEqual({ scope: 'party', partyId: 'p-1' });
  });

  it('reads a container’s allowance in its party: the stash’s own, a character’s container its character’s', () => {
    const partyOf = (characterId: string) => ({ 'ch-1': 'p-1', 'ch-2': null })[characterId];
    expect(containerAllowanceAt(stash, partyOf)).toEqual({ scope: 'party', partyId: 'p-1' });
    // A character's container carries no party_id of its own: its character's party is the one read.
    expect(containerAllowanceAt({ ...mine, party_id: null }, partyOf)).toEqual({
      scope: 'personal',
      partyId: 'p-1',
    });
    expect(containerAllowanceAt(theirs, partyOf)).toEqual({ scope: 'personal', partyId: null });
    // A character whose party is not known: where it spends is not known either (the server decides).
    expect(containerAllowanceAt({ ...mine, character_id: 'ch-3' }, partyOf)).toBeNull();
  });

  it('says why in the allowance notice’s words', () => {
    expect(allowanceSpentMessage('party')).toBe('No party inventory actions left this month');
  });
});
