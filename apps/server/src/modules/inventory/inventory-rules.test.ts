import { planConversion } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import {
  capacityRefusal,
  effectiveFacts,
  enforcedLimits,
  hasOverrides,
  planStacking,
} from './inventory-rules.js';

const arrow = { name: 'Arrow', weight: 0.05, baseValue: 5, currency: 'cp' as const, stackSize: 20 };

describe('stacking', () => {
  it('tops up existing stacks then opens new ones of at most stack_size', () => {
    expect(planStacking([{ id: 'a', quantity: 15 }], 30, 20)).toEqual({
      topUps: [{ id: 'a', add: 5 }],
      newStacks: [20, 5],
    });
  });
  it('puts everything on the first stack when stack_size is unlimited', () => {
    expect(planStacking([{ id: 'coins', quantity: 500 }], 1234, 0)).toEqual({
      topUps: [{ id: 'coins', add: 1234 }],
      newStacks: [],
    });
    expect(planStacking([], 1234, 0)).toEqual({ topUps: [], newStacks: [1234] });
  });
  it('fills each unlimited stack up to 10,000,000 in turn before refusing', () => {
    // 6,000,000 + 4,000,000 pp: 5,000,000 more fill the first and go on into the second.
    const stacks = [
      { id: 'a', quantity: 6_000_000 },
      { id: 'b', quantity: 4_000_000 },
    ];
    expect(planStacking(stacks, 5_000_000, 0)).toEqual({
      topUps: [
        { id: 'a', add: 4_000_000 },
        { id: 'b', add: 1_000_000 },
      ],
      newStacks: [],
    });
    // No room left in any: what does not fit lands on the first, past 10,000,000, which the caller refuses
    // (no new stack is opened for an unlimited template).
    expect(planStacking(stacks, 10_000_001, 0)).toEqual({
      topUps: [
        { id: 'a', add: 4_000_001 },
        { id: 'b', add: 6_000_000 },
      ],
      newStacks: [],
    });
  });
  it('opens one stack per unstackable item', () => {
    expect(planStacking([{ id: 'x', quantity: 1 }], 3, 1)).toEqual({ topUps: [], newStacks: [1, 1, 1] });
  });
});

describe('effective facts and overrides', () => {
  it('uses the template unless an override is present', () => {
    expect(effectiveFacts(arrow, {})).toMatchObject({ name: 'Arrow', weight: 0.05, value: 5, valueCp: 5 });
    expect(
      effectiveFacts(arrow, { name_override: 'Elven arrow', value_override: 2, currency_override: 'gp' }),
    ).toMatchObject({
      name: 'Elven arrow',
      valueCp: 200,
    });
  });
  it('treats equipped or durability as no override', () => {
    expect(hasOverrides({ is_equipped: true, durability: 50 })).toBe(false);
    expect(hasOverrides({ weight_override: 0 })).toBe(true);
  });
});

describe('capacity', () => {
  const base = {
    maxWeight: 10,
    maxSlots: 2,
    usedWeight: 9,
    usedSlots: 2,
    addWeight: 0,
    addSlots: 0,
    enforces: { weight: true, slots: true },
  };
  it('refuses weight, slots, or both with the spec messages', () => {
    expect(capacityRefusal({ ...base, addWeight: 2 })).toBe('Item(s) would exceed weight limit');
    expect(capacityRefusal({ ...base, addSlots: 1 })).toBe('Item(s) would exceed volume limit');
    expect(capacityRefusal({ ...base, addWeight: 2, addSlots: 1 })).toBe(
      'Insufficient capacity in container',
    );
    expect(capacityRefusal({ ...base, addWeight: 1 })).toBeNull();
  });
  it('treats null and 0 as unlimited and honours the encumbrance style', () => {
    expect(
      capacityRefusal({ ...base, maxWeight: 0, maxSlots: null, addWeight: 999, addSlots: 9 }),
    ).toBeNull();
    expect(capacityRefusal({ ...base, addWeight: 5, enforces: enforcedLimits('slots') })).toBeNull();
    expect(capacityRefusal({ ...base, addSlots: 5, enforces: enforcedLimits('none') })).toBeNull();
    expect(capacityRefusal({ ...base, addSlots: 5, enforces: enforcedLimits('weight') })).toBeNull();
    expect(capacityRefusal({ ...base, addWeight: 5, enforces: enforcedLimits('weight') })).toBe(
      'Item(s) would exceed weight limit',
    );
    expect(enforcedLimits(null)).toEqual({ weight: true, slots: true });
  });
  it('fills a container exactly to its limits, and not a stack or a hundredth of a pound past them', () => {
    // 1 of 2 slots used, 9 of 10 lbs: the last slot and the last pound are still free.
    const roomy = { ...base, usedSlots: 1 };
    expect(capacityRefusal({ ...roomy, addSlots: 1 })).toBeNull();
    expect(capacityRefusal({ ...roomy, addWeight: 1, addSlots: 1 })).toBeNull();
    expect(capacityRefusal({ ...roomy, addSlots: 2 })).toBe('Item(s) would exceed volume limit');
    // The slack absorbs the rounding of stored weights, not a real hundredth of a pound.
    expect(capacityRefusal({ ...roomy, addWeight: 1.0004 })).toBeNull();
    expect(capacityRefusal({ ...roomy, addWeight: 1.01 })).toBe('Item(s) would exceed weight limit');
  });
  it('lets a move that adds nothing through a full container', () => {
    expect(capacityRefusal({ ...base, usedWeight: 50 })).toBeNull();
  });
});

describe('currency conversion', () => {
  it('converts up in whole coins only', () => {
    expect(planConversion('cp', 'gp', 250)).toEqual({ spend: 200, receive: 2 });
    expect(planConversion('cp', 'gp', 250, 150)).toBeNull();
    expect(planConversion('cp', 'gp', 99)).toBeNull();
    expect(planConversion('sp', 'ep', 10)).toEqual({ spend: 10, receive: 2 });
  });
  it('converts down exactly', () => {
    expect(planConversion('pp', 'cp', 3)).toEqual({ spend: 3, receive: 3000 });
    expect(planConversion('gp', 'sp', 5, 2)).toEqual({ spend: 2, receive: 20 });
    expect(planConversion('gp', 'gp', 5)).toBeNull();
  });
});
