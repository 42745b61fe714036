import { shopMessages } from '@haversack/contracts';
import type { NumberInputProps } from '@mantine/core';
import { NumberField } from '../../../components/number-field';
import { warningUnderField } from './field-warning';

/** Said under the field at 100 %: the server allows it, but it is almost never meant. */
export const freeShopWarning = 'Everything in this shop will be free.';

/**
 * A shop's discount as typed, in percent: empty is no discount; anything outside 0 to 100 is refused with
 * the range, never clamped (a discount clamped to 100 % gave the whole shop away without a word).
 */
export function discountPercentError(percent: number | string): string | null {
  if (percent === '') return null;
  const value = Number(percent);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? null : shopMessages.discountRange;
}

/** Percent (two decimals at most) to the API's rate (four decimals at most), exactly: 12.34 → 0.1234. */
export function discountRateOf(percent: number | string): number {
  return percent === '' ? 0 : Math.round(Number(percent) * 100) / 10_000;
}

/** The rate shown again in percent, to the hundredth: a saved 12.5 % is not shown, then saved, as 13 %. */
export function discountPercentOf(rate: number): number {
  return Math.round(rate * 10_000) / 100;
}

export function DiscountInput({
  value,
  onChange,
  ...props
}: { value: number | string; onChange: (value: number | string) => void } & Omit<
  NumberInputProps,
  'value' | 'onChange' | 'min' | 'max' | 'clampBehavior' | 'decimalScale' | 'allowNegative' | 'error'
>) {
  const free = discountPercentError(value) === null && value !== '' && Number(value) === 100;
  return (
    <NumberField
      label="Discount (%)"
      min={0}
      max={100}
      clampBehavior="none"
      decimalScale={2}
      allowNegative={false}
      value={value}
      onChange={onChange}
      error={discountPercentError(value)}
      {...(free ? warningUnderField(freeShopWarning) : {})}
      {...props}
    />
  );
}
