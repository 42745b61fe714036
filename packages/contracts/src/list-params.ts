import { z } from 'zod';
import { text, withinRequestDates } from './fields.js';

/**
 * spec/01 §3 list parameters `sort`, `direction` and `include` (a comma-joined list). Each list names
 * the keys it sorts by and the extras it can embed; anything else is a VALIDATION_ERROR naming the
 * parameter and the accepted values, never silently ignored.
 */

export const sortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

export const directionParam = z.enum(sortDirections, { error: 'direction must be asc or desc' });

export function sortParam<const K extends readonly [string, ...string[]]>(keys: K) {
  return z.enum(keys, { error: `sort must be one of: ${keys.join(', ')}` });
}

/** `include=a,b` or repeated `include=a&include=b`; duplicates collapse, order is kept. */
export function includeParam<const K extends readonly [string, ...string[]]>(options: K) {
  const message = `include must be a comma-separated list of: ${options.join(', ')}`;
  const allowed: ReadonlySet<string> = new Set(options);
  return z
    .union([text().max(200), z.array(text().max(50)).max(10)], { error: message })
    .transform((value, ctx) => {
      const names = (typeof value === 'string' ? value.split(',') : value)
        .map((name) => name.trim())
        .filter((name) => name !== '');
      if (names.some((name) => !allowed.has(name))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return [...new Set(names)] as K[number][];
    });
}

/**
 * A date filter that takes a whole day (YYYY-MM-DD, read as that day in UTC) or an exact instant (ISO 8601
 * with its offset): "the last 24 hours" cannot be said in whole UTC days from every time zone.
 */
export function dateOrInstantParam(name: string) {
  const error = `${name} must be a date (YYYY-MM-DD) or an ISO-8601 date and time`;
  return withinRequestDates(z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error }), name);
}
