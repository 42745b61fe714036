import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from './client.js';
import { appSettings } from './schema/admin.js';

/**
 * Every process on one database must sign with the same JWT_SECRET: a process with another one answers 401
 * to the sessions the others made, and the links its jobs mail fail elsewhere. The database keeps a
 * fingerprint of the secret the first process started with, so a process with another one is found at
 * start. An HMAC of a fixed label under the secret: it proves nothing about the secret to whoever reads
 * the table, and cannot be turned into a token.
 */
const key = 'jwt_secret_fingerprint';

export function jwtSecretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('haversack jwt-secret fingerprint v1').digest('hex');
}

export type JwtSecretCheck = { status: 'recorded' | 'same' } | { status: 'different'; recordedAt: Date };

/** Records the secret's fingerprint when the database has none (the first start), else compares. */
export async function checkJwtSecret(db: Executor, secret: string): Promise<JwtSecretCheck> {
  const fingerprint = jwtSecretFingerprint(secret);
  // Two first starts at once: one insert wins, and the other compares against it.
  const inserted = await db
    .insert(appSettings)
    .values({ key, value: fingerprint })
    .onConflictDoNothing()
    .returning({ key: appSettings.key });
  if (inserted.length > 0) return { status: 'recorded' };
  const [stored] = await db.select().from(appSettings).where(eq(appSettings.key, key));
  if (!stored || stored.value === fingerprint) return { status: 'same' };
  return { status: 'different', recordedAt: stored.updatedAt };
}

/** The secret was replaced on purpose: its fingerprint is the one to check the next starts against. */
export async function recordJwtSecret(db: Executor, secret: string): Promise<void> {
  const value = jwtSecretFingerprint(secret);
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
}

/** Forgets the recorded fingerprint (the admin CLI), so the next process to start records its own. */
export async function forgetJwtSecret(db: Executor): Promise<boolean> {
  const deleted = await db.delete(appSettings).where(eq(appSettings.key, key)).returning();
  return deleted.length > 0;
}
