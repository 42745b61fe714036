import { copperPer } from '@haversack/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { itemTemplates } from '../../db/schema/items.js';
import { foldForSearch, isWordSeparator, searchWords } from '../../lib/search-fold.js';
import {
  type ItemTemplateView,
  itemsRepository,
  type SearchFilter,
  templateColumns,
} from './items.repository.js';

/**
 * Issue 13 §3: search/items over the public catalogue from memory (docs/decisions.md). PGlite scans
 * 10,000 templates in tens of milliseconds whatever the index, so each process keeps the public templates,
 * their search vectors and an inverted index, and answers a search with ONE statement: it reads the
 * generation counter that a trigger bumps whenever a public template changes (any writer, any process),
 * and has PostgreSQL parse the term into its tsquery, so that stemming and stop words stay PostgreSQL's.
 * The match (`@@`), ts_rank and the ordering are PostgreSQL's, reproduced here; a query this evaluator
 * does not know (an operator inside a phrase) goes to the SQL search instead.
 */

/** A position in a search vector: position * 4 + weight (D 0, C 1, B 2, A 3). */
type Positions = number[];

interface Entry {
  view: ItemTemplateView;
  nameLower: string;
  /** The name as searches compare it (lib/search-fold): no case, no accents. */
  nameFolded: string;
  /** The name's length as PostgreSQL's length() counts it: in characters, not UTF-16 units. */
  nameLength: number;
  /** NaN for a template marked `priced: false`: no value range holds it, and value orders put it last. */
  valueCp: number;
  tags: Set<string>;
  /** The tags as searches compare them (lib/search-fold): the tags filter. */
  foldedTags: Set<string>;
  /** Lexemes in PostgreSQL's order (byte order), and their positions. */
  lexemes: string[];
  vector: Map<string, Positions>;
}

type QueryNode =
  | { kind: 'operand'; lexeme: string; prefix: boolean; weights: number }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'phrase'; left: QueryNode; right: QueryNode; distance: number };

class Unsupported extends Error {}

const WEIGHTS = [0.1, 0.2, 0.4, 1.0].map(Math.fround);
const f = Math.fround;

/** list[index], for indices that the loops keep in range. */
function at<T>(list: ArrayLike<T>, index: number): T {
  const value = list[index];
  if (value === undefined) throw new RangeError(`index ${index} out of range`);
  return value;
}

/** entries[index], monomorphic for the hot loops. */
function entryAt(entries: Entry[], index: number): Entry {
  const entry = entries[index];
  if (entry === undefined) throw new RangeError(`entry ${index} out of range`);
  return entry;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parses a tsvector's text form: 'lexeme':1A,5 'other':2. */
export function parseTsvector(text: string): Map<string, Positions> {
  const vector = new Map<string, Positions>();
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "'") {
      i++;
      continue;
    }
    let lexeme = '';
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === "'" && text[i + 1] === "'") {
        lexeme += "'";
        i += 2;
      } else if (c === '\\') {
        lexeme += text[i + 1] ?? '';
        i += 2;
      } else if (c === "'") {
        i++;
        break;
      } else {
        lexeme += c;
        i++;
      }
    }
    const positions: Positions = [];
    if (text[i] === ':') {
      i++;
      while (i < text.length && text[i] !== ' ') {
        let n = 0;
        while (i < text.length && text.charAt(i) >= '0' && text.charAt(i) <= '9')
          n = n * 10 + Number(text[i++]);
        let weight = 0;
        const letter = text[i];
        if (letter === 'A' || letter === 'B' || letter === 'C' || letter === 'D') {
          weight = 'DCBA'.indexOf(letter);
          i++;
        }
        positions.push(n * 4 + weight);
        if (text[i] === ',') i++;
      }
    }
    vector.set(lexeme, positions);
  }
  return vector;
}

/** Parses a tsquery's text form ('a' & !'b' | 'c':*A <-> 'd'); undefined for the empty query. */
export function parseTsquery(text: string): QueryNode | undefined {
  const tokens: (string | QueryNode)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === ' ') {
      i++;
    } else if (c === "'") {
      let lexeme = '';
      i++;
      while (i < text.length) {
        const d = text[i];
        if (d === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (d === '\\') {
          lexeme += text[i + 1] ?? '';
          i += 2;
        } else if (d === "'") {
          i++;
          break;
        } else {
          lexeme += d;
          i++;
        }
      }
      let prefix = false;
      let weights = 0;
      if (text[i] === ':') {
        i++;
        while (i < text.length && /[*ABCDabcd]/.test(text.charAt(i))) {
          const m = text.charAt(i).toUpperCase();
          if (m === '*') prefix = true;
          else weights |= 1 << 'DCBA'.indexOf(m);
          i++;
        }
      }
      tokens.push({ kind: 'operand', lexeme, prefix, weights });
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else {
      tokens.push(c);
      i++;
    }
  }
  if (tokens.length === 0) return undefined;
  let at = 0;
  const precedence = (token: string | QueryNode | undefined): number => {
    if (token === '|') return 1;
    if (token === '&') return 2;
    if (typeof token === 'string' && token.startsWith('<')) return 3;
    return 0;
  };
  const primary = (): QueryNode => {
    const token = tokens[at++];
    if (token === '!') return { kind: 'not', child: primary() };
    if (token === '(') {
      const inner = expression(1);
      if (tokens[at++] !== ')') throw new Unsupported('unbalanced tsquery');
      return inner;
    }
    if (token === undefined || typeof token === 'string') throw new Unsupported(`tsquery ${text}`);
    return token;
  };
  const expression = (min: number): QueryNode => {
    let left = primary();
    for (;;) {
      const op = tokens[at];
      const p = precedence(op);
      if (p === 0 || p < min || typeof op !== 'string') return left;
      at++;
      const right = expression(p + 1);
      if (op === '|' || op === '&') left = { kind: op === '|' ? 'or' : 'and', left, right };
      else {
        const distance = op === '<->' ? 1 : Number(op.slice(1, -1));
        left = { kind: 'phrase', left, right, distance };
      }
    }
  };
  const node = expression(1);
  if (at !== tokens.length) throw new Unsupported(`tsquery ${text}`);
  return node;
}

/** The position lists of an entry's lexemes that an operand names (one, or every one it prefixes). */
function operandPositions(entry: Entry, operand: { lexeme: string; prefix: boolean }): Positions[] {
  if (!operand.prefix) {
    const positions = entry.vector.get(operand.lexeme);
    return positions ? [positions] : [];
  }
  const found: Positions[] = [];
  for (const lexeme of entry.lexemes)
    if (lexeme.startsWith(operand.lexeme)) found.push(entry.vector.get(lexeme) ?? []);
  return found;
}

interface PhraseMatch {
  pos: number;
  width: number;
}

/** TS_phrase_execute for operands and nested phrases: where (end, width) the phrase occurs. */
function phraseMatches(node: QueryNode, entry: Entry): PhraseMatch[] {
  if (node.kind === 'operand') {
    const matches: PhraseMatch[] = [];
    for (const positions of operandPositions(entry, node))
      for (const p of positions)
        if (node.weights === 0 || node.weights & (1 << (p & 3))) matches.push({ pos: p >> 2, width: 0 });
    return matches;
  }
  if (node.kind !== 'phrase') throw new Unsupported(`${node.kind} inside a phrase`);
  const left = phraseMatches(node.left, entry);
  if (left.length === 0) return [];
  const right = phraseMatches(node.right, entry);
  const matches: PhraseMatch[] = [];
  for (const r of right) {
    const l = left.find((m) => m.pos === r.pos - r.width - node.distance);
    if (l) matches.push({ pos: r.pos, width: r.width + node.distance + l.width });
  }
  return matches;
}

function checkPhrases(node: QueryNode): void {
  if (node.kind === 'phrase') {
    const walk = (n: QueryNode): void => {
      if (n.kind === 'operand') return;
      if (n.kind !== 'phrase') throw new Unsupported(`${n.kind} inside a phrase`);
      walk(n.left);
      walk(n.right);
    };
    walk(node);
  } else if (node.kind === 'not') checkPhrases(node.child);
  else if (node.kind === 'and' || node.kind === 'or') {
    checkPhrases(node.left);
    checkPhrases(node.right);
  }
}

/** The operands in PostgreSQL's storage order (operator, right, left), sorted and made unique. */
function rankOperands(node: QueryNode): { lexeme: string; prefix: boolean }[] {
  const items: { lexeme: string; prefix: boolean }[] = [];
  const walk = (n: QueryNode): void => {
    if (n.kind === 'operand') items.push(n);
    else if (n.kind === 'not') walk(n.child);
    else {
      walk(n.right);
      walk(n.left);
    }
  };
  walk(node);
  const sorted = items.map((item, i) => ({ item, i }));
  // qsort_arg sorts fewer than 7 items by insertion (stable); JavaScript's sort is stable too.
  sorted.sort((a, b) => byteOrder(a.item.lexeme, b.item.lexeme) || a.i - b.i);
  const unique: { lexeme: string; prefix: boolean }[] = [];
  for (const { item } of sorted) if (unique.at(-1)?.lexeme !== item.lexeme) unique.push(item);
  return unique;
}

function wpos(p: number): number {
  return WEIGHTS[p & 3] ?? 0;
}

/** tsrank.c calc_rank_or. */
function rankOr(entry: Entry, operands: { lexeme: string; prefix: boolean }[]): number {
  let res = 0;
  for (const operand of operands) {
    for (const positions of operandPositions(entry, operand)) res = f(res + rankOrTerm(positions));
  }
  return operands.length > 0 ? f(res / operands.length) : res;
}

function wordDistance(distance: number): number {
  if (distance > 100) return f(1e-30);
  return f(1.0 / (1.005 + 0.05 * Math.exp(f(distance) / 1.5 - 2)));
}

/** tsrank.c calc_rank_and. */
function rankAnd(entry: Entry, operands: { lexeme: string; prefix: boolean }[]): number {
  if (operands.length < 2) return rankOr(entry, operands);
  const pos: (Positions | undefined)[] = new Array(operands.length);
  let res = -1;
  for (const [i, operand] of operands.entries()) {
    for (const positions of operandPositions(entry, operand)) {
      pos[i] = positions;
      for (let k = 0; k < i; k++) {
        const other = pos[k];
        if (!other) continue;
        for (const l of positions) {
          for (const p of other) {
            const distance = Math.abs((l >> 2) - (p >> 2));
            if (distance === 0) continue;
            const curw = f(Math.sqrt(f(f(wpos(l) * wpos(p)) * wordDistance(distance))));
            res = res < 0 ? curw : f(1.0 - (1.0 - res) * (1.0 - curw));
          }
        }
      }
    }
  }
  return res;
}

/** ts_rank(vector, query) with the default weights and no normalisation. */
function tsRank(entry: Entry, query: QueryNode, operands: { lexeme: string; prefix: boolean }[]): number {
  if (entry.vector.size === 0 || operands.length === 0) return 0;
  const res =
    query.kind === 'and' || query.kind === 'phrase' ? rankAnd(entry, operands) : rankOr(entry, operands);
  return res < 0 ? f(1e-20) : res;
}

/** `->>` of a jsonb value, as PostgreSQL prints it. */
function jsonText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

type SortKey = 'name' | 'value' | 'weight';

const GENERATION = sql`select n::text as generation from item_template_generation where id = 1`;

/** The mark of an entry holding every word of the term or of one of its spellings (textCondition). */
const WORDS_MATCH = 2;

/** #wordMarks' bits: the word in the name, at the start of a word of the name, in the description or tags. */
const IN_NAME = 1;
const AT_WORD_START = 2;
const IN_TEXT = 4;

/** The words of a folded text (lib/search-fold searchWords' runs), and a word that is one of them. */
const TEXT_WORD = /[\p{L}\p{M}\p{N}]+/gu;
const ONE_TEXT_WORD = /^[\p{L}\p{M}\p{N}]+$/u;

/** The entries holding one lexeme, with their positions and the weights they carry (a 1 << weight mask). */
interface Posting {
  entries: Int32Array;
  weights: Uint8Array;
  positions: Positions[];
  /** rankOrTerm of each entry's positions, worked out once at load: a search only adds them up. */
  orTerms: Float64Array;
}

/** calc_rank_or's share of one lexeme's positions, before the division by the operand count. */
function rankOrTerm(positions: Positions): number {
  let resj = 0;
  let wjm = -1;
  let jm = 0;
  for (let j = 0; j < positions.length; j++) {
    const w = wpos(positions[j] ?? 0);
    resj = f(resj + f(w / ((j + 1) * (j + 1))));
    if (w > wjm) {
      wjm = w;
      jm = j;
    }
  }
  // Not rounded: tsrank.c adds the double quotient to its float4 sum, which rounds the sum.
  return f(f(wjm + resj) - f(wjm / ((jm + 1) * (jm + 1)))) / 1.64493406685;
}

export class TemplateSearchIndex {
  #generation: string | undefined;
  /**
   * PostgreSQL's parse of each recent term with its spellings (keyed by them): the whole query, and each
   * spelling's name-words part (tier 2); at most 1,000 terms.
   */
  #queries = new Map<string, ParsedTerm>();
  /** tag → #tagMarks, for the loaded entries. */
  #tags = new Map<string, Uint8Array>();
  #loading: Promise<void> | undefined;
  #entries: Entry[] = [];
  /** Every public template's index in #entries, in each order a search can ask for. */
  #orders = new Map<string, Int32Array>();
  /** lexeme → the entries holding it; lexemes sorted for prefixes. */
  #postings = new Map<string, Posting>();
  #columns: Columns = { valueCp: new Float64Array(0), weight: new Float64Array(0) };
  #lexemes: string[] = [];
  /** Every folded name (lib/search-fold) in name order, joined by newlines, and where each starts. */
  #names = '';
  #nameStarts = new Int32Array(0);
  /** Each entry's nameLength, by entry: ranking reads it without touching the entries. */
  #nameLengths = new Int32Array(0);
  /** Every entry's folded description and tags (one a line), in entry order, joined by newlines. */
  #texts = '';
  #textStarts = new Int32Array(0);
  /**
   * The words (runs of letters, marks and digits) of the folded descriptions and tags, each once, joined
   * by newlines, where each starts, and the entries holding each: a word of a search, being such a run,
   * is in a text only inside one of them, and the vocabulary is a fraction of the texts to scan.
   */
  #vocabulary = '';
  #vocabularyStarts = new Int32Array(0);
  #vocabularyEntries: Int32Array[] = [];

  constructor(private readonly db: Executor) {}

  async search(filter: SearchFilter): Promise<{ rows: ItemTemplateView[]; total: number }> {
    const spellings = filter.term === undefined ? [] : [filter.term, ...(filter.spellings ?? [])];
    const key = JSON.stringify(spellings);
    // PostgreSQL's parse of a term depends on its spellings only: a repeated one reads just the counter.
    const known = spellings.length === 0 ? { query: null } : this.#queries.get(key);
    if (known !== undefined) {
      const counter = await this.db.execute(GENERATION);
      const generation = (counter as unknown as { rows: { generation: string }[] }).rows[0]?.generation;
      if (generation !== undefined) return this.#searchParsed(filter, generation, known);
    }
    // As items.repository's search: each spelling's websearch query or name-words prefixes, OR-ed.
    const parts = spellings.map((spelling) => {
      const words = spelling.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      const prefixes = words.map((word) => `${word}:*A`).join(' & ');
      return prefixes
        ? sql`(websearch_to_tsquery('english', ${spelling}) || to_tsquery('simple', ${prefixes}))`
        : sql`websearch_to_tsquery('english', ${spelling})`;
    });
    const query = parts.length === 0 ? sql`null::text` : sql`(${sql.join(parts, sql` || `)})::text`;
    const result = await this.db.execute<{ generation: string } & ParsedTerm>(
      sql`select n::text as generation, ${query} as query from item_template_generation where id = 1`,
    );
    const row = (result as unknown as { rows: ({ generation: string } & ParsedTerm)[] }).rows[0];
    if (!row) return itemsRepository.search(this.db, filter);
    const parsedTerm = { query: row.query };
    if (spellings.length > 0) {
      if (this.#queries.size >= 1000) this.#queries.clear();
      this.#queries.set(key, parsedTerm);
    }
    return this.#searchParsed(filter, row.generation, parsedTerm);
  }

  async #searchParsed(
    filter: SearchFilter,
    generation: string,
    term: ParsedTerm,
  ): Promise<{ rows: ItemTemplateView[]; total: number }> {
    let parsed: QueryNode | undefined;
    try {
      parsed = term.query ? parseTsquery(term.query) : undefined;
      if (parsed) checkPhrases(parsed);
    } catch (error) {
      if (error instanceof Unsupported) return itemsRepository.search(this.db, filter);
      throw error;
    }
    if (generation !== this.#generation) await this.#reload(generation);
    return this.#answer(filter, parsed);
  }

  #reload(generation: string): Promise<void> {
    // One load at a time; a search that arrives meanwhile waits for it (and may load again if newer).
    const previous = this.#loading ?? Promise.resolve();
    const next = previous.then(async () => {
      if (this.#generation !== undefined && BigInt(this.#generation) >= BigInt(generation)) return;
      await this.#load();
    });
    this.#loading = next.finally(() => {
      if (this.#loading === next) this.#loading = undefined;
    });
    return next;
  }

  async #load(): Promise<void> {
    // The generation is read before the rows: a write that lands between them bumps it past what we
    // record, so the next search loads again; an index is never older than the generation it carries.
    const counter = await this.db.execute(
      sql`select n::text as generation from item_template_generation where id = 1`,
    );
    const generation = (counter as unknown as { rows: { generation: string }[] }).rows[0]?.generation;
    const rows = await this.db
      .select({
        template: templateColumns,
        creatorName: users.username,
        vector: sql<string>`${itemTemplates.searchVector}::text`,
      })
      .from(itemTemplates)
      .leftJoin(users, eq(users.id, itemTemplates.creatorId))
      .where(and(isNull(itemTemplates.deletedAt), eq(itemTemplates.visibility, 'public')));
    const entries: Entry[] = rows.map(({ template, creatorName, vector }) => {
      const parsed = parseTsvector(vector ?? '');
      return {
        view: { template, creatorName },
        nameLower: template.name.toLowerCase(),
        nameFolded: foldForSearch(template.name),
        nameLength: [...template.name].length,
        valueCp:
          template.metadata.priced === false
            ? Number.NaN
            : template.baseValue * (copperPer[template.currency] ?? 1),
        tags: new Set(template.tags),
        foldedTags: new Set(template.tags.map(foldForSearch)),
        lexemes: [...parsed.keys()].sort(byteOrder),
        vector: parsed,
      };
    });
    const byName = (a: Entry, b: Entry) =>
      byteOrder(a.nameLower, b.nameLower) || byteOrder(a.view.template.id, b.view.template.id);
    const order = (compare: (a: number, b: number) => number) => {
      const indices = Int32Array.from(entries.keys());
      return indices.sort(compare);
    };
    const nameOrder = order((a, b) => byName(at(entries, a), at(entries, b)));
    const rankOf = new Int32Array(entries.length);
    nameOrder.forEach((entry, position) => {
      rankOf[entry] = position;
    });
    const orders = new Map<string, Int32Array>();
    orders.set('name:asc', nameOrder);
    orders.set(
      'name:desc',
      order(
        (a, b) =>
          byteOrder(at(entries, b).nameLower, at(entries, a).nameLower) ||
          byteOrder(at(entries, a).view.template.id, at(entries, b).view.template.id),
      ),
    );
    for (const [key, value] of [
      ['value', (e: Entry) => e.valueCp],
      ['weight', (e: Entry) => e.view.template.weight],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        orders.set(
          `${key}:${direction}`,
          order(
            (a, b) =>
              compareNullsLast(value(at(entries, a)), value(at(entries, b)), direction) ||
              at(rankOf, a) - at(rankOf, b),
          ),
        );
      }
    }
    const lists = new Map<string, number[]>();
    entries.forEach((entry, index) => {
      for (const lexeme of entry.lexemes) {
        const list = lists.get(lexeme);
        if (list) list.push(index);
        else lists.set(lexeme, [index]);
      }
    });
    const postings = new Map<string, Posting>();
    for (const [lexeme, list] of lists) {
      const positions = list.map((index) => entryAt(entries, index).vector.get(lexeme) ?? []);
      const weights = Uint8Array.from(positions, (list) => {
        let mask = 0;
        for (const p of list) mask |= 1 << (p & 3);
        return mask;
      });
      postings.set(lexeme, {
        entries: Int32Array.from(list),
        weights,
        positions,
        orTerms: Float64Array.from(positions, rankOrTerm),
      });
    }
    const starts = new Int32Array(entries.length);
    let offset = 0;
    nameOrder.forEach((index, k) => {
      starts[k] = offset;
      offset += entryAt(entries, index).nameFolded.length + 1;
    });
    this.#names = Array.from(nameOrder, (index) => entryAt(entries, index).nameFolded).join('\n');
    this.#nameStarts = starts;
    this.#nameLengths = Int32Array.from(entries, (entry) => entry.nameLength);
    // The descriptions and tags, folded, in entry order: one native scan finds a word in all of them.
    const texts = entries.map(
      ({ view: { template } }) =>
        `${foldForSearch(template.description)}\n${template.tags.map(foldForSearch).join('\n')}`,
    );
    const textStarts = new Int32Array(entries.length);
    let textOffset = 0;
    texts.forEach((text, index) => {
      textStarts[index] = textOffset;
      textOffset += text.length + 1;
    });
    this.#texts = texts.join('\n');
    this.#textStarts = textStarts;
    const holders = new Map<string, number[]>();
    texts.forEach((text, index) => {
      for (const word of text.match(TEXT_WORD) ?? []) {
        const list = holders.get(word);
        if (!list) holders.set(word, [index]);
        else if (list.at(-1) !== index) list.push(index);
      }
    });
    const vocabulary = [...holders.keys()];
    const vocabularyStarts = new Int32Array(vocabulary.length);
    let vocabularyOffset = 0;
    vocabulary.forEach((word, k) => {
      vocabularyStarts[k] = vocabularyOffset;
      vocabularyOffset += word.length + 1;
    });
    this.#vocabulary = vocabulary.join('\n');
    this.#vocabularyStarts = vocabularyStarts;
    this.#vocabularyEntries = vocabulary.map((word) => Int32Array.from(holders.get(word) ?? []));
    this.#entries = entries;
    this.#tags = new Map();
    this.#columns = {
      valueCp: Float64Array.from(entries, (entry) => entry.valueCp),
      weight: Float64Array.from(entries, (entry) => entry.view.template.weight),
    };
    this.#orders = orders;
    this.#postings = postings;
    this.#lexemes = [...postings.keys()].sort(byteOrder);
    this.#generation = generation;
  }

  /** The entries whose vector matches the query (search_vector @@ query). */
  #matching(node: QueryNode): Uint8Array {
    const n = this.#entries.length;
    switch (node.kind) {
      case 'operand': {
        const marks = new Uint8Array(n);
        const lexemes = node.prefix ? this.#lexemesWithPrefix(node.lexeme) : [node.lexeme];
        const wanted = node.weights;
        for (const lexeme of lexemes) {
          const posting = this.#postings.get(lexeme);
          if (!posting) continue;
          const { entries, weights } = posting;
          for (let i = 0; i < entries.length; i++)
            if (wanted === 0 || (weights[i] ?? 0) & wanted) marks[entries[i] ?? 0] = 1;
        }
        return marks;
      }
      case 'not': {
        const marks = this.#matching(node.child);
        for (let i = 0; i < n; i++) marks[i] = marks[i] ? 0 : 1;
        return marks;
      }
      case 'and': {
        const left = this.#matching(node.left);
        const right = this.#matching(node.right);
        for (let i = 0; i < n; i++) left[i] = (left[i] ?? 0) & (right[i] ?? 0);
        return left;
      }
      case 'or': {
        const left = this.#matching(node.left);
        const right = this.#matching(node.right);
        for (let i = 0; i < n; i++) left[i] = (left[i] ?? 0) | (right[i] ?? 0);
        return left;
      }
      case 'phrase': {
        const left = this.#matching(node.left);
        const right = this.#matching(node.right);
        for (let i = 0; i < n; i++)
          if (left[i] && right[i])
            left[i] = phraseMatches(node, entryAt(this.#entries, i)).length > 0 ? 1 : 0;
          else left[i] = 0;
        return left;
      }
    }
  }

  /**
   * The entries a term matches: its tsquery (`@@`, bit 1) or every word of one of its spellings in the
   * name, description or tags (WORDS_MATCH), 0 for neither; and, by spelling, how each name holds the
   * spelling (#namesHolding) and its words (#wordsHeld).
   */
  #termMarks(
    query: QueryNode | undefined,
    spellings: string[],
  ): { marks: Uint8Array; holds: Uint8Array[]; wordsHeld: Uint8Array[] } {
    const marks = query ? this.#matching(query) : new Uint8Array(this.#entries.length);
    const holds = spellings.map((spelling) => this.#namesHolding(foldForSearch(spelling)));
    // Spellings share words ("storms blade", "storm blade"): each word's scan is made once per search.
    const scanned = new Map<string, Uint8Array>();
    const wordMarks = (word: string) => {
      const known = scanned.get(word);
      if (known) return known;
      const found = this.#wordMarks(word);
      scanned.set(word, found);
      return found;
    };
    const wordsHeld = spellings.map((spelling) => this.#wordsHeld(spelling, marks, wordMarks));
    return { marks, holds, wordsHeld };
  }

  /**
   * By entry, how the words of `spelling` (lib/search-fold searchWords) stand in its name: 3 each at the
   * start of a word of it, 1 each somewhere in it, 0 otherwise; and WORDS_MATCH set in `marks` for the
   * entries holding each word in the name, description or tags (items.repository's textCondition).
   */
  #wordsHeld(spelling: string, marks: Uint8Array, wordMarks: (word: string) => Uint8Array): Uint8Array {
    const n = this.#entries.length;
    const held = new Uint8Array(n);
    const words = searchWords(spelling).map(foldForSearch);
    if (words.length === 0) return held;
    const perWord = words.map(wordMarks);
    for (let i = 0; i < n; i++) {
      let all = IN_NAME | AT_WORD_START | IN_TEXT;
      let found = true;
      for (const wordMarks of perWord) {
        const bits = wordMarks[i] ?? 0;
        all &= bits;
        if (bits === 0) {
          found = false;
          break;
        }
      }
      if (!found) continue;
      marks[i] = (marks[i] ?? 0) | WORDS_MATCH;
      held[i] = all & AT_WORD_START ? 3 : all & IN_NAME ? 1 : 0;
    }
    return held;
  }

  /**
   * By entry, where its folded texts hold `word` (folded): IN_NAME, AT_WORD_START (somewhere in the name
   * after a word separator or at its start) and IN_TEXT (the description or a tag). Two native scans: the
   * joined names, every occurrence; the joined descriptions and tags, the first in each entry.
   */
  #wordMarks(word: string): Uint8Array {
    const entries = this.#entries;
    const marks = new Uint8Array(entries.length);
    if (word.includes('\n')) {
      // A word of punctuation that spans lines: the joined texts would join entries; each entry alone.
      entries.forEach((entry, index) => {
        const { description, tags } = entry.view.template;
        let bits = 0;
        for (let at = entry.nameFolded.indexOf(word); at >= 0; at = entry.nameFolded.indexOf(word, at + 1))
          bits |=
            at === 0 || isWordSeparator(entry.nameFolded.charAt(at - 1)) ? IN_NAME | AT_WORD_START : IN_NAME;
        if (foldForSearch(description).includes(word) || tags.map(foldForSearch).join('\n').includes(word))
          bits |= IN_TEXT;
        marks[index] = bits;
      });
      return marks;
    }
    const names = this.#names;
    const starts = this.#nameStarts;
    const order = this.#order('name:asc');
    let k = 0;
    for (let found = names.indexOf(word); found >= 0; ) {
      while (k + 1 < starts.length && (starts[k + 1] ?? 0) <= found) k++;
      const index = order[k] ?? 0;
      const atWordStart = found === 0 || isWordSeparator(names.charAt(found - 1));
      const bits = (marks[index] ?? 0) | (atWordStart ? IN_NAME | AT_WORD_START : IN_NAME);
      marks[index] = bits;
      // Once the name holds it at a word's start, nothing more is to be learnt from it.
      const next =
        bits & AT_WORD_START && k + 1 < starts.length ? (starts[k + 1] ?? names.length) : found + 1;
      found = names.indexOf(word, next);
    }
    if (ONE_TEXT_WORD.test(word)) {
      const vocabulary = this.#vocabulary;
      const vocabularyStarts = this.#vocabularyStarts;
      let v = 0;
      for (let found = vocabulary.indexOf(word); found >= 0; ) {
        while (v + 1 < vocabularyStarts.length && (vocabularyStarts[v + 1] ?? 0) <= found) v++;
        for (const index of this.#vocabularyEntries[v] ?? []) marks[index] = (marks[index] ?? 0) | IN_TEXT;
        if (v + 1 >= vocabularyStarts.length) break;
        found = vocabulary.indexOf(word, vocabularyStarts[v + 1] ?? vocabulary.length);
      }
      return marks;
    }
    // A word of punctuation ("%"): the texts themselves.
    const texts = this.#texts;
    const textStarts = this.#textStarts;
    let j = 0;
    for (let found = texts.indexOf(word); found >= 0; ) {
      while (j + 1 < textStarts.length && (textStarts[j + 1] ?? 0) <= found) j++;
      marks[j] = (marks[j] ?? 0) | IN_TEXT;
      if (j + 1 >= textStarts.length) break;
      found = texts.indexOf(word, textStarts[j + 1] ?? texts.length);
    }
    return marks;
  }

  /**
   * By entry, how its folded name holds `term` (the tiers of `nameTier` that need the term in the
   * name): 6 the name itself, 5 its first word(s), 4 its start, 2 elsewhere in it, 0 not at all. Read off
   * the one scan that finds the names, so ranking never compares the names again.
   */
  #namesHolding(term: string): Uint8Array {
    const holds = new Uint8Array(this.#entries.length);
    if (term.includes('\n')) {
      this.#entries.forEach((entry, index) => {
        const at = entry.nameFolded.indexOf(term);
        if (at >= 0) holds[index] = at > 0 ? 2 : heldAtStart(entry.nameFolded.charAt(term.length));
      });
      return holds;
    }
    // One native scan of all names instead of one includes() per template.
    const names = this.#names;
    const starts = this.#nameStarts;
    const order = this.#order('name:asc');
    let from = 0;
    for (;;) {
      const found = names.indexOf(term, from);
      if (found < 0) break;
      let low = 0;
      let high = starts.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((starts[middle] ?? 0) <= found) low = middle + 1;
        else high = middle;
      }
      const k = low - 1;
      // The first time the name holds the term: at its start if it starts with it.
      holds[order[k] ?? 0] =
        found > (starts[k] ?? 0) ? 2 : heldAtStart(names.charAt(found + term.length).replace('\n', ''));
      from = k + 1 < starts.length ? (starts[k + 1] ?? names.length) : names.length;
    }
    return holds;
  }

  /** ts_rank of every entry for a query that calc_rank_or ranks (tsRank's other branch), by entry. */
  #ranksOr(operands: { lexeme: string; prefix: boolean }[]): Float32Array {
    // A Float32Array rounds each sum to float4, as tsrank.c's `res` does.
    const ranks = new Float32Array(this.#entries.length);
    if (operands.length === 0) return ranks;
    for (const operand of operands) {
      const lexemes = operand.prefix ? this.#lexemesWithPrefix(operand.lexeme) : [operand.lexeme];
      for (const lexeme of lexemes) {
        const posting = this.#postings.get(lexeme);
        if (!posting) continue;
        const { entries, orTerms } = posting;
        for (let i = 0; i < entries.length; i++) {
          const index = entries[i] ?? 0;
          ranks[index] = (ranks[index] ?? 0) + (orTerms[i] ?? 0);
        }
      }
    }
    for (let i = 0; i < ranks.length; i++) ranks[i] = (ranks[i] ?? 0) / operands.length;
    return ranks;
  }

  /** 1 for the entries carrying the tag (folded, lib/search-fold); kept per loaded generation. */
  #tagMarks(tag: string): Uint8Array {
    const known = this.#tags.get(tag);
    if (known) return known;
    const marks = Uint8Array.from(this.#entries, (entry) => (entry.foldedTags.has(tag) ? 1 : 0));
    if (this.#tags.size >= 256) this.#tags.clear();
    this.#tags.set(tag, marks);
    return marks;
  }

  #order(key: string): Int32Array {
    const order = this.#orders.get(key);
    if (!order) throw new Error(`no ${key} order`);
    return order;
  }

  #lexemesWithPrefix(prefix: string): string[] {
    const lexemes = this.#lexemes;
    let low = 0;
    let high = lexemes.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (at(lexemes, middle) < prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let i = low; i < lexemes.length; i++) {
      const lexeme = lexemes[i] ?? '';
      if (!lexeme.startsWith(prefix)) break;
      found.push(lexeme);
    }
    return found;
  }

  #answer(filter: SearchFilter, query: QueryNode | undefined): { rows: ItemTemplateView[]; total: number } {
    const entries = this.#entries;
    const termLower = filter.term?.toLowerCase();
    // Names and words are compared without case or accents (lib/search-fold), as the SQL search does.
    const spellings = filter.term === undefined ? [] : [filter.term, ...(filter.spellings ?? [])];
    const termMarks = termLower !== undefined ? this.#termMarks(query, spellings) : undefined;
    const criteria: Criteria = {
      termLower,
      marks: termMarks?.marks,
      tags: filter.tags && filter.tags.length > 0 ? filter.tags : undefined,
      tagMarks: (filter.tags ?? []).map((tag) => this.#tagMarks(foldForSearch(tag))),
      category: filter.category,
      categoryTag: filter.category !== undefined ? `category:${filter.category}` : undefined,
      rarity: filter.rarity,
      minValueCp: filter.minValueCp,
      maxValueCp: filter.maxValueCp,
      minWeight: filter.minWeight,
      maxWeight: filter.maxWeight,
      other: false,
    };
    criteria.other =
      criteria.tags !== undefined ||
      criteria.category !== undefined ||
      criteria.rarity !== undefined ||
      criteria.minValueCp !== undefined ||
      criteria.maxValueCp !== undefined ||
      criteria.minWeight !== undefined ||
      criteria.maxWeight !== undefined;
    const offset = (filter.page - 1) * filter.perPage;
    const end = offset + filter.perPage;

    if (filter.sort === 'relevance' && termLower !== undefined) {
      const operands = query ? rankOperands(query) : [];
      // In name order, so that the stable sort below breaks ties by name, then id.
      const found = accepted(entries, this.#columns, this.#order('name:asc'), criteria);
      // calc_rank_or walks the postings of the operands' lexemes once for every entry at a time.
      const ranks =
        query && query.kind !== 'and' && query.kind !== 'phrase' ? this.#ranksOr(operands) : undefined;
      // As items.repository's search orders them: the tier (how the name meets the term, or the spelling
      // it meets best), then, going down, the shorter name within a tier that met the name, then ts_rank.
      const tiers = new Float64Array(found.length);
      const ranksFound = new Float64Array(found.length);
      const holds = termMarks?.holds ?? [];
      const wordsHeld = termMarks?.wordsHeld ?? [];
      const descending = filter.direction === 'desc';
      // Typed arrays only, by entry: the entries themselves are read for an AND or phrase rank alone.
      const nameLengths = this.#nameLengths;
      for (let k = 0; k < found.length; k++) {
        const index = found[k] ?? 0;
        let tier = 0;
        for (let s = 0; s < spellings.length; s++) {
          const met = nameTier(holds[s]?.[index] ?? 0, wordsHeld[s]?.[index] ?? 0);
          if (met > tier) tier = met;
        }
        if (!descending) {
          tiers[k] = tier;
          continue;
        }
        tiers[k] = tier * 10_000 + (tier > 0 ? 9_999 - (nameLengths[index] ?? 0) : 0);
        ranksFound[k] = ranks
          ? (ranks[index] ?? 0)
          : query
            ? tsRank(entryAt(entries, index), query, operands)
            : 0;
      }
      // Positions in `found`: ties keep name order, as a stable sort would.
      const ranked = topPositions(tiers, descending ? -1 : 1, end, descending ? ranksFound : undefined);
      return {
        rows: Array.from(ranked.subarray(offset, end), (k) => entryAt(entries, found[k] ?? 0).view),
        total: found.length,
      };
    }
    const key: SortKey = filter.sort === 'relevance' ? 'name' : filter.sort;
    const order = this.#order(`${key}:${filter.direction}`);
    // Browsing everything: the page is a slice of the precomputed order.
    const found =
      termLower !== undefined || criteria.other ? accepted(entries, this.#columns, order, criteria) : order;
    return {
      rows: Array.from(found.slice(offset, end), (index) => entryAt(entries, index).view),
      total: found.length,
    };
  }
}

/** What a term is to its parse in PostgreSQL: the whole tsquery (every spelling's, OR-ed). */
type ParsedTerm = {
  query: string | null;
};

/**
 * How a name meets the term, as the SQL search's tier (items.repository spellingQuery): 6 the name itself,
 * 5 its first word(s), 4 its start, 3 every word at the start of a word of it, 2 the term anywhere in it,
 * 1 every word somewhere in it, 0 elsewhere. `held` is #namesHolding's (how the name holds the term),
 * `words` #wordsHeld's (how it holds the term's words).
 */
function nameTier(held: number, words: number): number {
  if (held >= 4) return held;
  if (words === 3) return 3;
  return held || words;
}

/** The tier of a name that starts with the term, by the character after it ('' at the name's end). */
function heldAtStart(next: string): number {
  if (next === '') return 6;
  return next === ' ' || next === ',' ? 5 : 4;
}

/**
 * The positions 0..scores.length-1 ordered by score (sign -1: descending), ties by position, cut to the
 * first `count`: a bounded insertion for a page near the top, a full sort otherwise.
 */
export function topPositions(
  scores: Float64Array,
  sign: number,
  count: number,
  /** Compared the same way where the scores tie. */
  then?: Float64Array,
): Int32Array {
  const n = scores.length;
  if (count <= 0) return new Int32Array(0);
  const compare = (a: number, b: number) =>
    sign * ((scores[a] ?? 0) - (scores[b] ?? 0)) || (then ? sign * ((then[a] ?? 0) - (then[b] ?? 0)) : 0);
  const before = (a: number, b: number) => compare(a, b) < 0;
  if (count > 256 || count * 8 > n) {
    const all = Int32Array.from({ length: n }, (_, k) => k);
    all.sort((a, b) => compare(a, b) || a - b);
    return all.subarray(0, Math.min(count, n));
  }
  const best = new Int32Array(count);
  let size = 0;
  for (let k = 0; k < n; k++) {
    // k is after every kept position, so it goes before one only on a strictly better score.
    if (size === count && !before(k, best[size - 1] ?? 0)) continue;
    let at = size === count ? size - 1 : size++;
    while (at > 0 && before(k, best[at - 1] ?? 0)) {
      best[at] = best[at - 1] ?? 0;
      at--;
    }
    best[at] = k;
  }
  return best.subarray(0, size);
}

/** SQL's `order by x asc|desc nulls last`, NaN standing for null (an unpriced template's value). */
function compareNullsLast(a: number, b: number, direction: 'asc' | 'desc'): number {
  const aMissing = Number.isNaN(a);
  const bMissing = Number.isNaN(b);
  if (aMissing || bMissing) return Number(aMissing) - Number(bMissing);
  return direction === 'asc' ? a - b : b - a;
}

/** Every entry's value in copper and weight, by entry index. */
interface Columns {
  valueCp: Float64Array;
  weight: Float64Array;
}

interface Criteria {
  termLower: string | undefined;
  marks: Uint8Array | undefined;
  tags: string[] | undefined;
  /** For each tag asked for, 1 for the entries that carry it. */
  tagMarks: Uint8Array[];
  category: string | undefined;
  categoryTag: string | undefined;
  rarity: string | undefined;
  minValueCp: number | undefined;
  maxValueCp: number | undefined;
  minWeight: number | undefined;
  maxWeight: number | undefined;
  /** Any criterion besides the term. */
  other: boolean;
}

/** The entries, in `order`, that match the term (vector or part of the name) and every filter. */
function accepted(entries: Entry[], columns: Columns, order: Int32Array, c: Criteria): number[] {
  const found: number[] = [];
  // A term always comes with its marks; no entry matches a term without them.
  const term = c.termLower !== undefined;
  const marks = c.marks ?? new Uint8Array(0);
  const { valueCp, weight } = columns;
  const { minValueCp, maxValueCp, minWeight, maxWeight } = c;
  const tagMarks = c.tagMarks;
  const labels = c.categoryTag !== undefined || c.rarity !== undefined;
  next: for (let k = 0; k < order.length; k++) {
    const index = order[k] ?? 0;
    if (term && marks[index] === 0) continue;
    // The numeric filters read typed columns (one load each) before any entry object.
    if (minValueCp !== undefined && !((valueCp[index] ?? Number.NaN) >= minValueCp)) continue;
    if (maxValueCp !== undefined && !((valueCp[index] ?? Number.NaN) <= maxValueCp)) continue;
    if (minWeight !== undefined && !((weight[index] ?? Number.NaN) >= minWeight)) continue;
    if (maxWeight !== undefined && !((weight[index] ?? Number.NaN) <= maxWeight)) continue;
    for (const marks of tagMarks) if (marks[index] !== 1) continue next;
    if (labels) {
      const entry = entries[index];
      if (entry === undefined || !passesLabels(entry, c)) continue;
    }
    found.push(index);
  }
  return found;
}

/** The category and rarity filters (the tags are in tagMarks). */
function passesLabels(entry: Entry, c: Criteria): boolean {
  const t = entry.view.template;
  if (c.categoryTag !== undefined && !entry.tags.has(c.categoryTag)) {
    if (jsonText(t.metadata.category)?.toLowerCase() !== c.category) return false;
  }
  if (c.rarity !== undefined && jsonText(t.metadata.rarity)?.toLowerCase() !== c.rarity) return false;
  return true;
}
