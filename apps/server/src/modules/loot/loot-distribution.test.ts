import { type Currency, copperPer, currencies, distributionModes, purseValueCp } from '@haversack/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compensatingShares,
  evenShares,
  type PlanStack,
  planDistribution,
  seededRandom,
} from './loot-distribution.js';

/** A loot's stacks: items of a few kinds (some kinds split over several stacks) and coins. */
const lootArbitrary = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constantFrom('sword', 'arrow', 'gem', 'potion', 'unique-1', 'unique-2'),
        quantity: fc.integer({ min: 1, max: 500 }),
        unitValueCp: fc.integer({ min: 0, max: 100_000 }),
        coin: fc.constant<Currency | null>(null),
      }),
      fc.constantFrom(...currencies).chain((coin) =>
        fc.record({
          kind: fc.constant(`coin:${coin}`),
          quantity: fc.integer({ min: 1, max: 5_000 }),
          unitValueCp: fc.constant(copperPer[coin]),
          coin: fc.constant<Currency | null>(coin),
        }),
      ),
    ),
    { maxLength: 12 },
  )
  .map((stacks): PlanStack[] => stacks.map((s, i) => ({ ...s, id: `stack-${i}` })));

const recipientsArbitrary = fc.integer({ min: 1, max: 7 });

describe('evenShares', () => {
  it('shares a total to the unit, differing by at most one, remainder dealt from the start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 9 }),
        fc.nat(20),
        (total, n, start) => {
          const shares = evenShares(total, n, start % n);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
          if (total % n !== 0) expect(shares[start % n]).toBe(Math.ceil(total / n));
        },
      ),
    );
  });
});

describe('planDistribution', () => {
  it('creates and loses no item and no copper, in every mode', () => {
    fc.assert(
      fc.property(
        lootArbitrary,
        recipientsArbitrary,
        fc.constantFrom(...distributionModes),
        fc.nat(),
        (stacks, n, mode, seed) => {
          const plan = planDistribution(stacks, n, mode, seededRandom(seed));
          const given = new Map<string, number>();
          for (const a of plan.allocations) {
            expect(a.quantity).toBeGreaterThan(0);
            expect(a.recipient).toBeGreaterThanOrEqual(0);
            expect(a.recipient).toBeLessThan(n);
            given.set(a.stackId, (given.get(a.stackId) ?? 0) + a.quantity);
          }
          for (const s of stacks) {
            // In an even split coins are shared by value (plan.coins); otherwise every stack goes whole or split.
            if (mode === 'even' && s.coin) expect(given.has(s.id)).toBe(false);
            else expect(given.get(s.id)).toBe(s.quantity);
          }
          const pool = { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 };
          for (const s of stacks) if (s.coin) pool[s.coin] += s.quantity;
          if (mode !== 'even' || purseValueCp(pool) === 0) {
            expect(plan.coins).toBeNull();
            return;
          }
          const coins = plan.coins;
          if (!coins) throw new Error('an even split of coins has a coin plan');
          expect(coins.shares).toHaveLength(n);
          // The conversion is value for value and takes only coins that are there.
          expect(purseValueCp(coins.take)).toBe(purseValueCp(coins.make));
          for (const c of currencies) {
            expect(coins.take[c]).toBeGreaterThanOrEqual(0);
            expect(coins.take[c]).toBeLessThanOrEqual(pool[c]);
            expect(coins.make[c]).toBeGreaterThanOrEqual(0);
            // Every coin after the conversion goes to someone, and no more than are there.
            const handedOut = coins.shares.reduce((sum, share) => sum + share[c], 0);
            expect(handedOut).toBe(pool[c] - coins.take[c] + coins.make[c]);
          }
          expect(coins.shares.reduce((sum, share) => sum + purseValueCp(share), 0)).toBe(purseValueCp(pool));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('even: every kind differs by at most one unit between characters, and the coins even out the value', () => {
    fc.assert(
      fc.property(lootArbitrary, recipientsArbitrary, (stacks, n) => {
        const plan = planDistribution(stacks, n, 'even', () => 0);
        const kindOf = new Map(stacks.map((s) => [s.id, s.kind]));
        const perKind = new Map<string, number[]>();
        for (const s of stacks)
          if (!s.coin)
            perKind.set(
              s.kind,
              Array.from({ length: n }, () => 0),
            );
        for (const a of plan.allocations) {
          const row = perKind.get(kindOf.get(a.stackId) ?? '');
          if (!row) throw new Error('an allocation of an unknown stack');
          row[a.recipient] = (row[a.recipient] ?? 0) + a.quantity;
        }
        for (const row of perKind.values())
          expect(Math.max(...row) - Math.min(...row)).toBeLessThanOrEqual(1);
        if (plan.coins) {
          // Items and coins together: whoever got coins ends within a copper of the poorest, and no one
          // got coins who already had more than someone else ends with.
          const stackValue = new Map(stacks.map((s) => [s.id, s.unitValueCp]));
          const totals = plan.coins.shares.map(purseValueCp);
          const coinsOf = [...totals];
          for (const a of plan.allocations)
            totals[a.recipient] = (totals[a.recipient] ?? 0) + a.quantity * (stackValue.get(a.stackId) ?? 0);
          const poorest = Math.min(...totals);
          for (const [i, total] of totals.entries())
            if ((coinsOf[i] ?? 0) > 0) expect(total - poorest).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('even: remainders go round in turn, so the extra units are spread over everyone', () => {
    const stacks: PlanStack[] = ['a', 'b', 'c'].map((kind, i) => ({
      id: `s${i}`,
      kind,
      quantity: 1,
      unitValueCp: 100,
      coin: null,
    }));
    const plan = planDistribution(stacks, 3, 'even', () => 0);
    expect(plan.allocations.map((a) => a.recipient).sort()).toEqual([0, 1, 2]);
  });

  it('even: a leftover unit goes to whoever has received the least value so far, not just the next in turn', () => {
    // The gem's one unit goes to the first; the two rings to the second and third; the turn is back at the
    // first, who holds 100 cp to the others' 10: the candle goes to the second, the first of the poorest.
    const stacks: PlanStack[] = [
      { id: 'gem', kind: 'gem', quantity: 1, unitValueCp: 100, coin: null },
      { id: 'rings', kind: 'ring', quantity: 2, unitValueCp: 10, coin: null },
      { id: 'candle', kind: 'candle', quantity: 1, unitValueCp: 1, coin: null },
    ];
    const plan = planDistribution(stacks, 3, 'even', () => 0);
    const holders = (id: string) => plan.allocations.filter((a) => a.stackId === id).map((a) => a.recipient);
    expect(holders('gem')).toEqual([0]);
    expect(holders('rings')).toEqual([1, 2]);
    expect(holders('candle')).toEqual([1]);
  });

  it('even: the coins make up for what the items could not share (the crossbow one got, the rope the other)', () => {
    // The review's Bandit Camp after two takes: 20 gp and 120 sp, two shortswords, a light crossbow, 20
    // bolts, a rope and two manacles, between two characters. Before, 53 gp 5 sp and 29 gp 5 sp.
    const stacks: PlanStack[] = [
      { id: 'gp', kind: 'coin:gp', quantity: 20, unitValueCp: 100, coin: 'gp' },
      { id: 'sp', kind: 'coin:sp', quantity: 120, unitValueCp: 10, coin: 'sp' },
      { id: 'sword', kind: 'shortsword', quantity: 2, unitValueCp: 1000, coin: null },
      { id: 'crossbow', kind: 'crossbow', quantity: 1, unitValueCp: 2500, coin: null },
      { id: 'bolts', kind: 'bolt', quantity: 20, unitValueCp: 5, coin: null },
      { id: 'rope', kind: 'rope', quantity: 1, unitValueCp: 100, coin: null },
      { id: 'manacles', kind: 'manacles', quantity: 2, unitValueCp: 200, coin: null },
    ];
    const plan = planDistribution(stacks, 2, 'even', () => 0);
    const value = new Map(stacks.map((s) => [s.id, s.unitValueCp]));
    const totals = plan.coins?.shares.map(purseValueCp) ?? [0, 0];
    for (const a of plan.allocations)
      totals[a.recipient] = (totals[a.recipient] ?? 0) + a.quantity * (value.get(a.stackId) ?? 0);
    expect(totals).toEqual([4150, 4150]);
    // The crossbow and the rope went to different characters: the rope to the one without the crossbow.
    const holder = (id: string) => plan.allocations.find((a) => a.stackId === id)?.recipient;
    expect(holder('rope')).not.toBe(holder('crossbow'));
  });

  it('compensatingShares: tops up the poorest first and adds up to the coins exactly', () => {
    expect(compensatingShares([3750, 1350], 3200, 0)).toEqual([400, 2800]);
    // Items worth more than the coins can reach: the richest gets none.
    expect(compensatingShares([0, 0, 10_000], 300, 0)).toEqual([150, 150, 0]);
    // A copper that does not divide goes round from the start.
    expect(compensatingShares([0, 0, 0], 100, 1)).toEqual([33, 34, 33]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.nat(10),
        (items, coins, start) => {
          const shares = compensatingShares(items, coins, start % items.length);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(coins);
          for (const share of shares) expect(share).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('even: a gold piece shared three ways is changed down to the copper', () => {
    const plan = planDistribution(
      [{ id: 'gp', kind: 'coin:gp', quantity: 1, unitValueCp: 100, coin: 'gp' }],
      3,
      'even',
      () => 0,
    );
    expect(plan.coins?.shares.map(purseValueCp)).toEqual([34, 33, 33]);
    expect(plan.coins?.take).toEqual({ cp: 0, sp: 0, ep: 0, gp: 1, pp: 0 });
    expect(purseValueCp(plan.coins?.make ?? { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 })).toBe(100);
    // Coins that already divide evenly are not changed at all.
    const even = planDistribution(
      [{ id: 'gp', kind: 'coin:gp', quantity: 6, unitValueCp: 100, coin: 'gp' }],
      3,
      'even',
      () => 0,
    );
    expect(even.coins?.take).toEqual({ cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 });
    expect(even.coins?.shares.map((s) => s.gp)).toEqual([2, 2, 2]);
  });

  it('by_value: whole stacks, each to whoever has the least so far, so no one ends more than one stack behind', () => {
    fc.assert(
      fc.property(lootArbitrary, recipientsArbitrary, (stacks, n) => {
        const plan = planDistribution(stacks, n, 'by_value', () => 0);
        const received = Array.from({ length: n }, () => 0);
        const byId = new Map(stacks.map((s) => [s.id, s]));
        let previousValue = Number.POSITIVE_INFINITY;
        for (const a of plan.allocations) {
          const stack = byId.get(a.stackId);
          if (!stack) throw new Error('an allocation of an unknown stack');
          expect(a.quantity).toBe(stack.quantity);
          const value = stack.quantity * stack.unitValueCp;
          // Most valuable first, each to someone who had the least at that moment.
          expect(value).toBeLessThanOrEqual(previousValue);
          previousValue = value;
          expect(received[a.recipient]).toBe(Math.min(...received));
          received[a.recipient] = (received[a.recipient] ?? 0) + value;
        }
        const largest = Math.max(0, ...stacks.map((s) => s.quantity * s.unitValueCp));
        expect(Math.max(...received) - Math.min(...received)).toBeLessThanOrEqual(largest);
      }),
      { numRuns: 200 },
    );
  });

  it('random: whole stacks, the same draw for the same seed, and every character can be drawn', () => {
    fc.assert(
      fc.property(lootArbitrary, recipientsArbitrary, fc.nat(), (stacks, n, seed) => {
        const first = planDistribution(stacks, n, 'random', seededRandom(seed));
        const again = planDistribution(stacks, n, 'random', seededRandom(seed));
        expect(again).toEqual(first);
        for (const a of first.allocations)
          expect(a.quantity).toBe(stacks.find((s) => s.id === a.stackId)?.quantity);
      }),
    );
    const many: PlanStack[] = Array.from({ length: 200 }, (_, i) => ({
      id: `s${i}`,
      kind: `k${i}`,
      quantity: 1,
      unitValueCp: 1,
      coin: null,
    }));
    const drawn = new Set(
      planDistribution(many, 4, 'random', seededRandom(7)).allocations.map((a) => a.recipient),
    );
    expect([...drawn].sort()).toEqual([0, 1, 2, 3]);
  });
});
