import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinTemplate, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * Issue 13 §2: a transfer sends 5 statements (BEGIN with its SET LOCAL, the containers locked and located,
 * the stack and the target's stacks locked, the write with its ledger row, COMMIT) in 2 round trips. Sent
 * again here, as bench/transfer.bench.mjs counts them, so that a change that adds one is seen.
 */
let ctx: TestContext;
let gm: SignedInUser;
let from: string;
let to: string;
let goldId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const make = async (name: string) =>
    (await callApi(ctx, 'POST', `/parties/${party.id}/containers`, gm, { container: { name } })).json().data
      .id as string;
  from = await make('Chest A');
  to = await make('Chest B');
  const gold = await coinTemplate(ctx, 'gp');
  const [stack] = await ctx.app.services.inventory.createInstance(
    { id: gm.user.id, username: gm.user.username },
    { item_template_id: gold.id, container_id: from, quantity: 100 },
  );
  goldId = stack?.id ?? '';
});
afterAll(async () => ctx.close());

const transfer = (source: string, target: string, itemId: string) =>
  callApi(ctx, 'POST', '/containers/transfer', gm, {
    item_instance_id: itemId,
    source_container_id: source,
    target_container_id: target,
    quantity: 1,
  });

describe('the statements of a transfer', () => {
  it('sends at most 5 statements for a transfer onto an existing stack, the ledger row included', async () => {
    // The first move opens the target's stack; the second tops it up, as every later one does.
    const { result, statements } = await statementsOfSecondRequest(() => transfer(from, to, goldId));
    expect(result.json().data.transaction_ids).toHaveLength(1);
    expect(statements).toBeLessThanOrEqual(5);
  });
});
