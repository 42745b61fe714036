import { unsafeCharacters } from '@haversack/contracts';

/**
 * Starts every CSV file the app writes: the UTF-8 byte order mark, without which Excel reads the file as
 * the system's legacy code page and garbles "Épée de Ñoño". Other spreadsheets and CSV readers skip it.
 */
export const CSV_BOM = '\uFEFF';

/**
 * A value as a CSV file may hold it: control characters (C0 but tab and line breaks, DEL and C1) and
 * direction overrides become U+FFFD. The text rules refuse them on the way in, but rows written before
 * those rules, and the user agents a browser sent, can hold them, and a terminal or a spreadsheet acts on
 * some (U+009B starts a terminal command, U+0085 breaks a line). Tabs and line breaks are the quoting's.
 */
export function csvSafeText(value: string): string {
  return value.replace(unsafeCharacters, '\uFFFD');
}
