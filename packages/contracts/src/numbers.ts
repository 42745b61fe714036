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
