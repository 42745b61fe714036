import { unsafeCharacters } from '@haversack/contracts';

/**
 * One CSV field as the server's exports write it (audit-logs.service.ts `csvField`): always quoted,
 * control characters as U+FFFD, and a value a spreadsheet would run as a formula (=, +, -, @, tab, CR)
 * prefixed with an apostrophe (OWASP "CSV injection").
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  const text = (value === null || value === undefined ? '' : String(value)).replace(
    unsafeCharacters,
    '\uFFFD',
  );
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * A CSV file: a header line and one line per row, CRLF, opening with the UTF-8 byte order mark that Excel
 * needs to read accented names (as the server's exports do).
 */
export function csvText(
  columns: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  const lines = [columns.map(csvField).join(','), ...rows.map((row) => row.map(csvField).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Today in the admin's own time zone (YYYY-MM-DD): the downloaded file's date. */
export function localDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
