/**
 * Names for the statements of the busiest requests (issue 13 §2). node-postgres parses a named statement
 * once per connection and PostgreSQL keeps it prepared, so its text is not parsed (nor, after a few runs,
 * planned) again; planning the transfer's joins cost more than running them. A name must always stand
 * for the same SQL text: a statement whose text varies with its input (the number of ids, which columns
 * a row sets) puts that shape into its name. PGlite ignores the names.
 */
export function statementName(base: string, shape?: string | number): string {
  if (shape === undefined) return base;
  if (typeof shape === 'number') return `${base}_${shape}`;
  return `${base}_${fnv1a(shape)}`;
}

/** 32-bit FNV-1a of a string, in hex: a short, stable name for a shape. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16);
}
