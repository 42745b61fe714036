import { z } from 'zod';
import { fieldMessages, isSafeText, unpairedSurrogate, withoutHiddenFormatCharacters } from './text-rules.js';

/**
 * The building blocks every request schema uses for text, ids and free JSON, so that one rule holds at
 * every field: PostgreSQL cannot store the NUL character in text, jsonb refuses unpaired UTF-16
 * surrogates, and a uuid column refuses anything that is not a uuid. Refused here, such input is a
 * VALIDATION_ERROR naming the field instead of a database error.
 */

/** JSON fields people fill freely (item metadata) nest at most this deep, the field itself included. */
export const MAX_JSON_FIELD_DEPTH = 16;
/** A whole request body nests at most this deep; the server's JSON parser refuses deeper bodies unread. */
export const MAX_JSON_BODY_DEPTH = 64;

export { emailMessage, fieldMessages, hasVisibleText, isSafeText, unsafeCharacters } from './text-rules.js';

/** zod's names for the types a field expected, as a sentence ends ("Must be a number"). */
const expectedWords: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  bigint: 'a whole number',
};

/**
 * What a field says when it is too long, too short, too big or too small, missing, of the wrong type or not
 * one of its choices, and its schema gave no words of its own: zod's defaults ("Too big: expected string to
 * have <=200 characters", "Invalid input: expected object, received undefined") reached players under the
 * fields and integrators in `details`. A schema's own message still wins. Set here, at the top of the module every request schema uses.
 */
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type') {
      if (issue.input === undefined) return 'This field is required';
      return `Must be ${expectedWords[issue.expected] ?? `of type ${issue.expected}`}`;
    }
    if (issue.code === 'invalid_value' && issue.values.length > 0)
      return `Must be one of: ${issue.values.map((value) => String(value)).join(', ')}`;
    if (issue.code !== 'too_big' && issue.code !== 'too_small') return undefined;
    const limit = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
    const bound = limit.toLocaleString('en-US');
    const inclusive = issue.inclusive !== false;
    if (issue.origin === 'string') {
      if (issue.code === 'too_small' && limit === 1) return 'This field is required';
      return issue.code === 'too_big'
        ? `Must be at most ${bound} characters`
        : `Must be at least ${bound} characters`;
    }
    if (issue.origin === 'number' || issue.origin === 'int') {
      if (issue.code === 'too_big')
        return inclusive ? `Must be at most ${bound}` : `Must be less than ${bound}`;
      return inclusive ? `Must be at least ${bound}` : `Must be more than ${bound}`;
    }
    if (issue.origin === 'array') {
      return issue.code === 'too_big' ? `Choose at most ${bound}` : `Choose at least ${bound}`;
    }
    return undefined;
  },
});

type StringParams = Parameters<typeof z.string>[0];

/**
 * Every text field of a request: a zod string that refuses NUL and unpaired surrogates, in Unicode's
 * composed form (NFC), so that "é" typed as one code point or as "e" and an accent is one name to search,
 * sort and compare. It is a ZodString, so `.trim().min().max()` chain on as usual.
 */
export function text(params?: StringParams) {
  return z
    .string(typedParams(params))
    .normalize('NFC')
    .refine(isSafeText, { message: fieldMessages.unsafeText });
}

/**
 * A name (of a character, container, item, party, shop, loot, token): `text()` on one line. Names are
 * written into the ledger's sentences, its CSV rows and every list; a line break or tab there breaks them
 * all. Line breaks at either end are only spaces that `.trim()` takes away. Hidden format characters
 * (a soft hyphen, a zero-width space) are taken out: two names that look the same are the same name.
 * A one-line field that is not a name (a mail's subject) says what it is in `multiLineMessage`.
 */
export function nameText(params?: StringParams, multiLineMessage: string = fieldMessages.multiLineName) {
  return text(params)
    .overwrite(withoutHiddenFormatCharacters)
    .refine((value) => !/[\t\n\r\u2028\u2029]/.test(value.trim()), {
      message: multiLineMessage,
    });
}

/**
 * A text field's own words for a wrong type ("Party name must be at least 3 characters") are for a name
 * left out; a value that is not text at all (`"name": 123`) is told so instead (z.config above). The
 * schema's error only ever speaks for its type check: its length rules carry their own words.
 */
function typedParams(params: StringParams): StringParams {
  const words = typeof params === 'string' ? params : params?.error;
  if (typeof words !== 'string') return params;
  const error = (issue: { input?: unknown }) => (issue.input !== undefined ? undefined : words);
  return { ...(typeof params === 'string' ? {} : params), error };
}

/**
 * A password field: `text()` without the composed form. The server hashes and checks passwords composed
 * itself, and checks a hash made before that as the password was typed, which a schema that composed it
 * first would never let it see (accounts/passwords.ts).
 */
export function secretText(params?: StringParams) {
  return z.string(typedParams(params)).refine(isSafeText, { message: fieldMessages.unsafeText });
}

/**
 * Every id of a request (path, query or body): a uuid, as every table's primary key is. Lower-cased, as
 * PostgreSQL prints uuids, so two spellings of one id compare equal everywhere the services compare ids.
 */
export function entityId(message: string = fieldMessages.invalidId) {
  return z.uuid({ error: message }).transform((id) => id.toLowerCase());
}

/** A number as a form field or a query string holds it: plain decimal digits, no spaces, hex or exponent. */
const decimalDigits = /^-?\d+(\.\d+)?$/;

/**
 * Every number of a request (body or query): JSON clients send numbers, forms and query strings send the
 * digits as text ("12", "2.5"). Anything else is the wrong type (DESIGN §3) and fails `schema`: booleans,
 * arrays, "0x10", "1e3", " 7 ".
 */
export function numberInput<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && decimalDigits.test(value) ? Number(value) : value),
    schema,
  );
}

type PatchShape<Shape extends z.ZodRawShape> = {
  [Key in keyof Shape]: z.ZodOptional<Shape[Key] extends z.ZodDefault<infer Inner> ? Inner : Shape[Key]>;
};

/**
 * The body of a PATCH made from a create form: every field optional, and a field left out stays out. zod's
 * own `.partial()` keeps each field's `.default()`, so a change of one field arrived with every other field
 * at its create default, and the update wrote them all (a character moved to a party came back level 1 with
 * no notes).
 */
export function patchOf<Shape extends z.ZodRawShape>(
  form: z.ZodObject<Shape>,
): z.ZodObject<PatchShape<Shape>> {
  const fields = Object.fromEntries(
    Object.entries(form.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
    ]),
  );
  return z.object(fields) as unknown as z.ZodObject<PatchShape<Shape>>;
}

export function isEntityId(value: unknown): value is string {
  return entityId().safeParse(value).success;
}

export type JsonPath = (string | number)[];
export interface UnsafeJson {
  path: JsonPath;
  message: string;
}

/**
 * The first problem in a parsed JSON value: a string (value or key) that is not safe text, or nesting
 * deeper than `maxDepth` (the value itself is level 1 when it is an object or an array). Iterative, and it
 * never descends past `maxDepth`, so a hostile value cannot exhaust the stack here.
 */
export function findUnsafeJson(value: unknown, maxDepth: number): UnsafeJson | undefined {
  const stack: { value: unknown; path: JsonPath; depth: number }[] = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next) break;
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return { path, message: fieldMessages.unsafeText };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > maxDepth) return { path, message: fieldMessages.tooDeep(maxDepth) };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1)
        stack.push({ value: current[index], path: [...path, index], depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index] as [string, unknown];
      if (!isSafeText(key)) return { path: [...path, readableKey(key)], message: fieldMessages.unsafeText };
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
  return undefined;
}

/** A key that is itself unsafe text is named with its bad characters replaced, so the answer stays clean. */
function readableKey(key: string): string {
  return key.replaceAll('\u0000', '\uFFFD').replace(new RegExp(unpairedSurrogate.source, 'g'), '\uFFFD');
}

/**
 * A free JSON field (item metadata): nesting capped at MAX_JSON_FIELD_DEPTH, size capped as JSON text,
 * and every string in it, keys included, safe text. Add it to an object schema with `.superRefine`.
 */
export function checkJsonField(options: { maxChars: number; maxDepth?: number; tooLarge?: string }) {
  const maxDepth = options.maxDepth ?? MAX_JSON_FIELD_DEPTH;
  return (value: unknown, ctx: z.RefinementCtx) => {
    const problem = findUnsafeJson(value, maxDepth);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path });
      return;
    }
    // Depth is bounded now, so serialising cannot overflow the stack.
    if (JSON.stringify(value).length > options.maxChars)
      ctx.addIssue({ code: 'custom', message: options.tooLarge ?? fieldMessages.tooLarge(options.maxChars) });
  };
}

/**
 * The years a date or date-time of a request may name, at most. PostgreSQL has no year 0, and JavaScript
 * writes a year past 9999 as "+010000", which PostgreSQL cannot read: a date at either edge of the
 * four-digit calendar, or one pushed past it by a time zone or by the day an inclusive end date adds,
 * failed in the database as a 500. Nothing Haversack keeps is dated before 1000 or after 9998, so such a
 * date is a typo, refused naming its field; the year kept free at each end absorbs that day and zone.
 */
export const EARLIEST_REQUEST_DATE = '1000-01-01';
export const LATEST_REQUEST_DATE = '9998-12-31';

/** Whether an ISO date or date-time (as written, before any time zone) lies within the supported years. */
export function isWithinRequestDates(isoDateOrDateTime: string): boolean {
  const day = isoDateOrDateTime.slice(0, 10);
  return day >= EARLIEST_REQUEST_DATE && day <= LATEST_REQUEST_DATE;
}

/**
 * Every date or date-time of a request that reaches SQL (filters, announcement times): `schema` checks the
 * format and says so in its own words; a well-formed date outside the supported years is then refused
 * with one plain message naming `field`.
 */
export function withinRequestDates<T extends z.ZodType<string>>(schema: T, field: string) {
  return schema.refine(isWithinRequestDates, {
    message: `${field} must be between ${EARLIEST_REQUEST_DATE} and ${LATEST_REQUEST_DATE}`,
    // A value the format already refused gets that one message, not a second about its range.
    when: (payload) => payload.issues.length === 0,
  });
}

/** The longest tag a template, shop or loot may carry. */
export const MAX_TAG_LENGTH = 60;

/** A tag too long, named by its start, so that the author of twenty tags can tell which one. */
export function tagTooLongMessage(tag: unknown): string {
  const text = String(tag);
  const start = text.length > 24 ? `${text.slice(0, 24)}…` : text;
  return `A tag can be at most ${MAX_TAG_LENGTH} characters: “${start}” is ${text.length}`;
}

/** One tag, as lists of tags take it. */
export function tagText() {
  return text().max(MAX_TAG_LENGTH, { error: (issue) => tagTooLongMessage(issue.input) });
}

/**
 * Whether a number has at most `places` decimal places, counted in its shortest decimal form, exponent
 * included: 0.29 is "0.29" though 0.29 * 100 is 28.999999999999996, and 1e-9 has nine. A margin for float
 * error let 1e-9 pass, to be stored as 0, unlimited (attack review).
 */
export function hasAtMostDecimals(value: number | string, places: number): boolean {
  const number = Number(value);
  const [digits = '', exponent = '0'] = String(number).split('e');
  return Number.isFinite(number) && (digits.split('.')[1]?.length ?? 0) - Number(exponent) <= places;
}

/** Whether a number has at most two decimal places, as weight limits are kept (hundredths of a pound). */
export function inHundredths(value: number | string): boolean {
  return hasAtMostDecimals(value, 2);
}
