import { describe, expect, it } from 'vitest';
import { buildContainer, buildPartyStash } from '../test/inventory-fixtures';
import { allowanceSpentMessage, containerScope, moveScope } from './use-spent-allowances';

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

  it('says why in the allowance notice’s words', () => {
    expect(allowanceSpentMessage('party')).toBe('No party inventory actions left this month');
  });
});
