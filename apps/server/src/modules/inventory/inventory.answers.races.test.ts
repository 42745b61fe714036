import { and, eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { inventoryRepository } from './inventory.repository.js';

/**
 * Review "multiproc" finding 1: a change that was committed gets its success answer, even when another
 * request changes or deletes the same stacks between its commit and its answer. README, "Changes made
 * once": an answer of 400 and above says nothing changed, so the client may send it again.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx?.close());

interface Stack {
  id: string;
  quantity: number;
}

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);

/** A party with two players, Pip and Brom, each with a character; Pip holds `quantity` gold. */
async function partyOfTwo(quantity: number) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const pipPlayer = await createMember(ctx, party, 'player');
  const bromPlayer = await createMember(ctx, party, 'player');
  await upgrade(ctx, pipPlayer, 'tier_3');
  await upgrade(ctx, bromPlayer, 'tier_3');
  const pip = await createCharacter(ctx, pipPlayer, { name: 'Pip', partyId: party.id });
  const brom = await createCharacter(ctx, bromPlayer, { name: 'Brom', partyId: party.id });
  const gold = await createTemplate(ctx, { name: 'Gold Nugget', weight: 0, stackSize: 0 });
  const added = await call('POST', '/item_instances', pipPlayer, {
    item_template_id: gold.id,
    container_id: pip.primary_container_id,
    quantity,
  });
  expect(added.statusCode).toBe(201);
  const stackId = String((added.json() as { data: Stack[] }).data[0]?.id);
  return { pipPlayer, bromPlayer, pip, brom, gold, stackId };
}

async function ledgerRows(type: string, containerIds: string[]): Promise<{ quantity: number | null }[]> {
  return ctx.database.db
    .select({ quantity: transactions.quantity })
    .from(transactions)
    .where(
      and(
        eq(transactions.transactionType, type as never),
        sql`(${inArray(transactions.sourceContainerId, containerIds)} or ${inArray(transactions.destinationContainerId, containerIds)})`,
      ),
    );
}

async function quantityIn(containerId: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(eq(itemInstances.containerId, containerId));
  return Number(row?.n ?? 0);
}

const statuses = (responses: { statusCode: number }[]) => {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

describe('a committed change is answered as made, whatever happens to its stacks after the commit', () => {
  it('answers 200 to every give that moved gold from a stack the gives empty', async () => {
    const { pipPlayer, pip, brom, stackId } = await partyOfTwo(200);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', `/item_instances/${stackId}/give`, pipPlayer, { character_id: brom.id, quantity: 10 }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const rows = await ledgerRows('character_to_character_transfer', [String(pip.primary_container_id)]);
    const moved = rows.reduce((sum, row) => sum + Number(row.quantity), 0);
    // 20 gives of 10 empty the 200; the others find the stack gone (404) and change nothing.
    expect(rows).toHaveLength(20);
    expect(moved).toBe(200);
    expect(await quantityIn(String(brom.primary_container_id))).toBe(200);
    expect(await quantityIn(String(pip.primary_container_id))).toBe(0);
    expect(ok, JSON.stringify(statuses(responses))).toHaveLength(rows.length);
    for (const r of ok) {
      const data = (r.json() as { data: { moved: number; target_instances: Stack[] } }).data;
      expect(data.moved).toBe(10);
      expect(data.target_instances).toHaveLength(1);
    }
    // Each give answers the stack it left as it stood at its own commit, and the last one none.
    const lefts = ok
      .map(
        (r) => (r.json() as { data: { source_instance: Stack | null } }).data.source_instance?.quantity ?? 0,
      )
      .sort((a, b) => a - b);
    expect(lefts).toEqual(Array.from({ length: 20 }, (_, i) => 10 * i));
  });
});

/**
 * The same race made certain: right after the change commits (its events are published then), Pip gives
 * the whole stack to Brom, and whatever the change reads about that stack afterwards waits for the give
 * to finish. Both are real requests; the read still runs and answers what the database holds.
 */
describe('a change answered after a give took its stack away at once after its commit', () => {
  async function raceGiveAfterCommit(
    stackId: string,
    pipPlayer: SignedInUser,
    bromId: string,
    change: () => Promise<LightMyRequestResponse>,
  ) {
    let giving: Promise<LightMyRequestResponse> | undefined;
    const events = ctx.app.services.events;
    const publish = events.publish.bind(events);
    const read = inventoryRepository.instancesWithTemplates.bind(inventoryRepository);
    const published = vi.spyOn(events, 'publish').mockImplementation((batch) => {
      giving ??= call('POST', `/item_instances/${stackId}/give`, pipPlayer, { character_id: bromId });
      publish(batch);
    });
    const reads = vi
      .spyOn(inventoryRepository, 'instancesWithTemplates')
      .mockImplementation(async (db, ids) => {
        if (giving && ids.includes(stackId)) await giving;
        return read(db, ids);
      });
    try {
      const changed = await change();
      expect(giving).toBeDefined();
      const given = await giving;
      expect(given?.statusCode).toBe(200);
      return changed;
    } finally {
      published.mockRestore();
      reads.mockRestore();
    }
  }

  it('answers 201 to gold added onto a stack given away before the answer', async () => {
    const { pipPlayer, pip, brom, gold, stackId } = await partyOfTwo(10);
    const container = String(pip.primary_container_id);
    const added = await raceGiveAfterCommit(stackId, pipPlayer, brom.id, () =>
      call('POST', '/item_instances', pipPlayer, {
        item_template_id: gold.id,
        container_id: container,
        quantity: 1,
      }),
    );
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as { data: Stack[] }).data.map((s) => [s.id, s.quantity])).toEqual([[stackId, 11]]);
    expect(await ledgerRows('item_creation', [container])).toHaveLength(2);
    expect(await quantityIn(String(brom.primary_container_id))).toBe(11);
  });

  it('answers 200 to a quantity edit of a stack given away before the answer', async () => {
    const { pipPlayer, pip, brom, stackId } = await partyOfTwo(5);
    const edited = await raceGiveAfterCommit(stackId, pipPlayer, brom.id, () =>
      call('PATCH', `/item_instances/${stackId}`, pipPlayer, { item_instance: { quantity: 100 } }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as { data: Stack }).data).toMatchObject({ id: stackId, quantity: 100 });
    expect(await ledgerRows('adjust', [String(pip.primary_container_id)])).toHaveLength(1);
    expect(await quantityIn(String(brom.primary_container_id))).toBe(100);
  });

  it('answers 200 to a split whose first stack was given away before the answer', async () => {
    const { pipPlayer, pip, brom, stackId } = await partyOfTwo(10);
    const split = await raceGiveAfterCommit(stackId, pipPlayer, brom.id, () =>
      call('POST', `/item_instances/${stackId}/split`, pipPlayer, { quantity: 3 }),
    );
    expect(split.statusCode, split.body).toBe(200);
    const data = (split.json() as { data: Stack[] }).data;
    expect(data.map((s) => s.quantity)).toEqual([7, 3]);
    expect(data[0]?.id).toBe(stackId);
    expect(await quantityIn(String(pip.primary_container_id))).toBe(3);
    expect(await quantityIn(String(brom.primary_container_id))).toBe(7);
  });

  it('answers 200 to a merge whose stack was given away before the answer', async () => {
    const { pipPlayer, pip, brom, stackId } = await partyOfTwo(10);
    const split = await call('POST', `/item_instances/${stackId}/split`, pipPlayer, { quantity: 4 });
    const otherId = String((split.json() as { data: Stack[] }).data[1]?.id);
    const merged = await raceGiveAfterCommit(stackId, pipPlayer, brom.id, () =>
      call('POST', `/item_instances/${otherId}/merge`, pipPlayer, { target_instance_id: stackId }),
    );
    expect(merged.statusCode, merged.body).toBe(200);
    expect((merged.json() as { data: Stack }).data).toMatchObject({ id: stackId, quantity: 10 });
    expect(await ledgerRows('merge', [String(pip.primary_container_id)])).toHaveLength(1);
    expect(await quantityIn(String(pip.primary_container_id))).toBe(0);
    expect(await quantityIn(String(brom.primary_container_id))).toBe(10);
  });
});
