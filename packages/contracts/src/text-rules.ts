// The text rule every field follows, with no zod in it: the web client checks the sign-in form with it
// without loading zod (issue 13 §1). fields.ts builds the zod schemas on it and re-exports it.

/** What an e-mail field says when it is not one; here, without zod, for the sign-in form's own check. */
export const emailMessage = 'Please enter a valid email address';

export const fieldMessages = {
  unsafeText: 'Text cannot contain control characters, direction overrides or an unpaired UTF-16 surrogate',
  multiLineName: 'A name must fit on one line: no line breaks or tabs',
  invalidId: 'Must be a valid id',
  tooDeep: (max: number) => `Nested too deeply (at most ${max} levels)`,
  tooLarge: (max: number) => `Too large (at most ${max.toLocaleString('en-US')} characters as JSON)`,
} as const;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
export const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * C0 control characters but tab, line feed and carriage return (a bell or an escape in a name), DEL, and
 * the embedding and override marks U+202A–U+202E, which turn the text after them around on screen ("RTL
 * \u202Eevil" shows as "RTL live"). The isolates (U+2066–U+2069) that right-to-left writing uses stay.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const unsafeCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E]/;

/** True when the string holds no control character (but tab and line breaks), override mark or unpaired surrogate. */
export function isSafeText(value: string): boolean {
  return !unsafeCharacter.test(value) && !unpairedSurrogate.test(value);
}

/**
 * Characters that take no room on screen or show as blank: zero-width spaces and joiners, direction marks
 * and isolates, the word joiner, the soft hyphen, the byte-order mark, the Hangul fillers (U+115F, U+1160,
 * U+3164, U+FFA0) and the blank Braille pattern (U+2800).
 */
const invisibleCharacters =
  /[\u00AD\u115F\u1160\u180E\u200B-\u200F\u2060-\u2064\u2066-\u2069\u2800\u3164\uFEFF\uFFA0]/g;

/**
 * A name someone can read: something besides spaces, invisible characters and marks with nothing to sit on
 * (not "\u200B\u200B", not three lone accents). An empty value is the length rule's to refuse, with its own
 * message, so it passes here.
 */
export function hasVisibleText(value: string): boolean {
  return value === '' || /[^\s\p{M}]/u.test(value.replace(invisibleCharacters, ''));
}
