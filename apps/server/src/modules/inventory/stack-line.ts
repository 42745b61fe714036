/**
 * `quantity` taken from a line's stacks in their order (a shop's shelf line, a loot's line of identical
 * stacks): what to take from each, and how many the line holds in all (less than `quantity` when it
 * cannot be taken).
 */
export function takeFromLine(stacks: readonly { id: string; quantity: number }[], quantity: number) {
  const parts: { id: string; quantity: number }[] = [];
  let inLine = 0;
  for (const stack of stacks) {
    const n = Math.min(stack.quantity, quantity - Math.min(inLine, quantity));
    if (n > 0) parts.push({ id: stack.id, quantity: n });
    inLine += stack.quantity;
  }
  return { parts, inLine };
}
