import { formatWhen } from '../../../lib/format';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * spec/02 §2 Transaction history relative times: under a minute "Just now", under an hour "Nm ago", under a
 * day "Nh ago", then the date. A time slightly in the future (clock skew) is "Just now" too.
 */
export function relativeTime(when: Date | string, now: Date = new Date()): string {
  const date = typeof when === 'string' ? new Date(when) : when;
  if (Number.isNaN(date.getTime())) return '';
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < MINUTE_MS) return 'Just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)}m ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  return formatWhen(date, 'date');
}

/**
 * `relativeTime` inside a sentence ("Last used just now"): "Just now" lowercased, a date kept as it is
 * (its month's capital belongs to it).
 */
export function relativeTimeInSentence(when: Date | string, now: Date = new Date()): string {
  const text = relativeTime(when, now);
  return text === 'Just now' ? 'just now' : text;
}

/** The full date and time, for the tooltip and `title` of a relative time. */
export function absoluteTime(when: Date | string): string {
  return formatWhen(when, 'dateTime');
}
