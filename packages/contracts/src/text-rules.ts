// The text rule every field follows, with no zod in it: the web client checks the sign-in form with it
// without loading zod (issue 13 §1). fields.ts builds the zod schemas on it and re-exports it.

export const fieldMessages = {
  unsafeText: 'Text cannot contain the NUL character or an unpaired UTF-16 surrogate',
  invalidId: 'Must be a valid id',
  tooDeep: (max: number) => `Nested too deeply (at most ${max} levels)`,
  tooLarge: (max: number) => `Too large (at most ${max.toLocaleString('en-US')} characters as JSON)`,
} as const;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
export const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds no NUL character and no unpaired surrogate. */
export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !unpairedSurrogate.test(value);
}
