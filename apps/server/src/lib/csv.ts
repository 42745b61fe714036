/**
 * Starts every CSV file the app writes: the UTF-8 byte order mark, without which Excel reads the file as
 * the system's legacy code page and garbles "Épée de Ñoño". Other spreadsheets and CSV readers skip it.
 */
export const CSV_BOM = '\uFEFF';
