import { describe, expect, it } from 'vitest';
import {
  addBillingMonth,
  currentMonth,
  featureAllowed,
  hasLapsed,
  higherTier,
  limitAllows,
  remaining,
} from './entitlement-rules.js';

describe('limitAllows', () => {
  it('always allows an unlimited or missing limit', () => {
    expect(limitAllows(null, 1_000_000, 50)).toBe(true);
    expect(limitAllows(undefined, 5)).toBe(true);
  });
  it('allows up to and including the limit, counting the request', () => {
    expect(limitAllows(1, 0)).toBe(true);
    expect(limitAllows(1, 1)).toBe(false);
    expect(limitAllows(5, 3, 2)).toBe(true);
    expect(limitAllows(5, 3, 3)).toBe(false);
  });
  it('refuses everything at a zero limit', () => {
    expect(limitAllows(0, 0)).toBe(false);
  });
  it('reports what remains', () => {
    expect(remaining(null, 4)).toBeNull();
    expect(remaining(3, 5)).toBe(0);
    expect(remaining(10, 4)).toBe(6);
  });
});

describe('featureAllowed', () => {
  it('allows only an exact true', () => {
    expect(featureAllowed({ ai_tools: true }, 'ai_tools')).toBe(true);
    expect(featureAllowed({ ai_tools: 'true' }, 'ai_tools')).toBe(false);
    expect(featureAllowed({ ai_tools: 1 }, 'ai_tools')).toBe(false);
    expect(featureAllowed({}, 'ai_tools')).toBe(false);
  });
});

describe('higherTier (patronage precedence)', () => {
  const free: { identifier: string } = { identifier: 'tier_free' };
  const hero: { identifier: string } = { identifier: 'tier_2' };
  const legend: { identifier: string } = { identifier: 'tier_3' };
  it('takes a granted tier above the own one', () => expect(higherTier(free, hero)).toBe(hero));
  it('keeps the own tier when it is higher than the grant', () =>
    expect(higherTier(legend, hero)).toBe(legend));
  it('keeps the own tier without a grant', () => expect(higherTier(hero, undefined)).toBe(hero));
});

describe('dates', () => {
  it('bounds the current UTC month', () => {
    const { start, end } = currentMonth(new Date('2026-02-14T23:30:00-05:00'));
    expect(start.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
  it('adds a billing month, clamping to the last day', () => {
    expect(addBillingMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addBillingMonth(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
  it('lapses a cancelled subscription only once its period has ended', () => {
    const state = {
      tierIdentifier: 'tier_1' as const,
      status: 'active' as const,
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date('2026-03-01T00:00:00Z'),
    };
    expect(hasLapsed(state, new Date('2026-02-28T23:59:59Z'))).toBe(false);
    expect(hasLapsed(state, new Date('2026-03-01T00:00:00Z'))).toBe(true);
    expect(hasLapsed({ ...state, cancelAtPeriodEnd: false }, new Date('2027-01-01'))).toBe(false);
  });
});
