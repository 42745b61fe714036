import { formatCopper, inventoryMessages } from '@haversack/contracts';

/**
 * A shelf line's name block takes the row's room first, at least 8 em of it: beside the price and its
 * button while both fit, and above them, whole, once larger text leaves no room (at 150 % text on a phone
 * the names were cut to "Great…", "Pla…"). In em, so it grows with the reader's text size.
 */
export const LINE_NAME_FLEX = '1 1 8em';

/**
 * What a player pays for one as a list shows it: "Unpriced", never "0 cp", for an unpriced item the shop has
 * no price of its own for (`askingPriceCp` null), which it does not sell.
 */
export function askingPriceLabel(priceCp: number | null): string {
  return priceCp === null ? inventoryMessages.unpriced : formatCopper(priceCp);
}
