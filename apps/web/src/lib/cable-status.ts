/**
 * What the session needs to know about the real-time socket, without loading its client: the client
 * (lib/cable.ts, with @rails/actioncable) loads at the first sign-in and registers itself here, so that
 * the session code on /login does not carry it (issue 13 §1). Before it loads there is no socket, so
 * none needs a fresh token.
 */
let needsFreshToken: () => boolean = () => false;

export function registerCableTokenCheck(check: () => boolean): void {
  needsFreshToken = check;
}

/** True while the socket is closed for a token the server refused, and no refresh for it is under way. */
export function cableNeedsFreshToken(): boolean {
  return needsFreshToken();
}
