import { formatEnUs } from '@haversack/contracts';

/**
 * The one locale the app writes dates and numbers in. The interface is English, so its dates and figures
 * are too: under an Arabic or German browser the Members tab said "Joined ٢٩ نوفمبر ٢٠٢٦" and the admin
 * pages "1.234", beside "Renews on December 29, 2026" and "1,234" elsewhere (locales review, L4). The
 * time zone stays the reader's own, so the calendar day is theirs.
 */
export const APP_LOCALE = 'en-US';

const whenFormats = {
  /** "Nov 29, 2026" */
  date: { dateStyle: 'medium' },
  /** "November 29, 2026" */
  longDate: { dateStyle: 'long' },
  /** "Nov 29", for a badge */
  monthDay: { month: 'short', day: 'numeric' },
  /** "Nov 29, 2026, 10:21 PM" */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** "Nov 29, 2026, 10:21:05 PM", where the order of entries is read to the second */
  dateTimeSeconds: { dateStyle: 'medium', timeStyle: 'medium' },
  /** "10:21:05 PM" */
  time: { timeStyle: 'medium' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type WhenFormat = keyof typeof whenFormats;

// Made on first use, not when a page's module loads: the first Intl call loads ICU's data (issue 13 §1).
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A date or time in English, in the reader's time zone (or `timeZone`); empty for no date or one the
 * browser cannot read.
 */
export function formatWhen(
  when: Date | string | null | undefined,
  format: WhenFormat,
  timeZone?: string,
): string {
  if (when === null || when === undefined) return '';
  const date = typeof when === 'string' ? new Date(when) : when;
  if (Number.isNaN(date.getTime())) return '';
  const key = `${format} ${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(APP_LOCALE, { ...whenFormats[format], timeZone });
    formatters.set(key, formatter);
  }
  return formatter.format(date);
}

/** A count or amount as the rest of the app writes it ("1,234", "0.5"): `formatEnUs`, without Intl. */
export function formatCount(value: number, minimumFractionDigits = 0, maximumFractionDigits = 3): string {
  return formatEnUs(value, minimumFractionDigits, maximumFractionDigits);
}

/**
 * A game amount kept whole on a line: "19,800 gp" never breaks between the number and its coin (a wrapped
 * loot card put "gp" alone on the next line). Between amounts the line may still break ("3 gp" / "8 cp").
 */
export function unbrokenAmounts(label: string): string {
  return label.replace(/([\d+]) (?=(?:pp|gp|ep|sp|cp)\b)/g, '$1\u00a0');
}

/** An amount of real money ("$7.50", "€12.00"), as the admin's financial pages show it. */
export function formatMoney(
  amount: number,
  currency: string,
  options: Intl.NumberFormatOptions = {},
): string {
  return new Intl.NumberFormat(APP_LOCALE, { style: 'currency', currency, ...options }).format(amount);
}
