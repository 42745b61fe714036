// The text rule every field follows, with no zod in it: the web client checks the sign-in form with it
// without loading zod (issue 13 §1). fields.ts builds the zod schemas on it and re-exports it.

/** What an email field says when it is not one; here, without zod, for the sign-in form's own check. */
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
 * Every control character (`\p{Cc}`: C0, DEL and C1) but tab, line feed and carriage return, and the
 * embedding and override marks U+202A–U+202E. A bell or an escape in a name, and the 8-bit C1 controls a
 * terminal or a CSV reader may act on (U+009B starts a terminal command, U+0085 breaks a line); the marks
 * turn the text after them around on screen ("RTL \u202Eevil" shows as "RTL live"). The isolates
 * (U+2066–U+2069) that right-to-left writing uses stay.
 */
const unsafeCharacter = /(?![\t\n\r])\p{Cc}|[\u202A-\u202E]/u;

/** The same characters, all of them, for writers that replace them rather than refuse them (CSV files). */
export const unsafeCharacters = new RegExp(unsafeCharacter.source, 'gu');

/** True when the string holds no control character (but tab and line breaks), override mark or unpaired surrogate. */
export function isSafeText(value: string): boolean {
  return !unsafeCharacter.test(value) && !unpairedSurrogate.test(value);
}

/**
 * Characters that take no room on screen or show as blank, by their Unicode properties rather than a list
 * that misses some: controls (`Cc`), format characters (`Cf`: zero-width spaces and joiners, direction
 * marks and isolates, the Arabic letter mark, tag characters, the interlinear annotation and the musical
 * and hieroglyph format controls), the default-ignorable ones (the Hangul fillers, variation selectors,
 * U+034F), noncharacters (U+FDD0–U+FDEF, U+xFFFE/U+xFFFF), and two that a font draws blank or as a
 * placeholder: the blank Braille pattern (U+2800) and the object replacement character (U+FFFC).
 * Private-use characters are not among them: a font shows them as its own glyph or as a box.
 */
const invisibleCharacters =
  /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2800\uFFFC]/gu;

/**
 * A name someone can read: something besides spaces, invisible characters and marks with nothing to sit on
 * (not "\u200B\u200B", not three lone accents, not "\u061C"). Joiners and selectors inside an emoji
 * sequence go with the rest of it: the emoji they join is what shows. An empty value is the length rule's
 * to refuse, with its own message, so it passes here.
 */
export function hasVisibleText(value: string): boolean {
  return value === '' || /[^\s\p{M}]/u.test(value.replace(invisibleCharacters, ''));
}

/**
 * Format characters that only hide inside a name: the soft hyphen, zero-width space, word joiner and the
 * invisible math operators, and the byte-order mark. "Thor\u00ADin" looks like "Thorin" and could not be
 * told from it in a list, nor found by searching "thorin". The joiners (U+200C, U+200D) stay: Persian,
 * Indic scripts and emoji sequences need them; so do the direction marks, which change how a name mixing
 * right-to-left and left-to-right text shows.
 */
const hiddenFormatCharacters = /[\u00AD\u200B\u2060-\u2064\uFEFF]/gu;

/**
 * `value` without hidden format characters; unchanged when it has nothing else to show, so that a name of
 * only such characters is refused as blank (hasVisibleText) rather than emptied into "no name".
 */
export function withoutHiddenFormatCharacters(value: string): string {
  const stripped = value.replace(hiddenFormatCharacters, '');
  return stripped === value || !hasVisibleText(stripped) || stripped.trim() === '' ? value : stripped;
}
