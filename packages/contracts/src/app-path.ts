/** The refusal of a return address that is not a page of this app (checkout, billing portal, Discord sign-in). */
export const appPathMessage = 'The return address must be a page of this app.';

/**
 * A path on this app: one '/', then a character that is neither '/' nor '\\' nor a space, under every layer
 * of percent-encoding ("/%2F%2Fhost", "/%252F…"); and no whitespace or control character anywhere, since
 * the URL parser drops tabs and newlines ("/\t/host" would become "//host"). Browsers read "//host" and
 * "/\\host" as another host: a return address that passes this cannot send anyone off the site.
 */
export function isAppPath(path: string): boolean {
  if (/[\s\p{Cc}]/u.test(path)) return false;
  let decoded = path;
  for (let layer = 0; layer < 5; layer++) {
    if (!/^\/[^/\\\s\p{Cc}]/u.test(decoded)) return false;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    if (next === decoded) return true;
    decoded = next;
  }
  return false;
}
