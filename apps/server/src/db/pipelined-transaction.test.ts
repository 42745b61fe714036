import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/helper.js';
import type { DatabaseHandle } from './client.js';
import { type DirectStatement, directRows } from './direct.js';
import { pipelinedTransaction } from './pipelined-transaction.js';

const insert: DirectStatement = {
  name: 'pipelined_probe_insert',
  text: 'insert into pipelined_probe (label, n) values ($1, $2) returning label, n',
};
const countLabel: DirectStatement = {
  name: 'pipelined_probe_count',
  text: 'select count(*)::int from pipelined_probe where label = $1',
};

// issue 13 §2: the transaction runner of the hot paths (BEGIN and COMMIT sent along with statements, on
// PostgreSQL; drizzle's own transaction on PGlite) keeps a transaction's all-or-nothing.
describe('pipelinedTransaction', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(
      sql`create table pipelined_probe (label text not null, n int not null check (n > 0))`,
    );
  });
  afterAll(async () => {
    await database.close();
  });

  const count = async (label: string) => {
    const [row] = await directRows(database.db, countLabel, [label]);
    return row?.[0];
  };

  it('commits what the work wrote, the last statement taking the COMMIT along', async () => {
    const answered = await pipelinedTransaction(database.db, async (tx) => {
      // Sent together: they run in the order they were sent, in the transaction.
      const [first, seen] = await Promise.all([
        directRows(tx, insert, ['kept', 1]),
        directRows(tx, countLabel, ['kept']),
      ]);
      const [last] = await directRows(tx, insert, ['kept', 2], { commits: true });
      return { first, seen, last };
    });
    expect(answered.first).toEqual([['kept', 1]]);
    expect(answered.seen).toEqual([[1]]);
    expect(answered.last).toEqual(['kept', 2]);
    expect(await count('kept')).toBe(2);
  });

  it('commits with a COMMIT of its own when no statement took it along', async () => {
    await pipelinedTransaction(database.db, async (tx) => {
      await directRows(tx, insert, ['own commit', 1]);
    });
    expect(await count('own commit')).toBe(1);
  });

  it('rolls back everything when the work throws, and the connections stay usable', async () => {
    await expect(
      pipelinedTransaction(database.db, async (tx) => {
        await directRows(tx, insert, ['thrown', 1]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count('thrown')).toBe(0);
  });

  it('rolls back everything when the statement taking the COMMIT along fails', async () => {
    await expect(
      pipelinedTransaction(database.db, async (tx) => {
        await directRows(tx, insert, ['failed last', 1]);
        // The check refuses 0: the COMMIT sent behind it ends the aborted transaction as a ROLLBACK.
        await directRows(tx, insert, ['failed last', 0], { commits: true });
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await count('failed last')).toBe(0);
  });

  it('rolls back when one of the statements sent together fails, whichever answers first', async () => {
    await expect(
      pipelinedTransaction(database.db, async (tx) => {
        await Promise.all([directRows(tx, insert, ['together', 0]), directRows(tx, insert, ['together', 1])]);
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await count('together')).toBe(0);
  });

  it('fails with the error that aborted the transaction, not with those of the statements sent behind it', async () => {
    // The failing statement's error reaches the work after the ones behind it (on PostgreSQL they are
    // "current transaction is aborted", 25P02): as when a deadlock (40P01) broke the lock of a transfer's
    // containers and the lock of its stacks, sent with it, was answered in the same read.
    const toldLate = <T>(answer: Promise<T>) =>
      answer.catch(async (error: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw error;
      });
    const failure = await pipelinedTransaction(database.db, async (tx) => {
      await Promise.all([
        directRows(tx, insert, ['aborted', 1]),
        toldLate(directRows(tx, insert, ['aborted', 0])),
        directRows(tx, countLabel, ['aborted']),
        directRows(tx, insert, ['aborted', 2]),
      ]);
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23514', message: expect.stringMatching(/check constraint/) });
    expect(await count('aborted')).toBe(0);
  });

  it('runs many at once, each on its own connection, each all or nothing', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        pipelinedTransaction(database.db, async (tx) => {
          await directRows(tx, insert, ['many', 1]);
          await directRows(tx, insert, ['many', i % 2 === 0 ? 1 : 0], { commits: true });
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    expect(await count('many')).toBe(20);
  });

  it('plans its statements generically when asked, for that transaction only (PostgreSQL)', async () => {
    const mode = async (db: Parameters<typeof directRows>[0]) =>
      (
        await directRows(db, { name: 'pipelined_probe_mode', text: 'select current_setting($1)' }, [
          'plan_cache_mode',
        ])
      )[0]?.[0];
    const inside = await pipelinedTransaction(database.db, (tx) => mode(tx), { genericPlans: true });
    // PGlite runs drizzle's own transaction, which leaves the setting alone.
    expect(inside).toBe(database.kind === 'postgres' ? 'force_generic_plan' : 'auto');
    expect(await pipelinedTransaction(database.db, (tx) => mode(tx))).toBe('auto');
    expect(await mode(database.db)).toBe('auto');
  });
});
