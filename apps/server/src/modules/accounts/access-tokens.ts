import { webcrypto } from 'node:crypto';
import { ACCESS_TOKEN_TTL_S, isEntityId } from '@haversack/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../lib/app-error.js';

/** Verified tokens remembered at most (each until its expiry); past it the oldest go first. */
const MAX_VERIFIED_TOKENS = 10_000;

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** Short-lived HS256 access tokens (DESIGN §1); the session they name is checked on every request. */
export class AccessTokens {
  readonly #secret: Uint8Array;
  /** Tokens whose signature and claims were verified (issue 13 §3: an HMAC per request cost ~0.15 ms). */
  readonly #verified = new Map<string, AccessClaims & { expiresAt: Date }>();
  /** The secret imported once: jose would import a raw key again on every verification. */
  #cryptoKey: Promise<webcrypto.CryptoKey> | undefined;

  constructor(
    secret: string,
    private readonly ttlSeconds = ACCESS_TOKEN_TTL_S,
  ) {
    this.#secret = new TextEncoder().encode(secret);
  }

  #key(): Promise<webcrypto.CryptoKey> {
    this.#cryptoKey ??= webcrypto.subtle.importKey(
      'raw',
      this.#secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    return this.#cryptoKey;
  }

  async issue(claims: AccessClaims, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = new Date((issuedAt + this.ttlSeconds) * 1000);
    const token = await new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .setIssuer('haversack')
      .sign(await this.#key());
    return { token, expiresAt };
  }

  /** Throws EXPIRED_TOKEN for an expired token and INVALID_TOKEN for anything else wrong with it. */
  async verify(token: string): Promise<AccessClaims & { expiresAt: Date }> {
    // A token is the same bytes on every request of its life: its signature, checked once, stays good, and
    // only its expiry is checked again, as jose checks it (exp <= now in whole seconds).
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() / 1000 > Math.floor(Date.now() / 1000))
        return { ...known, expiresAt: new Date(known.expiresAt) };
      this.#verified.delete(token);
      throw new AppError('EXPIRED_TOKEN');
    }
    const claims = await this.#verifySignature(token);
    if (this.#verified.size >= MAX_VERIFIED_TOKENS) {
      const oldest = this.#verified.keys().next().value;
      if (oldest !== undefined) this.#verified.delete(oldest);
    }
    this.#verified.set(token, claims);
    return { ...claims };
  }

  async #verifySignature(token: string): Promise<AccessClaims & { expiresAt: Date }> {
    try {
      const { payload } = await jwtVerify(token, await this.#key(), {
        algorithms: ['HS256'],
        issuer: 'haversack',
      });
      // Both name rows by their uuid: anything else (even correctly signed) would reach the database as a
      // malformed uuid, so it is an invalid token here, for the API and /cable alike.
      if (!isEntityId(payload.sub) || !isEntityId(payload.sid) || typeof payload.exp !== 'number')
        throw new AppError('INVALID_TOKEN');
      // The expiry travels with the claims: an open /cable socket closes when its token expires.
      return { userId: payload.sub, sessionId: payload.sid, expiresAt: new Date(payload.exp * 1000) };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AppError('EXPIRED_TOKEN');
      if (error instanceof AppError) throw error;
      throw new AppError('INVALID_TOKEN');
    }
  }
}
