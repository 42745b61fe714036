import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCount, formatWhen } from './format';

const BrowserDateTimeFormat = Intl.DateTimeFormat;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// Locales review, L4: under ar-EG the Members tab said "Joined ٢٩ نوفمبر ٢٠٢٦", the subscription page
// "Renews on December 29, 2026", in one English UI.
describe('formatWhen and formatCount', () => {
  it('write English dates and numbers whatever the browser’s own language, on the reader’s calendar day', () => {
    vi.stubGlobal('navigator', { ...navigator, language: 'ar-EG', languages: ['ar-EG'] });
    // The browser's default locale, as a browser set to Arabic (Egypt) has it.
    class BrowserDefaultArabic extends BrowserDateTimeFormat {
      constructor(locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
        super(locales ?? 'ar-EG', options);
      }
    }
    vi.stubGlobal('Intl', Object.assign(Object.create(Intl), { DateTimeFormat: BrowserDefaultArabic }));
    expect(new Intl.DateTimeFormat(undefined, { month: 'long' }).format(new Date(2026, 10, 5))).toBe(
      'نوفمبر',
    );
    // 20:21 UTC on Nov 29 is Nov 29 in Cairo and Nov 30 in Tokyo: the reader's time zone still sets the day.
    const when = '2026-11-29T20:21:00Z';
    expect(formatWhen(when, 'date', 'Africa/Cairo')).toBe('Nov 29, 2026');
    expect(formatWhen(when, 'date', 'Asia/Tokyo')).toBe('Nov 30, 2026');
    expect(formatWhen(when, 'longDate', 'Africa/Cairo')).toBe('November 29, 2026');
    expect(formatWhen(when, 'monthDay', 'Africa/Cairo')).toBe('Nov 29');
    expect(formatWhen(when, 'dateTime', 'Africa/Cairo')).toBe('Nov 29, 2026, 10:21 PM');
    expect(formatWhen(when, 'dateTimeSeconds', 'UTC')).toBe('Nov 29, 2026, 8:21:00 PM');
    expect(formatWhen(when, 'time', 'UTC')).toBe('8:21:00 PM');
    expect(formatWhen('not a date', 'date')).toBe('');
    expect(formatCount(1234)).toBe('1,234');
  });
});

/** Every source file of the web app, tests aside. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the app’s dates and numbers', () => {
  it('are all written through lib/format, so that none follows the browser’s locale', () => {
    const root = join(__dirname, '..');
    const own = /\.toLocale(?:Date|Time)?String\(|new Intl\.(?:DateTimeFormat|NumberFormat)\(/;
    const offenders = sourceFiles(root)
      .map((path) => relative(root, path))
      .filter((path) => path !== join('lib', 'format.ts'))
      .filter((path) => own.test(readFileSync(join(root, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
