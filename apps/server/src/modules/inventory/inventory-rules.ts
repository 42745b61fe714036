import { type Currency, copperPer, inventoryMessages, MAX_STACK_QUANTITY } from '@haversack/contracts';

export interface TemplateFacts {
  name: string;
  weight: number;
  baseValue: number;
  currency: Currency;
  stackSize: number;
}

// The stacking rules live in the contracts, where the client reads the same ones.
export { hasOverrides, keepsOwnStack, samePersonalState, withoutPersonalState } from '@haversack/contracts';

/**
 * A container as a refusal names it to someone acting on another's: a character's as theirs ("Korrin’s
 * Backpack", since every character's first container is a Backpack), a party's or a shop's by its name.
 */
export function ownedContainerName(context: {
  container: { name: string };
  character: unknown;
  ownerName: string;
}): string {
  return context.character ? `${context.ownerName}’s ${context.container.name}` : context.container.name;
}

/** DESIGN §4: effective name, weight and value are the instance's overrides where present. */
export function effectiveFacts(template: TemplateFacts, instanceData: Record<string, unknown>) {
  const nameOverride = instanceData.name_override;
  const weightOverride = instanceData.weight_override;
  const valueOverride = instanceData.value_override;
  const currencyOverride = instanceData.currency_override;
  const currency = (
    typeof currencyOverride === 'string' && currencyOverride in copperPer
      ? currencyOverride
      : template.currency
  ) as Currency;
  const value = typeof valueOverride === 'number' ? Math.round(valueOverride) : template.baseValue;
  return {
    name: typeof nameOverride === 'string' && nameOverride.trim() ? nameOverride.trim() : template.name,
    weight: typeof weightOverride === 'number' ? weightOverride : template.weight,
    value,
    currency,
    valueCp: value * copperPer[currency],
  };
}

/**
 * DESIGN §4 stacking: top up existing plain stacks of the template in turn (stack_size 0 = unlimited, up
 * to MAX_STACK_QUANTITY each), then open new stacks of at most stack_size each.
 */
export function planStacking(
  existing: { id: string; quantity: number }[],
  quantity: number,
  stackSize: number,
): { topUps: { id: string; add: number }[]; newStacks: number[] } {
  let left = quantity;
  const topUps: { id: string; add: number }[] = [];
  // An unlimited template's stacks still hold at most MAX_STACK_QUANTITY each: they fill in turn (in the
  // order given, oldest first), so two stacks of 6,000,000 and 4,000,000 take 5,000,000 more.
  const limit = stackSize === 0 ? MAX_STACK_QUANTITY : stackSize;
  for (const stack of existing) {
    if (left === 0) break;
    const add = Math.min(Math.max(0, limit - stack.quantity), left);
    if (add > 0) {
      topUps.push({ id: stack.id, add });
      left -= add;
    }
  }
  const first = existing[0];
  if (stackSize === 0 && left > 0 && first) {
    // No new stack is opened for an unlimited template (docs/decisions.md, "Big numbers"): what does not
    // fit goes on the first stack, past the limit, which the caller refuses ("… has no room for more …").
    const topUp = topUps.find((t) => t.id === first.id);
    if (topUp) topUp.add += left;
    else topUps.unshift({ id: first.id, add: left });
    left = 0;
  }
  const newStacks: number[] = [];
  while (left > 0) {
    const size = stackSize === 0 ? left : Math.min(stackSize, left);
    newStacks.push(size);
    left -= size;
  }
  return { topUps, newStacks };
}

export type EncumbranceStyle = 'weight' | 'slots' | 'both' | 'none';

/** DESIGN §4: the party's encumbrance style decides which limits apply; no party means both. */
export function enforcedLimits(style: EncumbranceStyle | null): { weight: boolean; slots: boolean } {
  switch (style ?? 'both') {
    case 'weight':
      return { weight: true, slots: false };
    case 'slots':
      return { weight: false, slots: true };
    case 'none':
      return { weight: false, slots: false };
    default:
      return { weight: true, slots: true };
  }
}

/** null or 0 means unlimited. */
export function limitOf(value: number | null): number | null {
  return value === null || value === 0 ? null : value;
}

export interface CapacityCheck {
  maxWeight: number | null;
  maxSlots: number | null;
  usedWeight: number;
  usedSlots: number;
  addWeight: number;
  addSlots: number;
  enforces: { weight: boolean; slots: boolean };
}

/** The refusal message of spec/02 §5 for a move that does not fit, or null when it does. */
export function capacityRefusal(check: CapacityCheck): string | null {
  const maxWeight = limitOf(check.maxWeight);
  const maxSlots = limitOf(check.maxSlots);
  // A thousandth of a pound of slack absorbs decimal rounding of stored weights.
  const overWeight =
    check.enforces.weight &&
    maxWeight !== null &&
    check.addWeight > 0 &&
    check.usedWeight + check.addWeight > maxWeight + 0.0005;
  const overSlots =
    check.enforces.slots &&
    maxSlots !== null &&
    check.addSlots > 0 &&
    check.usedSlots + check.addSlots > maxSlots;
  if (overWeight && overSlots) return inventoryMessages.insufficientCapacity;
  if (overWeight) return inventoryMessages.weightExceeded;
  if (overSlots) return inventoryMessages.slotsExceeded;
  return null;
}
