import {
  askingPriceCp,
  buyPriceCp,
  emptyPurse,
  formatCopper,
  makeChange,
  modifierLabel,
  planPayment,
  popularityLabel,
  purseValueCp,
  restockBadge,
  sellLineCp,
  sellOfferCp,
  sellPriceCp,
  stockLabel,
} from '@haversack/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('shop prices (DESIGN §4)', () => {
  it('buys at value × modifier × (1 − discount), to the nearest copper', () => {
    expect(buyPriceCp({ valueCp: 100, buyModifier: 1, discountRate: 0 })).toBe(100);
    expect(buyPriceCp({ valueCp: 5, buyModifier: 1, discountRate: 0.1 })).toBe(5); // 4.5 → 5
    expect(buyPriceCp({ valueCp: 5, buyModifier: 1, discountRate: 0.3 })).toBe(4); // 3.5 → 4
    expect(buyPriceCp({ valueCp: 7, buyModifier: 1.25, discountRate: 0 })).toBe(9); // 8.75
    expect(buyPriceCp({ valueCp: 10, buyModifier: 0.15, discountRate: 0 })).toBe(2); // 1.5 → 2
    // 0.1 + 0.2 style float error must not leak: 0.7 × 10 is exactly 7.
    expect(buyPriceCp({ valueCp: 10, buyModifier: 0.7, discountRate: 0 })).toBe(7);
    expect(buyPriceCp({ valueCp: 1_000_000_000_000, buyModifier: 9.9999, discountRate: 0.0001 })).toBe(
      9_998_900_010_000,
    );
  });

  it('uses an item’s own price in place of value × modifier, still discounted', () => {
    expect(buyPriceCp({ valueCp: 100, buyModifier: 3, discountRate: 0, ownPriceCp: 250 })).toBe(250);
    expect(buyPriceCp({ valueCp: 100, buyModifier: 3, discountRate: 0.5, ownPriceCp: 250 })).toBe(125);
    expect(buyPriceCp({ valueCp: 100, buyModifier: 3, discountRate: 1, ownPriceCp: 250 })).toBe(0);
  });

  it('asks for an unpriced item its own shop price, discounted, or has no price for it', () => {
    const unpriced = { valueCp: 0, buyModifier: 1.5, discountRate: 0.1, unpriced: true };
    expect(askingPriceCp({ ...unpriced, ownPriceCp: 1001 })).toBe(901); // 900.9 → 901
    expect(askingPriceCp(unpriced)).toBeNull();
    expect(askingPriceCp({ ...unpriced, ownPriceCp: null })).toBeNull();
    // A priced item goes by its value, or by its own shop price where it has one.
    expect(askingPriceCp({ ...unpriced, valueCp: 100, unpriced: false })).toBe(135);
    expect(askingPriceCp({ ...unpriced, valueCp: 100, unpriced: false, ownPriceCp: 250 })).toBe(225);
  });

  it('offers for an unpriced item its own shop price × sell modifier, rounded down, or nothing', () => {
    expect(
      sellOfferCp({
        valueCp: 0,
        buyModifier: 1,
        discountRate: 0,
        sellModifier: 0.45,
        unpriced: true,
        ownPriceCp: 1001,
      }),
    ).toBe(450);
    expect(
      sellOfferCp({ valueCp: 0, buyModifier: 1, discountRate: 0, sellModifier: 0.5, unpriced: true }),
    ).toBeNull();
    expect(
      sellOfferCp({
        valueCp: 0,
        buyModifier: 1,
        discountRate: 0,
        sellModifier: 0.5,
        unpriced: true,
        ownPriceCp: null,
      }),
    ).toBeNull();
    // A priced item goes by its value when the shop sells it dearer (never above what it asks: below).
    expect(
      sellOfferCp({
        valueCp: 100,
        buyModifier: 1,
        discountRate: 0,
        sellModifier: 0.5,
        unpriced: false,
        ownPriceCp: 250,
      }),
    ).toBe(50);
  });

  it('sells at value × sell modifier, rounded down', () => {
    expect(sellPriceCp({ valueCp: 5, sellModifier: 0.5 })).toBe(2);
    expect(sellPriceCp({ valueCp: 199, sellModifier: 0.5 })).toBe(99);
    expect(sellPriceCp({ valueCp: 10, sellModifier: 0.7 })).toBe(7);
  });

  it('rounds a sale down once for the whole line, exactly, not per piece', () => {
    const line = (valueCp: number, sellModifier: number, quantity: number) =>
      sellLineCp({ valueCp, buyModifier: 1, discountRate: 0, sellModifier, unpriced: false, quantity });
    // 20 arrows at 5 cp: 100 cp × 0.5 = 50 (per piece, 2 × 20 = 40) and × 0.33 = 33 (per piece, 20).
    expect(line(5, 0.5, 20)).toBe(50);
    expect(line(5, 0.33, 20)).toBe(33);
    // 1 cp candles at half: one fetches nothing, three fetch 1 cp.
    expect(line(1, 0.5, 1)).toBe(0);
    expect(line(1, 0.5, 3)).toBe(1);
    // One piece alone fetches what the price each says.
    expect(line(199, 0.5, 1)).toBe(sellPriceCp({ valueCp: 199, sellModifier: 0.5 }));
    // Exact past 2^53 before the one rounding: 9e8 cp × 10,000,000 × 0.9999.
    expect(line(900_000_000, 0.9999, 10_000_000)).toBe(
      Number((900_000_000n * 10_000_000n * 9_999n) / 10_000n),
    );
    // An unpriced item goes by the shop's own price for it, or is not bought; a priced one by its value.
    const unpriced = {
      valueCp: 0,
      buyModifier: 1,
      discountRate: 0,
      sellModifier: 0.45,
      unpriced: true,
      quantity: 3,
    };
    expect(sellLineCp({ ...unpriced, ownPriceCp: 1001 })).toBe(1351); // 3003 × 0.45 = 1351.35
    expect(sellLineCp(unpriced)).toBeNull();
    expect(sellLineCp({ ...unpriced, ownPriceCp: null })).toBeNull();
    expect(
      sellLineCp({
        valueCp: 100,
        buyModifier: 1,
        discountRate: 0,
        sellModifier: 0.5,
        unpriced: false,
        ownPriceCp: 250,
        quantity: 3,
      }),
    ).toBe(150);
  });
});

describe('buying back (never more than the shop asks)', () => {
  /** Modifiers and rates as the forms take them: 0 to 10 (discount 0 to 1), four decimals at most. */
  const rate = (max: number) => fc.integer({ min: 0, max: max * 10_000 }).map((n) => n / 10_000);
  const shopArb = fc.record({
    valueCp: fc.integer({ min: 0, max: 10_000_000 }),
    buyModifier: rate(10),
    sellModifier: rate(10),
    discountRate: rate(1),
    unpriced: fc.boolean(),
    ownPriceCp: fc.option(fc.integer({ min: 0, max: 900_000_000 }), { nil: undefined }),
  });

  it('pays for one no more than it asks for the same item: an own price below the value', () => {
    // A 5 gp lantern the GM sells at 1 gp: half its value (2 gp 5 sp) would pay 1 gp 5 sp more than it costs.
    const lantern = { valueCp: 500, buyModifier: 1, sellModifier: 0.5, discountRate: 0, unpriced: false };
    expect(askingPriceCp({ ...lantern, ownPriceCp: 100 })).toBe(100);
    expect(sellOfferCp({ ...lantern, ownPriceCp: 100 })).toBe(100);
    expect(sellLineCp({ ...lantern, ownPriceCp: 100, quantity: 3 })).toBe(300);
    // Without the own price it pays half the value, as before.
    expect(sellOfferCp(lantern)).toBe(250);
    expect(sellLineCp({ ...lantern, quantity: 3 })).toBe(750);
  });

  it('pays no more than it asks when its sell modifier is above its buy modifier, discount included', () => {
    const sword = { valueCp: 1500, buyModifier: 0.5, sellModifier: 2, discountRate: 0, unpriced: false };
    expect(sellOfferCp(sword)).toBe(750);
    expect(sellLineCp({ ...sword, quantity: 2 })).toBe(1500);
    // 20% off: it asks 6 gp, and pays 6 gp.
    expect(sellOfferCp({ ...sword, discountRate: 0.2 })).toBe(600);
    // Given away (100% off), it buys nothing back.
    expect(sellOfferCp({ ...sword, discountRate: 1 })).toBe(0);
    // An unpriced item it prices at 10 gp and pays 150% for: 10 gp less 10%, 9 gp.
    const bag = { valueCp: 0, buyModifier: 1, sellModifier: 1.5, discountRate: 0.1, unpriced: true };
    expect(sellOfferCp({ ...bag, ownPriceCp: 1000 })).toBe(900);
    expect(sellLineCp({ ...bag, ownPriceCp: 1000, quantity: 3 })).toBe(2700);
  });

  it('caps the line at the asking price × quantity, not at the rounded-down piece', () => {
    // 3 cp candles sold at 3.5 cp each uncapped: each piece alone 3 cp, but a pair 7 cp for 6 cp asked.
    const candle = { valueCp: 1, buyModifier: 3, sellModifier: 3.5, discountRate: 0, unpriced: false };
    expect(sellOfferCp(candle)).toBe(3);
    expect(sellLineCp({ ...candle, quantity: 2 })).toBe(6);
  });

  it('leaves a buy-then-sell cycle no coin richer, whatever the modifiers and own price (property)', () => {
    fc.assert(
      fc.property(shopArb, fc.integer({ min: 1, max: 1_000 }), (shop, quantity) => {
        const asked = askingPriceCp(shop);
        const offer = sellOfferCp(shop);
        const line = sellLineCp({ ...shop, quantity });
        if (asked === null) {
          // Nothing it does not sell is bought back either.
          expect(offer).toBeNull();
          expect(line).toBeNull();
          return;
        }
        if (offer === null || line === null) throw new Error('a priced item has an offer');
        // Bought one at a time or together (unit × quantity, DESIGN §4), sold back together or one at a time.
        expect(offer).toBeLessThanOrEqual(asked);
        expect(line).toBeLessThanOrEqual(asked * quantity);
        expect(offer * quantity).toBeLessThanOrEqual(asked * quantity);
        // The cap only ever lowers the formula's figure, never raises it (DESIGN §4: value × sell_modifier).
        const goneBy = shop.unpriced ? (shop.ownPriceCp ?? 0) : shop.valueCp;
        expect(offer).toBe(
          Math.min(sellPriceCp({ valueCp: goneBy, sellModifier: shop.sellModifier }), asked),
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('paying and change', () => {
  it('gives change in the largest coins, without electrum', () => {
    expect(makeChange(1234)).toEqual({ pp: 1, gp: 2, ep: 0, sp: 3, cp: 4 });
    expect(makeChange(50)).toEqual({ pp: 0, gp: 0, ep: 0, sp: 5, cp: 0 });
    expect(formatCopper(1234)).toBe('12 gp 3 sp 4 cp');
    expect(formatCopper(150_000)).toBe('1,500 gp');
    expect(formatCopper(7_500)).toBe('75 gp');
    expect(formatCopper(0)).toBe('0 cp');
  });

  it('pays exactly when the coins allow, else overpays with one coin and no needless small coins', () => {
    const purse = { ...emptyPurse(), gp: 3, sp: 6, cp: 5 };
    expect(planPayment(purse, 160)).toMatchObject({ ok: true, pay: { gp: 1, sp: 6, cp: 0 }, changeCp: 0 });
    expect(planPayment(purse, 170)).toMatchObject({ ok: true, pay: { gp: 2, sp: 0, cp: 0 }, changeCp: 30 });
    expect(planPayment({ ...emptyPurse(), pp: 1 }, 1)).toMatchObject({
      ok: true,
      changeCp: 999,
      change: { pp: 0, gp: 9, sp: 9, cp: 9 },
    });
    expect(planPayment(purse, 366)).toEqual({ ok: false, missingCp: 1 });
  });

  it('never creates or loses a copper (property)', () => {
    const count = fc.integer({ min: 0, max: 40 });
    fc.assert(
      fc.property(
        count,
        count,
        count,
        count,
        count,
        fc.integer({ min: 0, max: 60_000 }),
        (cp, sp, ep, gp, pp, price) => {
          const purse = { cp, sp, ep, gp, pp };
          const plan = planPayment(purse, price);
          if (!plan.ok) {
            expect(plan.missingCp).toBe(price - purseValueCp(purse));
            return;
          }
          for (const coin of ['cp', 'sp', 'ep', 'gp', 'pp'] as const) {
            expect(plan.pay[coin]).toBeGreaterThanOrEqual(0);
            expect(plan.pay[coin]).toBeLessThanOrEqual(purse[coin]);
          }
          expect(purseValueCp(plan.pay) - purseValueCp(plan.change)).toBe(price);
          expect(plan.changeCp).toBeGreaterThanOrEqual(0);
          // Overpaying is only ever by less than the largest coin handed over.
          const largest = Math.max(
            ...(['cp', 'sp', 'ep', 'gp', 'pp'] as const)
              .filter((c) => plan.pay[c] > 0)
              .map((c) => ({ cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 })[c]),
            0,
          );
          expect(plan.changeCp < largest || plan.changeCp === 0).toBe(true);
        },
      ),
    );
  });
});

describe('labels (spec/02 §4)', () => {
  it('names stock, restock, popularity and modifiers', () => {
    expect([0, 1, 5, 6, 20, 21].map(stockLabel)).toEqual([
      'Empty',
      'Low Stock',
      'Low Stock',
      'Stocked',
      'Stocked',
      'Well Stocked',
    ]);
    expect([null, 0, 1, 3, 14, 60].map((d) => restockBadge(d))).toEqual([
      { label: 'Never', colour: 'error' },
      { label: 'Never', colour: 'error' },
      { label: 'Daily', colour: 'success' },
      { label: 'Every 3 days', colour: 'success' },
      { label: 'Every 14 days', colour: 'warning' },
      { label: 'Every 60 days', colour: 'neutral' },
    ]);
    expect([0, 5, 20, 50, 100].map(popularityLabel)).toEqual([
      'New',
      'Some Reviews',
      'Well Known',
      'Popular',
      'Very Popular',
    ]);
    expect([1, 1.25, 0.5].map(modifierLabel)).toEqual(['Standard', '+25%', '-50%']);
  });
});
