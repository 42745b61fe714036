/**
 * A number as `value.toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits })` writes it
 * ("1,234", "0.5", "3.0"), without Intl. The first use of Intl in a page loads ICU's number formats: on the
 * inventory page that was ≈ 35 ms of main thread (≈ 150 ms on a phone) spent while the contracts module
 * loaded, before the page could draw (issue 13 §1). Like Intl, it rounds the number's shortest decimal
 * form (1.005 → "1.01"), to the nearest, ties away from zero; numbers from 1e21 up and non-finite ones
 * are left to Intl.
 */
export function formatEnUs(value: number, minimumFractionDigits = 0, maximumFractionDigits = 3): string {
  const maximum = Math.max(minimumFractionDigits, maximumFractionDigits);
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) {
    return value.toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits: maximum });
  }
  const [whole = '0', decimals = ''] = roundDecimal(plainDecimal(Math.abs(value)), maximum).split('.');
  const fraction = decimals.replace(/0+$/, '').padEnd(minimumFractionDigits, '0');
  const negative = value < 0 || Object.is(value, -0);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** The shortest decimal form of a non-negative number below 1e21, without an exponent ("1e-7" → "0.0000001"). */
function plainDecimal(value: number): string {
  const written = String(value);
  const exponent = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(written);
  if (!exponent) return written;
  const digits = `${exponent[1]}${exponent[2] ?? ''}`;
  const point = 1 + Number(exponent[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits.padEnd(point, '0');
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A plain decimal rounded to at most `places` decimals, the half away from zero. */
function roundDecimal(decimal: string, places: number): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  if (fraction.length <= places) return decimal;
  const kept = BigInt(`${whole}${fraction.slice(0, places)}`) + (fraction.charCodeAt(places) >= 53 ? 1n : 0n);
  const digits = kept.toString().padStart(places + 1, '0');
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/**
 * The most any reported sum of worth or count is: Number.MAX_SAFE_INTEGER. One stack's worth stays inside
 * it (MAX_ITEM_VALUE × MAX_STACK_QUANTITY), but a sum over stacks, containers or characters need not: eleven
 * full stacks of the dearest item are 9.9e16 cp. Such a sum is computed exactly and reported as this figure,
 * never as a rounded float (which JSON integer schemas refuse) nor as a refusal to show the rest of a page.
 */
export const MAX_REPORTED_SUM = Number.MAX_SAFE_INTEGER;

/**
 * An exact sum brought into the reported range: a bigint, or a database's numeric as text (pg answers
 * `sum()` as text). Text of a whole number is exact up to the limit: a decimal string past 2^53 - 1 never
 * reads back as a number at or under it.
 */
export function saturate(value: bigint | number | string): number {
  if (typeof value === 'bigint') {
    if (value > BigInt(MAX_REPORTED_SUM)) return MAX_REPORTED_SUM;
    if (value < -BigInt(MAX_REPORTED_SUM)) return -MAX_REPORTED_SUM;
    return Number(value);
  }
  const number = Number(value);
  return Math.min(MAX_REPORTED_SUM, Math.max(-MAX_REPORTED_SUM, number));
}

/** The sum of whole numbers, computed exactly (bigint) and brought into the reported range. */
export function saturatingSum(values: Iterable<number>): number {
  let total = 0n;
  for (const value of values) total += BigInt(value);
  return saturate(total);
}

/** Whether a reported sum is at the limit: the true figure may be larger ("90,071,992,547,409+ gp"). */
export function isSaturated(value: number): boolean {
  return value >= MAX_REPORTED_SUM;
}
