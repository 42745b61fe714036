import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiTokenCreateSchema } from './api-tokens.js';
import { loginBodySchema } from './auth.js';
import { massMailBodySchema } from './back-office.js';
import { characterFormSchema } from './characters.js';
import {
  entityId,
  fieldMessages,
  findUnsafeJson,
  hasVisibleText,
  isSafeText,
  MAX_JSON_FIELD_DEPTH,
  numberInput,
  patchOf,
  tagTooLongMessage,
  text,
  withinRequestDates,
} from './fields.js';
import {
  containerFormSchema,
  instanceDataSchema,
  itemInstanceCreateSchema,
  itemInstanceUpdateBodySchema,
} from './inventory.js';
import { itemTemplateMetadataSchema, itemTemplateUpdateSchema, normaliseTags } from './items.js';
import { lootTemplateFormSchema } from './loot.js';
import { partyFormSchema, patronageCreateBodySchema, previewQuerySchema } from './parties.js';
import { shopTemplateFormSchema } from './shops.js';

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

describe('names', () => {
  it('fit on one line: a line break or tab in one is refused, at either end it is trimmed away', () => {
    const named = (name: string) =>
      [
        characterFormSchema.safeParse({ name }),
        containerFormSchema.safeParse({ name }),
        partyFormSchema.safeParse({ name }),
        apiTokenCreateSchema.safeParse({ name, scope: 'read' }),
        itemInstanceUpdateBodySchema.safeParse({ item_instance: { name } }),
        lootTemplateFormSchema.safeParse({ name }),
        shopTemplateFormSchema.safeParse({ name }),
      ].map((result) => issues(result).filter((issue) => issue.message === fieldMessages.multiLineName));
    for (const broken of [
      '漢字 Kanji\n🐉',
      'Doomed\r\nDan',
      'Tab\tbed',
      'Line\u2028sep',
      'Para\u2029graph',
    ]) {
      expect(named(broken).map((found) => found.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    }
    expect(named('\n  Élodie the Bold \n').flat()).toEqual([]);
  });

  // A mass mail's subject is kept to one line as names are, but its refusal speaks of the subject.
  it('refuse a mass mail subject on two lines in the subject’s own words, names keeping theirs', () => {
    for (const subject of ['News\r\nBcc: everyone@example.com', 'News\tof the week']) {
      expect(issues(massMailBodySchema.safeParse({ audience: 'all', subject, body: 'b' }))).toEqual([
        { path: 'subject', message: 'A subject must fit on one line: no line breaks or tabs' },
      ]);
    }
    expect(issues(characterFormSchema.safeParse({ name: 'Doomed\nDan' }))).toEqual([
      { path: 'name', message: 'A name must fit on one line: no line breaks or tabs' },
    ]);
  });

  it('refuse C1 controls as control characters, NEL (U+0085) too, as the server-wide input guard does', () => {
    const messages = (name: string) => issues(characterFormSchema.safeParse({ name })).map((i) => i.message);
    expect(messages('Next\u0085line')).toEqual([fieldMessages.unsafeText]);
    expect(messages('Bell\u0007ed')).toEqual([fieldMessages.unsafeText]);
    expect(messages('Escape\u009B31m')).toEqual([fieldMessages.unsafeText]);
  });

  it('need something visible: a name of format, tag or ignorable characters only is refused', () => {
    const blank = [
      '\u061C',
      '\u180E',
      '\u{E0020}\u{E0041}\u{E007F}',
      '\uFFF9\uFFFA\uFFFB',
      '\u{1D173}\u{1D174}',
      '\u{1BCA0}',
      '\u{13430}',
      '\u206A\u206F',
      '\uFFFC',
      '\u034F',
      '\uFE0F\uFE0F',
      '\uFDD0',
      '\uFFFE',
    ];
    for (const name of blank) {
      const refused = [
        characterFormSchema.safeParse({ name }),
        partyFormSchema.safeParse({ name: `${name}${name}${name}` }),
        apiTokenCreateSchema.safeParse({ name, scope: 'read' }),
      ].map((result) => result.success);
      expect(refused, JSON.stringify(name)).toEqual([false, false, false]);
    }
  });
});

describe('text()', () => {
  it('refuses the NUL character and unpaired surrogates, and keeps chaining like a string', () => {
    const name = text().trim().min(1).max(10);
    for (const bad of [
      'a\u0000b',
      '\u0000',
      '\ud800',
      'x\udfff',
      '\udc00\ud800',
      'ok\ud83d',
      'a\u0007b',
      'RTL \u202Eevil',
      '\u001b[31m',
      // C1 controls: U+009B is the 8-bit escape a terminal reads as the start of a command.
      '\u0080',
      'a\u0085b',
      '\u009B31m',
      'x\u009F',
    ])
      expect(name.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(name.parse('  Pip 🐉  ')).toBe('Pip 🐉');
    expect(issues(name.safeParse('a\u0000'))).toEqual([{ path: '', message: fieldMessages.unsafeText }]);
  });

  it('is what every request text field is made of', () => {
    expect(issues(loginBodySchema.safeParse({ email: 'a\u0000b', password: 'x' }))).toEqual([
      { path: 'email', message: fieldMessages.unsafeText },
    ]);
    expect(isSafeText('Longsword +1')).toBe(true);
    // Tabs and line breaks in a description, right-to-left writing and its isolates are text like any other.
    expect(isSafeText('Line one\r\n\tLine two')).toBe(true);
    expect(isSafeText('שלום \u2067עולם\u2069 world')).toBe(true);
  });
});

describe('hasVisibleText()', () => {
  it('wants something besides spaces and characters that take no room', () => {
    for (const blank of [
      '\u200B\u200B',
      ' \u200D\uFEFF ',
      '\u2066\u2069',
      '\u00AD',
      '\u3164\u3164\u3164',
      '\u2800',
      '\u115F\u1160\uFFA0',
      '\u0301\u0301\u0301',
      '\u061C',
      '\u0080\u0085\u009B',
      '\u{E0020}\u{E007F}',
      '\uFFF9',
      '\u{1D173}',
      '\u{1BCA0}',
      '\u{13430}',
      '\u206A',
      '\uFFFC',
      '\uFDD0\uFFFF\u{1FFFE}',
    ])
      expect(hasVisibleText(blank), JSON.stringify(blank)).toBe(false);
    for (const name of [
      'Pip',
      '🐉',
      '👨\u200D👩\u200D👧',
      'שלום',
      'a\u200Bb',
      'क्षत्रिय',
      '❤\uFE0F',
      'e\u0301',
      // Joiners, variation selectors and tag characters inside an emoji are part of what shows.
      '👨\u200D👩\u200D👧\u200D👦',
      '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
      '🏳\uFE0F\u200D🌈',
      // A private-use character shows as its font's glyph or as a box, never as nothing.
      '\uE000',
    ])
      expect(hasVisibleText(name), JSON.stringify(name)).toBe(true);
  });
});

describe('text()', () => {
  it('keeps text in composed form, so one word typed two ways is one name', () => {
    expect(text().trim().parse(' Cafe\u0301 ')).toBe('Caf\u00e9');
    expect(text().parse('Caf\u00e9')).toBe('Caf\u00e9');
  });
});

describe('entityId()', () => {
  it('takes only uuids, with the message of the field', () => {
    const party = entityId('Choose a party');
    expect(party.safeParse('3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b').success).toBe(true);
    for (const bad of ['abc', '', 'a'.repeat(101), '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b\u0000', 42])
      expect(issues(party.safeParse(bad))).toEqual([{ path: '', message: 'Choose a party' }]);
  });

  it('guards every id of the requests the issue names', () => {
    expect(previewQuerySchema.safeParse({ id: 'abc' }).success).toBe(false);
    expect(characterFormSchema.safeParse({ name: 'Pip', party_id: 'abc' }).success).toBe(false);
    expect(characterFormSchema.safeParse({ name: 'Pip', party_id: null }).success).toBe(true);
    expect(
      issues(patronageCreateBodySchema.safeParse({ beneficiary_id: 'x', party_id: 'y' })).map((i) => i.path),
    ).toEqual(['beneficiary_id', 'party_id']);
  });
});

describe('numberInput()', () => {
  const whole = numberInput(z.number().int().min(1));

  it('takes numbers, and the plain decimal digits a form field or a query string holds', () => {
    expect(whole.parse(7)).toBe(7);
    expect(whole.parse('7')).toBe(7);
    expect(whole.parse('0012')).toBe(12);
    expect(numberInput(z.number()).parse('-2.5')).toBe(-2.5);
  });

  it('refuses every other type and spelling instead of converting it (DESIGN §3)', () => {
    for (const wrong of [
      true,
      false,
      [5],
      {},
      null,
      '',
      ' 7 ',
      '7 ',
      '0x10',
      '1e3',
      '+5',
      '.5',
      '5.',
      'Infinity',
      '1_000',
    ]) {
      expect(whole.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it('holds for the request schemas that take numbers', () => {
    const body = {
      item_template_id: '6f1c1c1e-3f5d-4a59-9f57-0d7f2f1b8a11',
      container_id: '6f1c1c1e-3f5d-4a59-9f57-0d7f2f1b8a12',
    };
    expect(itemInstanceCreateSchema.parse({ ...body, quantity: '3' }).quantity).toBe(3);
    for (const quantity of [true, [2], '0x10', '1e3', ' 7 ']) {
      const result = itemInstanceCreateSchema.safeParse({ ...body, quantity });
      expect(result.success, JSON.stringify(quantity)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['quantity']);
    }
    expect(characterFormSchema.safeParse({ name: 'Nim', level: true }).error?.issues[0]?.message).toBe(
      'Level must be a whole number',
    );
  });
});

describe('free JSON fields', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) });

  it('finds unsafe text anywhere, keys included, with its path', () => {
    expect(findUnsafeJson({ a: [1, { b: 'x\ud800' }] }, 16)).toEqual({
      path: ['a', 1, 'b'],
      message: fieldMessages.unsafeText,
    });
    expect(findUnsafeJson({ 'k\u0000': 1 }, 16)?.path).toEqual(['k\uFFFD']);
    expect(findUnsafeJson({ a: ['🐉'] }, 16)).toBeUndefined();
  });

  it('stops at the depth cap without walking further', () => {
    expect(findUnsafeJson(nested(16), 16)).toBeUndefined();
    expect(findUnsafeJson(nested(17), 16)).toEqual({
      path: Array(16).fill('a'),
      message: fieldMessages.tooDeep(16),
    });
    // Far past any stack: refused at once, iteratively.
    let deep: unknown[] = [];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(findUnsafeJson(deep, 16)?.message).toBe(fieldMessages.tooDeep(16));
  });

  it('caps item metadata in depth, size and text', () => {
    expect(itemTemplateMetadataSchema.safeParse(nested(MAX_JSON_FIELD_DEPTH)).success).toBe(true);
    expect(issues(itemTemplateMetadataSchema.safeParse(nested(MAX_JSON_FIELD_DEPTH + 1)))).toEqual([
      { path: Array(MAX_JSON_FIELD_DEPTH).fill('a').join('.'), message: fieldMessages.tooDeep(16) },
    ]);
    expect(issues(itemTemplateMetadataSchema.safeParse({ lore: 'x'.repeat(10_001) }))).toEqual([
      { path: '', message: 'Metadata is too large' },
    ]);
    expect(issues(itemTemplateMetadataSchema.safeParse({ rarity: '\ud800' }))[0]?.path).toBe('rarity');
  });
});

describe('patchOf', () => {
  const form = z.object({
    name: z.string().min(1),
    level: z.number().default(1),
    notes: z.string().default(''),
  });

  it('leaves out what was not sent, where .partial() filled in the defaults', () => {
    expect(form.partial().parse({ name: 'Thorin' })).toEqual({ name: 'Thorin', level: 1, notes: '' });
    expect(patchOf(form).parse({ name: 'Thorin' })).toEqual({ name: 'Thorin' });
    expect(patchOf(form).parse({})).toEqual({});
  });

  it('keeps each field’s own rules', () => {
    expect(patchOf(form).safeParse({ name: '' }).success).toBe(false);
    expect(patchOf(form).safeParse({ level: 'seven' }).success).toBe(false);
    expect(patchOf(form).parse({ level: 7 })).toEqual({ level: 7 });
  });
});

describe('the words of a field out of bounds', () => {
  it('names the bound in plain words when the schema gives none of its own', () => {
    const message = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
    expect(message(text().max(200), 'x'.repeat(201))).toBe('Must be at most 200 characters');
    expect(message(text().min(3), 'xy')).toBe('Must be at least 3 characters');
    expect(message(z.number().max(1_000_000), 2_000_000)).toBe('Must be at most 1,000,000');
    expect(message(z.number().int().min(1), 0)).toBe('Must be at least 1');
    // A schema's own words still win, and a name too long no longer reads as missing.
    expect(message(text({ error: 'Name is required' }).max(5, 'Too long'), 'abcdefg')).toBe('Too long');
    expect(message(characterFormSchema, { name: 'x'.repeat(101) })).toBe(
      'Character name must be at most 100 characters',
    );
  });

  it('says a field is missing, of the wrong type or not one of its choices in plain words', () => {
    const message = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
    expect(message(z.object({ party: z.object({}) }), {})).toBe('This field is required');
    expect(message(z.object({}), 'x')).toBe('Must be an object');
    expect(message(z.number(), 'abc')).toBe('Must be a number');
    expect(message(z.boolean(), 1)).toBe('Must be true or false');
    expect(message(z.array(z.string()), {})).toBe('Must be a list');
    expect(message(z.string(), 5)).toBe('Must be text');
    expect(message(z.enum(['full', 'limited', 'restricted']), 'everyone')).toBe(
      'Must be one of: full, limited, restricted',
    );
    // A schema's own words still win.
    expect(message(z.enum(['a', 'b'], { error: 'Pick a or b' }), 'c')).toBe('Pick a or b');
    // A text field's own words speak for it when it is left out, not when it is not text at all.
    expect(message(partyFormSchema, { name: 123 })).toBe('Must be text');
    expect(message(partyFormSchema, {})).toBe('Party name must be at least 3 characters');
  });
});

describe('an item template description too long', () => {
  it('says its length, not that it is no text', () => {
    const issues = itemTemplateUpdateSchema.safeParse({ description: 'y'.repeat(10_001) }).error?.issues;
    expect(issues?.map((issue) => issue.message)).toEqual(['Description must be at most 10,000 characters']);
  });
});

describe('withinRequestDates()', () => {
  const day = withinRequestDates(z.iso.date({ error: 'day must be YYYY-MM-DD' }), 'day');
  const moment = withinRequestDates(z.iso.datetime({ offset: true, error: 'at must be a time' }), 'at');
  const outOfRange = (field: string) => `${field} must be between 1000-01-01 and 9998-12-31`;

  it('refuses a date PostgreSQL cannot take, or that a day or a time zone carries past 9999', () => {
    for (const value of ['0000-01-01', '0999-12-31', '9999-01-01', '9999-12-31'])
      expect(issues(day.safeParse(value)), value).toEqual([{ path: '', message: outOfRange('day') }]);
    for (const value of ['0000-01-01T00:00:00+01:00', '9999-12-31T23:00:00-14:00'])
      expect(issues(moment.safeParse(value)), value).toEqual([{ path: '', message: outOfRange('at') }]);
  });

  it('keeps both edges and says only the format when the format is wrong', () => {
    expect(day.parse('1000-01-01')).toBe('1000-01-01');
    expect(day.parse('9998-12-31')).toBe('9998-12-31');
    expect(moment.parse('9998-12-31T23:59:59.999-14:00')).toBe('9998-12-31T23:59:59.999-14:00');
    expect(issues(day.safeParse('yesterday'))).toEqual([{ path: '', message: 'day must be YYYY-MM-DD' }]);
    expect(issues(day.safeParse('0000-13-01'))).toEqual([{ path: '', message: 'day must be YYYY-MM-DD' }]);
  });
});

describe('tags', () => {
  it('names a tag that is too long by its start and its length', () => {
    const long = `healing-${'x'.repeat(60)}`;
    const result = itemTemplateUpdateSchema.safeParse({ tags: `potion, ${long}` });
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((i) => i.path.join('.').startsWith('tags'));
    expect(issue?.message).toBe(`A tag can be at most 60 characters: “healing-xxxxxxxxxxxxxxxx…” is 68`);
    expect(tagTooLongMessage('short')).toBe('A tag can be at most 60 characters: “short” is 5');
  });
});

describe('normaliseTags()', () => {
  it('takes a tag typed composed and decomposed as one', () => {
    expect(normaliseTags(['Épée', 'E\u0301pe\u0301e', 'sword'])).toEqual(['épée', 'sword']);
  });
});

describe('blank-looking names of an item and a token', () => {
  const token = { name: 'Foundry import', scope: 'read', expires_in_days: 30 };

  it('are refused like every other name, while an empty override still means none', () => {
    for (const blank of ['\u200B\u200B', '\u3164', '\u2800\u2800\u2800', '\u0301\u0301\u0301']) {
      expect(itemInstanceUpdateBodySchema.safeParse({ item_instance: { name: blank } }).success).toBe(false);
      expect(instanceDataSchema.safeParse({ name_override: blank }).success).toBe(false);
      expect(apiTokenCreateSchema.safeParse({ ...token, name: blank }).success).toBe(false);
    }
    expect(instanceDataSchema.safeParse({ name_override: '' }).success).toBe(true);
    expect(itemInstanceUpdateBodySchema.safeParse({ item_instance: { name: 'Sting' } }).success).toBe(true);
    expect(apiTokenCreateSchema.safeParse(token).success).toBe(true);
  });
  it('hold a shop template’s name override and an item’s to one visible line, as names', () => {
    const shop = { name: 'The Gilded Gauntlet' };
    for (const bad of ['\u200B\u200B', 'Two\nlines', 'Tab\there']) {
      expect(shopTemplateFormSchema.safeParse({ ...shop, name_override: bad }).success).toBe(false);
      expect(instanceDataSchema.safeParse({ name_override: bad }).success).toBe(false);
    }
    expect(shopTemplateFormSchema.safeParse({ ...shop, name_override: '' }).success).toBe(true);
    expect(shopTemplateFormSchema.safeParse({ ...shop, name_override: 'Ye Olde Shoppe' }).success).toBe(true);
  });
});

describe('invisible format characters in names', () => {
  const parsedName = (name: string) => characterFormSchema.parse({ name }).name;

  it('are taken out, so that "Thorin" with a zero-width space or soft hyphen is "Thorin"', () => {
    expect(parsedName('Thorin\u200B')).toBe('Thorin');
    expect(parsedName('Thor\u00ADin')).toBe('Thorin');
    expect(parsedName('\uFEFFThorin\u2060 ')).toBe('Thorin');
    expect(shopTemplateFormSchema.parse({ name: 'Heil\u200Btrank' }).name).toBe('Heiltrank');
    expect(itemTemplateUpdateSchema.parse({ name: 'Heiltrank\u2060' }).name).toBe('Heiltrank');
  });

  it('keep the joiners scripts and emoji need, and refuse a name of nothing but invisible characters', () => {
    expect(parsedName('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    expect(parsedName('क्\u200Dष')).toBe('क्\u200Dष');
    expect(parsedName('🧙\u200D♀️ Mage')).toBe('🧙\u200D♀️ Mage');
    expect(characterFormSchema.safeParse({ name: '\u200B\u00AD' }).success).toBe(false);
  });
});
