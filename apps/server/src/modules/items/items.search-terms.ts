/**
 * spec/02 §7 search/items: the other spellings a new player's term may stand for. The catalogue names an
 * item once, in the SRD's words ("Arrow", "Shortsword", "Chain Mail", "Gold piece"), while players type
 * "arrows", "short sword", "chainmail" or "gp". Each other spelling is searched alongside the term as
 * if typed (items.repository's search), so a template is placed by whichever spelling its name meets best,
 * and nothing the term itself found is lost.
 *
 * The spellings come from the words of the seeded catalogue's names, never from a stemmer's guess: a word
 * is made singular, joined to the next or split in two only into words the catalogue uses.
 */
import { usesWebsearchSyntax } from '../../lib/search-fold.js';
import { coinTemplates, systemTemplates } from './items.catalogue.js';

/** What the catalogue's names spell: their words, their two-word runs by the run written as one word. */
export interface CatalogueSpellings {
  words: ReadonlySet<string>;
  /** "chainmail" → "chain mail", for every two words that follow each other in a name. */
  runs: ReadonlyMap<string, string>;
  /** A coin's abbreviation → its name in words: "gp" → "gold piece". */
  coins: ReadonlyMap<string, string>;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function catalogueSpellings(
  names: Iterable<string>,
  coins: Iterable<{ abbreviation: string; name: string }>,
): CatalogueSpellings {
  const words = new Set<string>();
  const runs = new Map<string, string>();
  for (const name of names) {
    const nameWords = wordsOf(name);
    nameWords.forEach((word, i) => {
      words.add(word);
      const next = nameWords[i + 1];
      if (next !== undefined && !runs.has(word + next)) runs.set(word + next, `${word} ${next}`);
    });
  }
  const coinNames = new Map<string, string>();
  for (const coin of coins) coinNames.set(coin.abbreviation.toLowerCase(), wordsOf(coin.name).join(' '));
  return { words, runs, coins: coinNames };
}

let seeded: CatalogueSpellings | undefined;

/** The spellings of the seeded catalogue (DESIGN §4: the five coins and the SRD 5.1 items), read once. */
export function seededCatalogueSpellings(): CatalogueSpellings {
  seeded ??= catalogueSpellings(
    systemTemplates().map((template) => template.name),
    coinTemplates().map((coin) => ({ abbreviation: coin.currency, name: coin.name })),
  );
  return seeded;
}

/**
 * The catalogue's singular of a word ("arrows" → "arrow"), if it has one; also of a plural it uses
 * elsewhere ("bolts" of "Wand of Lightning Bolts" is "bolt" of "Crossbow bolt"). Short words are left
 * alone: "as" is not a plural of "a".
 */
function singular(word: string, words: ReadonlySet<string>): string | undefined {
  if (word.length <= 3) return undefined;
  const stem = (ending: string) => (word.endsWith(ending) ? word.slice(0, -ending.length) : undefined);
  const candidates = [
    stem('ies') && `${stem('ies')}y`,
    stem('ves') && `${stem('ves')}f`,
    stem('ves') && `${stem('ves')}fe`,
    stem('es'),
    stem('s'),
  ];
  return candidates.find((candidate) => candidate !== undefined && words.has(candidate));
}

/**
 * The term's other spelling in the catalogue's words, or none: each word is read as its singular; a word
 * the catalogue does not use as a coin's abbreviation ("gp" → "gold piece") or two of the catalogue's
 * words written as one ("chainmail" → "chain mail"); then two words the catalogue writes as one are
 * joined ("short sword" → "shortsword"). A term in websearch syntax ("a phrase", -not, or) is the user's own
 * query and is left as typed.
 */
export function otherSpellings(term: string, catalogue: CatalogueSpellings): string[] {
  if (usesWebsearchSyntax(term)) return [];
  const typed = wordsOf(term);
  const read = typed.map((word) => {
    const coin = catalogue.words.has(word) ? undefined : catalogue.coins.get(word);
    if (coin !== undefined) return coin;
    const one = singular(word, catalogue.words) ?? word;
    return catalogue.words.has(one) ? one : (catalogue.runs.get(one) ?? one);
  });
  const spelled: string[] = [];
  for (const word of read.join(' ').split(' ')) {
    const previous = spelled.at(-1);
    if (previous !== undefined && catalogue.words.has(previous + word)) {
      spelled[spelled.length - 1] = previous + word;
    } else spelled.push(word);
  }
  const spelling = spelled.join(' ');
  return spelling !== '' && spelling !== typed.join(' ') ? [spelling] : [];
}
