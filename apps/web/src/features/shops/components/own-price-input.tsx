import { buyPriceCp, discountPercent, formatCopper, type ShopInstance } from '@haversack/contracts';
import { NumberInput, type NumberInputProps } from '@mantine/core';

/** Prices are typed in gold and kept in copper (DESIGN §4): 1.5 gp is 150 cp; blank means none typed. */
export function gpToCp(value: number | string): number | null {
  if (value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
}

/** A price in copper as the input shows it, in gold; none is blank. */
export const cpToGp = (cp: number | null): number | string => (cp === null ? '' : cp / 100);

/**
 * The shop's discount applies to an own price too (DESIGN §4): say what players will pay, so that a GM who
 * types 5,000 gp is not surprised to see 4,500 on the shelf.
 */
export function discountedPriceNote(shop: ShopInstance, ownPriceCp: number | null): string | undefined {
  if (ownPriceCp === null || shop.discount_rate <= 0) return undefined;
  const paid = buyPriceCp({ valueCp: 0, buyModifier: 1, discountRate: shop.discount_rate, ownPriceCp });
  return `Players pay ${formatCopper(paid)} after the shop’s ${discountPercent(shop.discount_rate)}% discount.`;
}

/**
 * The shop's own price for an item as the GM types it: in gold, to the copper, never negative, with what
 * players pay after the shop's discount. The Stock form and a shelf line's Set price dialog both use it.
 */
export function OwnPriceInput({
  shop,
  value,
  onChange,
  ...props
}: {
  shop: ShopInstance;
  value: number | string;
  onChange: (value: number | string) => void;
} & Omit<NumberInputProps, 'value' | 'onChange' | 'description' | 'min' | 'decimalScale' | 'allowNegative'>) {
  return (
    <NumberInput
      label="Own price (gp)"
      description={discountedPriceNote(shop, gpToCp(value))}
      min={0}
      decimalScale={2}
      allowNegative={false}
      value={value}
      onChange={onChange}
      {...props}
    />
  );
}
