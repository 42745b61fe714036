import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: what node:crypto needs around Discord's raw 32-byte key. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A signed interaction older (or newer) than this is refused: a captured request cannot be replayed later. */
export const INTERACTION_MAX_AGE_S = 5 * 60;

/** The application's public key (hex, from Discord's developer portal) as a key node:crypto verifies with. */
export function discordPublicKey(hex: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * Discord signs every interaction with Ed25519 over the timestamp header followed by the raw body
 * (X-Signature-Ed25519, X-Signature-Timestamp). node:crypto verifies Ed25519 natively, so no extra package
 * is needed (docs/decisions.md).
 */
export function isSignedByDiscord(
  key: KeyObject,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: Buffer,
  now: Date,
): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^[0-9a-fA-F]{128}$/.test(signature) || !/^\d{1,12}$/.test(timestamp)) {
    return false;
  }
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > INTERACTION_MAX_AGE_S) return false;
  try {
    return verify(null, Buffer.concat([Buffer.from(timestamp), rawBody]), key, Buffer.from(signature, 'hex'));
  } catch {
    return false;
  }
}
