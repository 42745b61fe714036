import { buyPriceCp, discountPercent, formatCopper, type ShopInstance } from '@haversack/contracts';
import type { NumberInputProps } from '@mantine/core';
import { NumberField } from '../../../components/number-field';
import { warningUnderField } from './field-warning';
import { freeItemWarning, gpAmountError, gpToCp } from './gp-amount';

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
 * A price finer than a copper is refused (`gpAmountError`); a price of 0 is allowed, with a warning under
 * the field.
 */
export function OwnPriceInput({
  shop,
  value,
  onChange,
  error,
  ...props
}: {
  shop: ShopInstance;
  value: number | string;
  onChange: (value: number | string) => void;
} & Omit<NumberInputProps, 'value' | 'onChange' | 'description' | 'min' | 'decimalScale' | 'allowNegative'>) {
  const priceCp = gpToCp(value);
  return (
    <NumberField
      label="Own price (gp)"
      {...(priceCp === 0
        ? warningUnderField(freeItemWarning)
        : { description: discountedPriceNote(shop, priceCp) })}
      min={0}
      decimalScale={2}
      allowNegative={false}
      value={value}
      onChange={onChange}
      error={gpAmountError(value) ?? error}
      {...props}
    />
  );
}
