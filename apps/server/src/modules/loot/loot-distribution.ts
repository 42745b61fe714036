import {
  type Currency,
  copperPer,
  currencies,
  type DistributionMode,
  emptyPurse,
  makeChange,
  type Purse,
  purseValueCp,
} from '@haversack/contracts';

/**
 * Who gets what when the GM distributes loot (DESIGN §4), as pure arithmetic: no database, no capacity.
 * The service runs the plan through the inventory's moves (which may send a share to the party stash when
 * a character's container is full) and writes one ledger row per move.
 */

/** One stack of the loot, as the plan needs to see it. */
export interface PlanStack {
  id: string;
  /**
   * What makes stacks interchangeable: plain stacks of one template share a kind (an even split shares the
   * kind's total), a stack with overrides is a kind of its own.
   */
  kind: string;
  quantity: number;
  /** Copper per unit. */
  unitValueCp: number;
  /** The seeded coin this stack is, or null. An even split shares coins by value, to the copper. */
  coin: Currency | null;
}

/** `quantity` of stack `stackId` goes to recipient number `recipient`. */
export interface Allocation {
  stackId: string;
  recipient: number;
  quantity: number;
}

/**
 * An even split of the coins: `take` leaves the loot and `make` enters it (a conversion, value for value),
 * after which recipient i gets exactly `shares[i]`.
 */
export interface CoinPlan {
  take: Purse;
  make: Purse;
  shares: Purse[];
}

export interface DistributionPlan {
  /** Item allocations; in `even` mode coins are in `coins` instead. */
  allocations: Allocation[];
  coins: CoinPlan | null;
}

/** mulberry32: a small seeded generator, so that a preview's random draw can be repeated exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const largestFirst = [...currencies].sort((a, b) => copperPer[b] - copperPer[a]);

/**
 * `total` shared among `n` as evenly as whole units allow: everyone gets total ÷ n, and the remainder is
 * dealt one each starting at `start` (so successive splits deal their remainders in turn).
 */
export function evenShares(total: number, n: number, start: number): number[] {
  const base = Math.floor(total / n);
  const remainder = total - base * n;
  return Array.from({ length: n }, (_, i) => base + ((((i - start) % n) + n) % n < remainder ? 1 : 0));
}

/**
 * How much copper of coins each recipient gets so that, items and coins together, everyone ends as close to
 * the same value as the coins allow (water-filling): whoever has the least item value is topped up first,
 * and anyone whose items are already worth more than the others' level gets no coins. The shares add up to
 * `coinTotal` exactly; a copper that does not divide goes round from `start`.
 */
export function compensatingShares(itemValues: number[], coinTotal: number, start: number): number[] {
  const n = itemValues.length;
  const order = itemValues.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  let filled = 0;
  let sum = 0;
  while (filled < n) {
    const next = order[filled];
    if (!next) break;
    // Stop once the level the coins reach with the poorer ones no longer rises past the next one's items.
    if (filled > 0 && (coinTotal + sum) / filled <= next.value) break;
    sum += next.value;
    filled += 1;
  }
  const level = Math.floor((coinTotal + sum) / filled);
  const shares = Array.from({ length: n }, () => 0);
  const topped = new Set<number>();
  for (const { value, index } of order.slice(0, filled)) {
    shares[index] = level - value;
    topped.add(index);
  }
  let left = coinTotal - shares.reduce((a, b) => a + b, 0);
  for (let step = 0; left > 0; step++) {
    const index = (start + step) % n;
    if (!topped.has(index)) continue;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

function planEvenCoins(stacks: PlanStack[], needs: number[]): CoinPlan | null {
  const pool = emptyPurse();
  for (const s of stacks) if (s.coin) pool[s.coin] += s.quantity;
  const total = purseValueCp(pool);
  if (total === 0) return null;
  const shares = needs.map(() => emptyPurse());
  const left = { ...pool };
  // First hand out the coins there are, largest first, never past anyone's share.
  for (const coin of largestFirst) {
    for (const [i, share] of shares.entries()) {
      const k = Math.min(left[coin], Math.floor((needs[i] ?? 0) / copperPer[coin]));
      if (k === 0) continue;
      share[coin] += k;
      left[coin] -= k;
      needs[i] = (needs[i] ?? 0) - k * copperPer[coin];
    }
  }
  // What is still owed is paid from the leftover coins, changed down (or up) into exact amounts.
  const take = left;
  const make = emptyPurse();
  for (const [i, share] of shares.entries()) {
    const change = makeChange(needs[i] ?? 0);
    for (const coin of currencies) {
      share[coin] += change[coin];
      make[coin] += change[coin];
    }
  }
  // A coin both taken and made need not be changed at all.
  for (const coin of currencies) {
    const same = Math.min(take[coin], make[coin]);
    take[coin] -= same;
    make[coin] -= same;
  }
  return { take, make, shares };
}

/**
 * Every kind's total is shared evenly, most valuable kind first; the units left over (fewer than the
 * recipients) go one each to whoever has received the least value so far, ties in turn. The coins then
 * even out what the items could not: a split of a crossbow, a rope and 32 gp between two is 41 gp 5 sp each,
 * not 53 gp 5 sp and 29 gp 5 sp.
 */
function planEven(stacks: PlanStack[], n: number): DistributionPlan {
  const kinds = new Map<string, PlanStack[]>();
  for (const s of stacks) {
    if (s.coin || s.quantity <= 0) continue;
    kinds.set(s.kind, [...(kinds.get(s.kind) ?? []), s]);
  }
  const unitValue = (group: PlanStack[]) => Math.max(...group.map((s) => s.unitValueCp));
  const groups = [...kinds.values()].sort((a, b) => unitValue(b) - unitValue(a));
  const received = Array.from({ length: n }, () => 0);
  const allocations: Allocation[] = [];
  let start = 0;
  for (const group of groups) {
    const total = group.reduce((sum, s) => sum + s.quantity, 0);
    const shares = Array.from({ length: n }, () => Math.floor(total / n));
    const turn = Array.from({ length: n }, (_, step) => (start + step) % n);
    const extras = [...turn].sort((a, b) => (received[a] ?? 0) - (received[b] ?? 0)).slice(0, total % n);
    for (const recipient of extras) shares[recipient] = (shares[recipient] ?? 0) + 1;
    start = (start + (total % n)) % n;
    let cursor = 0;
    let leftInStack = group[0]?.quantity ?? 0;
    for (let recipient = 0; recipient < n; recipient++) {
      let owed = shares[recipient] ?? 0;
      while (owed > 0) {
        const stack = group[cursor];
        if (!stack) break;
        const give = Math.min(owed, leftInStack);
        allocations.push({ stackId: stack.id, recipient, quantity: give });
        received[recipient] = (received[recipient] ?? 0) + give * stack.unitValueCp;
        owed -= give;
        leftInStack -= give;
        if (leftInStack === 0) {
          cursor += 1;
          leftInStack = group[cursor]?.quantity ?? 0;
        }
      }
    }
  }
  const coinTotal = stacks.reduce((sum, s) => (s.coin ? sum + s.quantity * copperPer[s.coin] : sum), 0);
  return { allocations, coins: planEvenCoins(stacks, compensatingShares(received, coinTotal, start)) };
}

/** Whole stacks, most valuable first, each to whoever has received the least value so far. */
function planByValue(stacks: PlanStack[], n: number): DistributionPlan {
  const received = Array.from({ length: n }, () => 0);
  const ordered = stacks
    .map((s, index) => ({ s, index, value: s.quantity * s.unitValueCp }))
    .filter(({ s }) => s.quantity > 0)
    .sort((a, b) => b.value - a.value || a.index - b.index);
  const allocations: Allocation[] = [];
  for (const { s, value } of ordered) {
    let poorest = 0;
    for (let i = 1; i < n; i++) if ((received[i] ?? 0) < (received[poorest] ?? 0)) poorest = i;
    received[poorest] = (received[poorest] ?? 0) + value;
    allocations.push({ stackId: s.id, recipient: poorest, quantity: s.quantity });
  }
  return { allocations, coins: null };
}

/** Whole stacks, each to a character drawn at random. */
function planRandom(stacks: PlanStack[], n: number, random: () => number): DistributionPlan {
  return {
    allocations: stacks
      .filter((s) => s.quantity > 0)
      .map((s) => ({
        stackId: s.id,
        recipient: Math.min(n - 1, Math.floor(random() * n)),
        quantity: s.quantity,
      })),
    coins: null,
  };
}

export function planDistribution(
  stacks: PlanStack[],
  recipients: number,
  mode: DistributionMode,
  random: () => number,
): DistributionPlan {
  if (!Number.isInteger(recipients) || recipients < 1) throw new RangeError('at least one recipient');
  switch (mode) {
    case 'even':
      return planEven(stacks, recipients);
    case 'by_value':
      return planByValue(stacks, recipients);
    case 'random':
      return planRandom(stacks, recipients, random);
  }
}
