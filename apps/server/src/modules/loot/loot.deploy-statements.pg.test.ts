import type { LootInstance } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLootTemplate,
  createParty,
  createTemplate,
  createUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { countStatements } from '../../test/statement-counter.js';

/**
 * Deploying loot wrote each line's stacks and ledger row one statement at a time (a template read, a stack
 * read, an insert per stack and a ledger insert, per line), as deploying a shop did before its stock went
 * in multi-row inserts. Loot is stocked the same way: a template of forty lines deploys in as many
 * statements as one of two, and one of a hundred only adds the ledger's further batches (50 rows each).
 */
let ctx: TestContext;
let gm: Awaited<ReturnType<typeof createUser>>;
let partyId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  partyId = (await createParty(ctx, gm, { encumbrance_style: 'none' })).id;
});
afterAll(async () => ctx.close());

async function templateOf(lines: number): Promise<string> {
  const items = [];
  for (let line = 0; line < lines; line++) {
    // Three stacks a line: a lantern does not stack.
    const lantern = await createTemplate(ctx, { name: `Lantern ${lines}-${line}`, stackSize: 1 });
    items.push({ item_template_id: lantern.id, quantity: 3 });
  }
  return (await createLootTemplate(ctx, gm, items, { name: `Hoard of ${lines}` })).id;
}

const deploy = (templateId: string) =>
  callApi(ctx, 'POST', '/loot_instances', gm, {
    loot_instance: { loot_template_id: templateId, party_id: partyId },
  });

async function statementsOfDeploying(templateId: string) {
  // The first warms what every later deploy finds ready (the remembered session).
  const first = await deploy(templateId);
  expect(first.statusCode, first.body).toBe(201);
  const { result, statements } = await countStatements(() => deploy(templateId));
  expect(result.statusCode, result.body).toBe(201);
  const loot = result.json().data as LootInstance;
  return { statements, stacks: loot.container.item_instances.length };
}

describe('deploying loot', () => {
  it('sends as many statements for a template of forty lines as for one of two, and few more for a hundred', async () => {
    const small = await statementsOfDeploying(await templateOf(2));
    const forty = await statementsOfDeploying(await templateOf(40));
    const hundred = await statementsOfDeploying(await templateOf(100));
    expect([small.stacks, forty.stacks, hundred.stacks]).toEqual([6, 120, 300]);
    expect(forty.statements).toBe(small.statements);
    // 101 ledger rows go in three inserts of at most 50 where 3 rows went in one.
    expect(hundred.statements).toBeLessThanOrEqual(small.statements + 2);
    // 619 before the stock went in multi-row inserts (23 since).
    expect(hundred.statements).toBeLessThanOrEqual(25);
  });
});
