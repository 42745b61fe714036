import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.js';
import { BOOT_ID, type CommitClaim, onlyReads, withCommitClaim } from './claim-commits.js';
import type { DatabaseHandle } from './client.js';
import { type DirectStatement, directRows } from './direct.js';
import { pipelinedTransaction } from './pipelined-transaction.js';
import { users } from './schema/accounts.js';
import { idempotencyKeys } from './schema/idempotency-keys.js';

const insert: DirectStatement = {
  name: 'claim_probe_insert',
  text: 'insert into claim_probe (label) values ($1)',
};

// An Idempotency-Key's claim is marked by what its request commits, in the same transaction: a claim left
// unmarked made no change, and one taken over (its row gone) can no longer commit anything.
describe('claims marked by their commits', () => {
  let database: DatabaseHandle;
  let userId: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table claim_probe (label text not null)`);
    const [user] = await database.db
      .insert(users)
      .values({ email: `claims-${randomUUID()}@example.test`, passwordHash: 'x', username: `c${Date.now()}` })
      .returning({ id: users.id });
    userId = user?.id ?? '';
  });
  afterAll(async () => {
    await database.close();
  });

  const claim = async (): Promise<CommitClaim> => {
    const [row] = await database.db
      .insert(idempotencyKeys)
      .values({ userId, key: randomUUID(), fingerprint: 'probe', claimedBy: BOOT_ID })
      .returning({ id: idempotencyKeys.id });
    return { rowId: row?.id ?? '', open: true, marked: false };
  };
  const committed = async (rowId: string) =>
    (await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, rowId)))[0]?.committed;
  const takeOver = (rowId: string) =>
    database.db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, rowId));
  const count = async (label: string) => {
    const result = await database.db.execute(
      sql`select count(*)::int as "n" from claim_probe where label = ${label}`,
    );
    return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
  };

  it('marks the claim in the transaction that commits, in drizzle and pipelined transactions', async () => {
    const drizzleClaim = await claim();
    await withCommitClaim(drizzleClaim, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into claim_probe (label) values ('drizzle')`);
      }),
    );
    expect(await committed(drizzleClaim.rowId)).toBe(true);
    expect(drizzleClaim.marked).toBe(true);

    const pipelinedClaim = await claim();
    await withCommitClaim(pipelinedClaim, () =>
      pipelinedTransaction(database.db, (tx) => directRows(tx, insert, ['pipelined'], { commits: true })),
    );
    expect(await committed(pipelinedClaim.rowId)).toBe(true);
    expect(await count('pipelined')).toBe(1);
  });

  it('leaves the claim unmarked when the transaction rolls back, and for reads on their own', async () => {
    const rolledBack = await claim();
    await expect(
      withCommitClaim(rolledBack, () =>
        pipelinedTransaction(database.db, async (tx) => {
          await directRows(tx, insert, ['rolled-back']);
          throw new Error('refused');
        }),
      ),
    ).rejects.toThrow('refused');
    // drizzle's queries run when awaited: inside the claim's work, as in a route's handler.
    await withCommitClaim(rolledBack, async () => {
      await database.db.select().from(users).limit(1);
    });
    expect(await committed(rolledBack.rowId)).toBe(false);
    expect(await count('rolled-back')).toBe(0);
  });

  it('marks the claim before a change made outside a transaction', async () => {
    const own = await claim();
    // drizzle's queries run when awaited: inside the claim's work, as in a route's handler.
    await withCommitClaim(own, async () => {
      await database.db.execute(sql`insert into claim_probe (label) values ('own')`);
    });
    expect(await committed(own.rowId)).toBe(true);
    expect(await count('own')).toBe(1);
  });

  it('commits nothing for a claim taken over by a retry', async () => {
    for (const [label, run] of [
      [
        'late-drizzle',
        () =>
          database.db.transaction(async (tx) => {
            await tx.execute(sql`insert into claim_probe (label) values ('late-drizzle')`);
          }),
      ],
      [
        'late-pipelined',
        () =>
          pipelinedTransaction(database.db, (tx) =>
            directRows(tx, insert, ['late-pipelined'], { commits: true }),
          ),
      ],
      [
        'late-own',
        async () => {
          await database.db.execute(sql`insert into claim_probe (label) values ('late-own')`);
        },
      ],
    ] as const) {
      const late = await claim();
      await takeOver(late.rowId);
      await expect(withCommitClaim<Promise<unknown>>(late, run), label).rejects.toThrow();
      expect(await count(label), label).toBe(0);
    }
  });

  it('marks nothing once the request has answered', async () => {
    const answered = await claim();
    answered.open = false;
    await takeOver(answered.rowId);
    await withCommitClaim(answered, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into claim_probe (label) values ('after')`);
      }),
    );
    expect(await count('after')).toBe(1);
  });

  it('tells reads from what may change something', () => {
    expect(onlyReads('select * from users')).toBe(true);
    expect(onlyReads(' WITH t AS (select 1) select * from t')).toBe(true);
    expect(onlyReads('with t as (update users set name = 1 returning id) select * from t')).toBe(false);
    expect(onlyReads('insert into users values (1)')).toBe(false);
    expect(onlyReads('delete from users')).toBe(false);
  });
});
