import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * How searches compare text: without case and without accents, so that "epee" finds "Épée", "cekic"
 * "Çekiç", and the Turkish "ışık", "IŞIK" and "işık" find one another (ı, I, İ and i are one letter).
 *
 * One table, made here from Unicode's own decompositions, serves both sides. In memory, a text is folded
 * letter by letter through it (foldForSearch). In SQL, nothing is folded: a term becomes a regular
 * expression whose every letter is the class of all letters that fold to it (`e` → `[eEéÉèÈ…]`), so the
 * same match runs alike on PGlite and PostgreSQL, needs no extension (unaccent) or stored column, and costs
 * a regex scan, as ilike did. Folding the column in SQL with translate() over this table was tried: over
 * 10,000 templates it took minutes on PGlite.
 *
 * The table covers the Latin, Greek and Vietnamese letters with accents. A mark that changes the letter in
 * other scripts (a kana's voicing, an Indic vowel sign) is not an accent and is kept; letters outside the
 * table only lose their case.
 */
const accentMarks = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/gu;

const foldedRanges: [number, number][] = [
  [0x00c0, 0x024f], // Latin-1 Supplement, Latin Extended-A and -B
  [0x0370, 0x03ff], // Greek
  [0x1e00, 0x1eff], // Latin Extended Additional (Vietnamese)
  [0x1f00, 0x1fff], // Greek Extended
];

function foldLetter(letter: string): string {
  return letter.normalize('NFD').replace(accentMarks, '').normalize('NFC').toLowerCase().replace(/ı/g, 'i');
}

/** Each letter of the table → the one letter it folds to (only those that change, and to one letter). */
const folding = new Map<string, string>();
/** Each folded letter → every letter that folds to it, itself and its capital among them. */
const foldingInto = new Map<string, Set<string>>();

for (const [first, last] of foldedRanges) {
  for (let code = first; code <= last; code++) {
    const letter = String.fromCodePoint(code);
    const folded = foldLetter(letter);
    if (folded === letter || [...folded].length !== 1) continue;
    folding.set(letter, folded);
  }
}
for (const [letter, folded] of folding) {
  const letters = foldingInto.get(folded) ?? new Set([folded]);
  letters.add(letter);
  foldingInto.set(folded, letters);
}

/** `text` as searches compare it: letter by letter through the table, else in lower case. */
export function foldForSearch(text: string): string {
  let folded = '';
  for (const letter of text) folded += folding.get(letter) ?? letter.toLowerCase();
  return folded;
}

/** One letter of a pattern, escaped so that no letter of a term is read as regex syntax. */
function escaped(letter: string): string {
  return `\\U${(letter.codePointAt(0) ?? 0).toString(16).padStart(8, '0')}`;
}

/** A regular expression (PostgreSQL's ARE) matching `term` as foldForSearch compares it. */
function foldedPattern(term: string): string {
  let pattern = '';
  for (const letter of term) {
    const folded = folding.get(letter) ?? letter.toLowerCase();
    const letters = new Set(foldingInto.get(folded) ?? [folded]);
    for (const variant of [letter, folded, folded.toUpperCase(), letter.toUpperCase()])
      if ([...variant].length === 1) letters.add(variant);
    pattern += letters.size === 1 ? escaped(letter) : `[${[...letters].map(escaped).join('')}]`;
  }
  return pattern;
}

/**
 * The characters that end a word, in both engines alike: ASCII other than letters and digits, the no-break
 * space, ¡ « » ¿, general punctuation (dashes, curly quotes, …) and the ideographic space, comma and full
 * stop. (PostgreSQL's own classes, [[:alnum:]], know only ASCII under PGlite's C locale.)
 */
const wordSeparatorRanges: [number, number][] = [
  [0x01, 0x2f],
  [0x3a, 0x40],
  [0x5b, 0x60],
  [0x7b, 0x7f],
  [0xa0, 0xa1],
  [0xab, 0xab],
  [0xbb, 0xbb],
  [0xbf, 0xbf],
  [0x2000, 0x206f],
  [0x3000, 0x3002],
];

/** True for a character after which a word starts (see wordSeparatorRanges). */
export function isWordSeparator(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return wordSeparatorRanges.some(([first, last]) => code >= first && code <= last);
}

const wordSeparatorClass = `[${wordSeparatorRanges
  .map(([first, last]) =>
    first === last
      ? escaped(String.fromCodePoint(first))
      : `${escaped(String.fromCodePoint(first))}-${escaped(String.fromCodePoint(last))}`,
  )
  .join('')}]`;

/** A term in websearch syntax (a "phrase", -a word left out, or): the user's own full-text query. */
export function usesWebsearchSyntax(term: string): boolean {
  return (
    term.includes('"') ||
    /(^|\s)-/.test(term) ||
    /(^|[^\p{L}\p{M}\p{N}])or($|[^\p{L}\p{M}\p{N}])/iu.test(term)
  );
}

/**
 * The words a search looks for, as typed: its runs of letters (with their marks) and digits, so that
 * "Kılıç, janissary" is "Kılıç" and "janissary", and "half-plate" "half" and "plate". A term without any
 * ("%", "+++") is one word, itself. A term in websearch syntax has none: it is searched as written.
 */
export function searchWords(term: string): string[] {
  if (usesWebsearchSyntax(term)) return [];
  const words = term.match(/[\p{L}\p{M}\p{N}]+/gu);
  if (words) return words;
  const whole = term.trim();
  return whole === '' ? [] : [whole];
}

/** Where in the text a term is to be found: the start of a word is the text's start or after a separator. */
export type FoldedMatch = 'anywhere' | 'start' | 'whole' | 'word-start';

/** The regex for `term` in a text, as `foldForSearch(text)` holds `foldForSearch(term)` there. */
export function foldedRegex(term: string, where: FoldedMatch = 'anywhere'): string {
  const pattern = foldedPattern(term);
  if (where === 'whole') return `^${pattern}$`;
  if (where === 'word-start') return `(^|${wordSeparatorClass})${pattern}`;
  return where === 'start' ? `^${pattern}` : pattern;
}

/** True in SQL when `column` holds `term`, regardless of case and accents (see above). */
export function foldedMatch(column: AnyColumn | SQL, term: string, where: FoldedMatch = 'anywhere'): SQL {
  return sql`${column} ~ ${foldedRegex(term, where)}`;
}

const nameCollator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * The order of names in a list a server sorts itself: without case or accents ("Äbel" with the A's,
 * "amulett" before "Bogen"), numbers by value ("Bogen 2" before "Bogen 10"); names that compare equal
 * then by code point, so that the order never depends on the rows' order.
 */
export function compareNames(a: string, b: string): number {
  return nameCollator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
