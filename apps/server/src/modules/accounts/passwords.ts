import { hash, verify } from '@node-rs/argon2';
import { randomToken } from '../../lib/secrets.js';

/** argon2id's cost: memory in KiB, iterations, lanes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
export const passwordHashCost: PasswordHashCost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let cost: PasswordHashCost = passwordHashCost;

/**
 * The in-process tests register hundreds of users on each database pass, and at OWASP's cost a hash took
 * 90 ms on an idle CI core and over half a second on a busy one: minutes of CI spent on a cost no test
 * asserts. Their setup file (src/test/setup.ts) lowers it with this; passwords.test.ts checks the baseline
 * itself, and the built server the end-to-end tests drive never calls this. A hash names its own cost, so
 * a hash of any cost verifies.
 */
export function setPasswordHashCostForTests(testCost: PasswordHashCost): void {
  cost = testCost;
  decoyHash = undefined;
}

/**
 * Passwords are hashed in Unicode's composed form (NFC): "é" is one code point from one keyboard and "e"
 * plus an accent from another, or from a password manager, and both must open the account.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), cost);
}

/** An account created through Discord has no password yet (null): nothing matches it, taking the usual time. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return verifyDecoy(password);
  try {
    const composed = password.normalize('NFC');
    if (await verify(passwordHash, composed)) return true;
    // A hash made before passwords were composed holds the password as it was typed then.
    return composed !== password && (await verify(passwordHash, password));
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Login must take as long for an unknown email as for a wrong password, or timing tells who has an
 * account. An unknown email is checked against this decoy hash.
 */
export async function verifyDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomToken());
  await verifyPassword(await decoyHash, password);
  return false;
}
