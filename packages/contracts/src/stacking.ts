/**
 * DESIGN §4's stacking rules, one copy for the server and the client: which stacks of a template are alike
 * enough to merge, to top up, or to be sold as one line of a shop's sell list.
 */

const overrideKeys = [
  'name_override',
  'description_override',
  'weight_override',
  'value_override',
  'currency_override',
] as const;

/** Equipment and attunement belong to one character's own items. */
const personalKeys = ['is_equipped', 'is_attuned'] as const;

/** A stack with any override is unique: it never merges with plain stacks of its template. */
export function hasOverrides(instanceData: Record<string, unknown>): boolean {
  return overrideKeys.some(
    (key) => instanceData[key] !== undefined && instanceData[key] !== null && instanceData[key] !== '',
  );
}

/**
 * A stack that never takes in (or tops up) other stacks when items arrive: one with overrides, or one that
 * is equipped or attuned (else a second ring would slip into an attuned one, past the attunement limit).
 */
export function keepsOwnStack(instanceData: Record<string, unknown>): boolean {
  return hasOverrides(instanceData) || personalKeys.some((key) => instanceData[key] === true);
}

/**
 * Two stacks equipped and attuned alike: a merge keeps the target's state for all of them, so a plain stack
 * merged into an attuned one would attune every piece past the attunement limit.
 */
export function samePersonalState(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return personalKeys.every((key) => (a[key] === true) === (b[key] === true));
}

/** What a stack keeps when it changes hands: a new owner is neither wearing it nor attuned to it. */
export function withoutPersonalState(instanceData: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...instanceData };
  for (const key of personalKeys) delete rest[key];
  return rest;
}

/**
 * The line of a seller's items a shop buys as one (daggers, which do not stack, are a stack each): plain
 * stacks of one template with the same notes and identification. A stack that keeps to itself (renamed,
 * equipped, attuned) is a line of its own: null.
 */
export function sellLineKey(stack: {
  itemTemplateId: string;
  instanceData: Record<string, unknown>;
  notes: string;
  isIdentified: boolean;
}): string | null {
  if (keepsOwnStack(stack.instanceData)) return null;
  return JSON.stringify([stack.itemTemplateId, stack.notes, stack.isIdentified]);
}

/**
 * The line a loot's stacks are listed and taken in: the same rule as a seller's line (swords, which do not
 * stack, lie in a loot as a stack each and are one line of 3 there; a renamed one is a line of its own).
 * @alias
 */
export const lootLineKey = sellLineKey;
