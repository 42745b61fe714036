import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParty, createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';
import { patronagesRepository } from '../parties/patronages.repository.js';
import { subscriptionsRepository as repo } from './subscriptions.repository.js';

// The subscription read of every counted action is written as SQL and mapped by hand
// (subscriptions.statements.ts): it must answer what drizzle's read answers, on PGlite and PostgreSQL.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe('the subscription read written once', () => {
  it('answers the subscription and its tier as drizzle reads them', async () => {
    const user = await createUser(ctx);
    await upgrade(ctx, user, 'tier_3');
    const direct = await repo.findByUser(ctx.database.db, user.user.id);
    const viaDrizzle = await ctx.database.db.transaction((tx) =>
      repo.findByUser(tx, user.user.id, { lock: true }),
    );
    expect(direct).toEqual(viaDrizzle);
    expect(direct?.tier.identifier).toBe('tier_3');
    expect(direct?.subscription.currentPeriodEnd).toBeInstanceOf(Date);
    expect(await repo.findByUser(ctx.database.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('answers the probe about the user in the party with it', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const row = await repo.findByUserWith(
      ctx.database.db,
      gm.user.id,
      party.id,
      patronagesRepository.activeProbe,
    );
    expect(row).toEqual({ ...(await repo.findByUser(ctx.database.db, gm.user.id)), probe: false });
    const yes = await repo.findByUserWith(
      ctx.database.db,
      gm.user.id,
      party.id,
      (_user, party) => `${party}::uuid is not null`,
    );
    expect(yes?.probe).toBe(true);
  });
});
