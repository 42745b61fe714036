import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.js';
import type { DatabaseHandle } from './client.js';
import {
  checkJwtSecret,
  forgetJwtSecret,
  jwtSecretFingerprint,
  recordJwtSecret,
} from './jwt-secret-fingerprint.js';
import { appSettings } from './schema/admin.js';

const first = 'a'.repeat(43);
const other = 'b'.repeat(43);

// Reviewer "multiproc" finding 2: a process with another JWT_SECRET joined the database without a word.
describe('the JWT secret fingerprint kept in the database', () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('is recorded at the first start, then matches the same secret and tells another one apart', async () => {
    expect(await checkJwtSecret(database.db, first)).toEqual({ status: 'recorded' });
    expect(await checkJwtSecret(database.db, first)).toEqual({ status: 'same' });
    const check = await checkJwtSecret(database.db, other);
    expect(check.status).toBe('different');
    // A refused secret does not replace the recorded one.
    expect(await checkJwtSecret(database.db, first)).toEqual({ status: 'same' });
  });

  it('stores an HMAC, never the secret', async () => {
    await checkJwtSecret(database.db, first);
    const rows = await database.db
      .select()
      .from(appSettings)
      .where(eq(appSettings.key, 'jwt_secret_fingerprint'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toBe(jwtSecretFingerprint(first));
    expect(JSON.stringify(rows[0]?.value)).not.toContain(first);
    expect(jwtSecretFingerprint(first)).not.toBe(jwtSecretFingerprint(other));
  });

  it('follows a secret replaced on purpose, and a forgotten one is recorded anew', async () => {
    await checkJwtSecret(database.db, first);
    await recordJwtSecret(database.db, other);
    expect(await checkJwtSecret(database.db, other)).toEqual({ status: 'same' });
    expect((await checkJwtSecret(database.db, first)).status).toBe('different');
    expect(await forgetJwtSecret(database.db)).toBe(true);
    expect(await forgetJwtSecret(database.db)).toBe(false);
    expect(await checkJwtSecret(database.db, first)).toEqual({ status: 'recorded' });
  });
});
