/**
 * A name as a search on this page compares it: decomposed (NFD) and stripped of its marks, so that "epee"
 * finds "Épée" and "ollampe" "Öllampe", in lower case, and with the Turkish dotless ı made one letter with
 * i ("kilic" finds "Kılıç"; İ already loses its dot with the marks), as the server's searches fold.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ı/g, 'i');
}

/** True when `text` holds `term` (already folded or not), regardless of case and accents. */
export function foldedIncludes(text: string, term: string): boolean {
  return foldForSearch(text).includes(foldForSearch(term));
}
