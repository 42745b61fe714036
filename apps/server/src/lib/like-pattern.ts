/**
 * `value` for a LIKE / ILIKE pattern that matches it literally: its `\`, `%` and `_` escaped with `\`,
 * PostgreSQL's default escape character, so that a filter typed as "50%" or "short_sword" is not a
 * wildcard.
 */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE / ILIKE pattern that matches `text` anywhere in a value (a "contains" filter). */
export function likeContaining(text: string): string {
  return `%${escapeLike(text)}%`;
}
