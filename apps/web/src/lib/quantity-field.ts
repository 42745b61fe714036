import { inventoryMessages, MAX_STACK_QUANTITY } from '@haversack/contracts';

/**
 * The props every field for a number of items shares: whole numbers from 1, kept as typed. Mantine's
 * default brings a number past `min` or `max` back into range as the field is left, and a 0 typed in Edit
 * item became 1 on the way to Save: nine torches went without a word. The form says what is wrong instead
 * (quantityError, or the form's own range), and sends nothing until it is right.
 */
export const quantityFieldProps = {
  min: 1,
  allowDecimal: false,
  allowNegative: false,
  clampBehavior: 'none',
} as const;

/**
 * What is wrong with a typed number of items, or null: at least 1 (spec/02 §5), no more than `most` (what
 * the stack holds) or, without one, than a stack ever holds. An empty field is "at least 1" too.
 */
export function quantityError(typed: number | string, most: number | null): string | null {
  const amount = typeof typed === 'number' ? typed : typed.trim() === '' ? Number.NaN : Number(typed);
  if (Number.isNaN(amount) || amount < 1) return inventoryMessages.quantityAtLeastOne;
  if (!Number.isInteger(amount)) return inventoryMessages.quantityWhole;
  if (most !== null && amount > most) return inventoryMessages.onlyInStack(most);
  if (amount > MAX_STACK_QUANTITY) return inventoryMessages.quantityAtMost;
  return null;
}
