import { createHash, timingSafeEqual } from 'node:crypto';
import { type DiscordMode, isAppPath } from '@haversack/contracts';
import { jwtVerify, SignJWT } from 'jose';

/** How long a person has on Discord's consent screen before the sign-in must start again. */
export const OAUTH_STATE_TTL_S = 10 * 60;
export const OAUTH_STATE_COOKIE = 'haversack_discord_oauth';
/** The cookie goes only to the Discord sign-in calls. */
export const OAUTH_STATE_COOKIE_PATH = '/api/v1/auth/discord';

export interface OAuthState {
  state: string;
  codeVerifier: string;
  mode: DiscordMode;
  /** Link mode: the Haversack account that started it, which must be the one that finishes it. */
  userId?: string;
  /** Sign-in mode: the page of this app to come back to (checked as a path of this app when started). */
  redirect?: string;
}

/**
 * The state and PKCE verifier of a Discord sign-in travel in a short-lived, signed, httpOnly cookie
 * (docs/decisions.md): it binds the flow to the browser that started it (a callback URL sent to someone
 * else finds no cookie there, so nobody can be signed in to another person's account), needs no table,
 * and expires by itself. The key is derived from the JWT secret with its own label, so a state is never
 * an access token or the other way round.
 */
export class OAuthStateCookies {
  readonly #key: Uint8Array;
  readonly #now: () => Date;

  constructor(jwtSecret: string, now: () => Date) {
    this.#key = createHash('sha256').update(`discord-oauth-state:${jwtSecret}`).digest();
    this.#now = now;
  }

  async seal(value: OAuthState): Promise<string> {
    const issuedAt = Math.floor(this.#now().getTime() / 1000);
    return new SignJWT({
      st: value.state,
      cv: value.codeVerifier,
      mode: value.mode,
      ...(value.userId ? { uid: value.userId } : {}),
      ...(value.redirect ? { rd: value.redirect } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('discord-oauth-state')
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + OAUTH_STATE_TTL_S)
      .sign(this.#key);
  }

  /** The state sealed in the cookie when it is genuine, unexpired and matches the state Discord sent back. */
  async open(cookie: string | undefined, returnedState: string): Promise<OAuthState | undefined> {
    if (!cookie) return undefined;
    try {
      const { payload } = await jwtVerify(cookie, this.#key, {
        audience: 'discord-oauth-state',
        algorithms: ['HS256'],
        currentDate: this.#now(),
      });
      const { st, cv, mode, uid, rd } = payload;
      if (typeof st !== 'string' || typeof cv !== 'string') return undefined;
      if (mode !== 'login' && mode !== 'link') return undefined;
      if (!sameText(st, returnedState)) return undefined;
      return {
        state: st,
        codeVerifier: cv,
        mode,
        ...(typeof uid === 'string' ? { userId: uid } : {}),
        // Sealed by this server after the start call checked it; checked again, as any way off the site is.
        ...(typeof rd === 'string' && isAppPath(rd) ? { redirect: rd } : {}),
      };
    } catch {
      return undefined;
    }
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of one cookie in a Cookie header (no cookie plugin is needed for one cookie). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export function stateCookieHeader(value: string, secure: boolean): string {
  return [
    `${OAUTH_STATE_COOKIE}=${value}`,
    `Path=${OAUTH_STATE_COOKIE_PATH}`,
    `Max-Age=${OAUTH_STATE_TTL_S}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedStateCookieHeader(secure: boolean): string {
  return [
    `${OAUTH_STATE_COOKIE}=`,
    `Path=${OAUTH_STATE_COOKIE_PATH}`,
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
