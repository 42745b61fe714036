import {
  copperPer,
  inventoryMessages,
  type LedgerTransaction,
  MAX_ITEM_VALUE,
  MAX_STACK_QUANTITY,
} from '@haversack/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import {
  coinTemplate,
  createCharacter,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** A tier-3 player with an unlimited main container and an unlimited pouch. */
async function richPlayer() {
  const player = await createUser(ctx);
  await upgrade(ctx, player, 'tier_3');
  const character = await createCharacter(ctx, player, { maxWeight: null, maxSlots: null });
  const backpack = String(character.primary_container_id);
  const pouch = await call('POST', `/characters/${character.id}/containers`, player, {
    container: { name: 'Pouch' },
  });
  return { player, character, backpack, pouch: String(body(pouch).data.id) };
}

async function stacks(containerId: string) {
  return ctx.database.db.select().from(itemInstances).where(eq(itemInstances.containerId, containerId));
}

async function ledgerCount() {
  return (await ctx.database.db.select({ id: transactions.id }).from(transactions)).length;
}

async function history(user: SignedInUser, characterId: string): Promise<LedgerTransaction[]> {
  const response = await call('GET', `/transactions/character/${characterId}?per_page=100`, user);
  return (response.json() as { data: { transactions: LedgerTransaction[] } }).data.transactions;
}

describe('deleting a container into itself (review F3)', () => {
  it('is refused with 422, keeping the container, its items and the ledger as they were', async () => {
    const { player, character, pouch } = await richPlayer();
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: pouch,
      quantity: 7,
    });
    const rowsBefore = await ledgerCount();
    // Every spelling of the same id is the same container: upper case must not slip past the check.
    for (const url of [
      `/containers/${pouch}?destination_container_id=${pouch}`,
      `/containers/${pouch}?destination_container_id=${pouch.toUpperCase()}`,
      `/containers/${pouch.toUpperCase()}?destination_container_id=${pouch}`,
      `/characters/${character.id}/containers/${pouch}?destination_container_id=${pouch}`,
      `/characters/${character.id}/containers/${pouch}?destination_container_id=${pouch.toUpperCase()}`,
    ]) {
      const refused = await call('DELETE', url, player);
      expect(refused.statusCode).toBe(422);
      expect(body(refused).error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: inventoryMessages.destinationIsSelf,
        details: [{ field: 'destination_container_id', message: inventoryMessages.destinationIsSelf }],
      });
    }
    const [rope7] = await stacks(pouch);
    const intoItself = await call('POST', '/containers/transfer', player, {
      item_instance_id: rope7?.id,
      source_container_id: pouch,
      target_container_id: pouch.toUpperCase(),
      quantity: 7,
    });
    expect(intoItself.statusCode).toBeGreaterThanOrEqual(400);
    expect(intoItself.statusCode).toBeLessThan(500);
    expect(await ctx.database.db.select().from(containers).where(eq(containers.id, pouch))).toHaveLength(1);
    expect((await stacks(pouch)).map((s) => s.quantity)).toEqual([7]);
    expect(await ledgerCount()).toBe(rowsBefore);
  });

  it('still empties a container into another one through the ledger', async () => {
    const { player, backpack, pouch } = await richPlayer();
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: pouch,
      quantity: 7,
    });
    const deleted = await call('DELETE', `/containers/${pouch}?destination_container_id=${backpack}`, player);
    expect(deleted.statusCode).toBe(204);
    expect((await stacks(backpack)).map((s) => s.quantity)).toEqual([7]);
  });
});

describe('big numbers (review F4)', () => {
  it('keeps the caps inside what a JS number holds exactly', () => {
    expect(MAX_ITEM_VALUE * copperPer.pp * MAX_STACK_QUANTITY).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  });

  it('adds 1,000,000 items worth 30 gp each, with the exact ledger quantity and container total', async () => {
    const { player, character, backpack } = await richPlayer();
    const lantern = await createTemplate(ctx, {
      name: 'Lantern',
      baseValue: 30,
      currency: 'gp',
      stackSize: 0,
    });
    const added = await call('POST', '/item_instances', player, {
      item_template_id: lantern.id,
      container_id: backpack,
      quantity: 1_000_000,
    });
    expect(added.statusCode).toBe(201);
    const container = body(await call('GET', `/containers/${backpack}`, player)).data;
    expect(container.total_value_gp).toBe(30_000_000);
    const [row] = await history(player, character.id);
    expect(row).toMatchObject({ transaction_type: 'item_creation', quantity: 1_000_000 });
  });

  it('refuses a template worth more than the cap, and takes a full stack of the priciest one', async () => {
    const { player, backpack } = await richPlayer();
    const tooDear = await call('POST', '/item_templates', player, {
      item_template: { name: 'Crown of ages', base_value: 1_000_000_000, currency: 'pp' },
    });
    expect(tooDear.statusCode).toBe(422);
    expect(body(tooDear).error.details).toContainEqual({
      field: 'item_template.base_value',
      message: 'Value can be at most 900,000',
    });
    const crown = await call('POST', '/item_templates', player, {
      item_template: { name: 'Crown of ages', base_value: MAX_ITEM_VALUE, currency: 'pp', stack_size: 0 },
    });
    expect(crown.statusCode).toBe(201);
    const hoard = await call('POST', '/item_instances', player, {
      item_template_id: body(crown).data.id,
      container_id: backpack,
      quantity: MAX_STACK_QUANTITY,
    });
    expect(hoard.statusCode).toBe(201);
    const worthCp = MAX_ITEM_VALUE * copperPer.pp * MAX_STACK_QUANTITY;
    expect(body(hoard).data[0]).toMatchObject({ quantity: MAX_STACK_QUANTITY, totalValue: worthCp / 100 });
    expect(body(await call('GET', `/containers/${backpack}`, player)).data.total_value_gp).toBe(
      worthCp / 100,
    );
    const override = await call('PATCH', `/item_instances/${body(hoard).data[0]?.id}`, player, {
      item_instance: { instance_data: { value_override: MAX_ITEM_VALUE + 1 } },
    });
    expect(override.statusCode).toBe(422);
  });

  it('moves a stack of 3,000,000 pp whole, and reads a 2.5e9 cp conversion back as a number', async () => {
    const { player, character, backpack, pouch } = await richPlayer();
    const platinum = await coinTemplate(ctx, 'pp');
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: platinum.id,
        container_id: backpack,
        quantity: 3_000_000,
      }),
    ).data;
    const moved = await call('POST', '/containers/transfer', player, {
      item_instance_id: stack?.id,
      source_container_id: backpack,
      target_container_id: pouch,
    });
    expect(moved.statusCode).toBe(200);
    expect(body(moved).data).toMatchObject({ moved: 3_000_000, source_instance: null });
    expect((await stacks(pouch)).map((s) => s.quantity)).toEqual([3_000_000]);
    expect((await history(player, character.id))[0]).toMatchObject({
      transaction_type: 'transfer',
      quantity: 3_000_000,
    });
    const pouchJson = body(await call('GET', `/containers/${pouch}`, player)).data;
    expect(pouchJson).toMatchObject({ total_value_gp: 30_000_000, current_weight: 60_000 });

    // 25,000,000 gp in four plain stacks (none past the cap), converted up in one go.
    const gold = await coinTemplate(ctx, 'gp');
    const addGold = (quantity: number) =>
      call('POST', '/item_instances', player, {
        item_template_id: gold.id,
        container_id: backpack,
        quantity,
      });
    const [first] = body(await addGold(MAX_STACK_QUANTITY)).data;
    for (let i = 0; i < 3; i++) {
      const split = await call('POST', `/item_instances/${first?.id}/split`, player, { quantity: 5_000_000 });
      expect(split.statusCode).toBe(200);
      expect((await addGold(5_000_000)).statusCode).toBe(201);
    }
    expect(body(await call('GET', `/containers/${backpack}`, player)).data.total_value_gp).toBe(25_000_000);
    const converted = await call('POST', `/containers/${backpack}/convert_currency`, player, {
      from: 'gp',
      to: 'pp',
    });
    expect(converted.statusCode).toBe(200);
    expect((await stacks(backpack)).map((s) => s.quantity)).toEqual([2_500_000]);
    const rows = (await history(player, character.id)).filter(
      (r) => r.transaction_type === 'currency_conversion',
    );
    // The value stands once, on the coins given, as a number (not a bigint's string).
    expect(rows.map((r) => [r.quantity, r.amount]).sort()).toEqual([
      [2_500_000, null],
      [25_000_000, 2_500_000_000],
    ]);
    const csv = await call('GET', `/transactions/character/${character.id}/export.csv`, player);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(',25000000,2500000000,');
    expect(csv.body).toContain(',3000000,');
  });

  it('refuses a top-up past the stack cap with 422 and leaves the stack as it was', async () => {
    const { player, backpack } = await richPlayer();
    const copper = await coinTemplate(ctx, 'cp');
    const add = (quantity: number) =>
      call('POST', '/item_instances', player, {
        item_template_id: copper.id,
        container_id: backpack,
        quantity,
      });
    expect((await add(MAX_STACK_QUANTITY - 1_000_000)).statusCode).toBe(201);
    expect((await add(1_000_000)).statusCode).toBe(201);
    const rowsBefore = await ledgerCount();
    const past = await add(1);
    expect(past.statusCode).toBe(422);
    expect(body(past).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: inventoryMessages.stackFull(copper.name, 'Backpack'),
    });
    expect((await stacks(backpack)).map((s) => s.quantity)).toEqual([MAX_STACK_QUANTITY]);
    expect(await ledgerCount()).toBe(rowsBefore);
    const tooMany = await add(MAX_STACK_QUANTITY + 1);
    expect(tooMany.statusCode).toBe(422);
    expect(body(tooMany).error.details).toContainEqual({
      field: 'quantity',
      message: 'Quantity can be at most 10,000,000',
    });
  });

  it('refuses to open more than 1,000 stacks in one go, without a 500', async () => {
    const { player, backpack } = await richPlayer();
    const sword = await createTemplate(ctx, { name: 'Sword', stackSize: 1 });
    const rowsBefore = await ledgerCount();
    const many = await call('POST', '/item_instances', player, {
      item_template_id: sword.id,
      container_id: backpack,
      quantity: MAX_STACK_QUANTITY,
    });
    expect(many.statusCode).toBe(422);
    expect(body(many).error.message).toBe(inventoryMessages.tooManyStacks);
    expect(await stacks(backpack)).toHaveLength(0);
    expect(await ledgerCount()).toBe(rowsBefore);
  });

  it('tops up the other coin stacks in turn before refusing for room, and the ledger says it', async () => {
    const { player, backpack } = await richPlayer();
    const platinum = await coinTemplate(ctx, 'pp');
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: platinum.id,
        container_id: backpack,
        quantity: MAX_STACK_QUANTITY,
      }),
    ).data;
    const split = await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: 4_000_000 });
    expect(split.statusCode, split.body).toBe(200);
    const rowsBefore = await ledgerCount();
    const added = await call('POST', '/item_instances', player, {
      item_template_id: platinum.id,
      container_id: backpack,
      quantity: 5_000_000,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await stacks(backpack)).map((s) => s.quantity).sort((a, b) => a - b)).toEqual([
      5_000_000,
      MAX_STACK_QUANTITY,
    ]);
    // One row for the whole addition, of its whole quantity.
    expect(await ledgerCount()).toBe(rowsBefore + 1);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.itemTemplateId, platinum.id))
      .orderBy(desc(transactions.writeOrder));
    expect(rows[0]).toMatchObject({ quantity: 5_000_000 });
    // Full now: 5,000,001 more do not fit, and nothing changes.
    const refused = await call('POST', '/item_instances', player, {
      item_template_id: platinum.id,
      container_id: backpack,
      quantity: 5_000_001,
    });
    expect(refused.statusCode).toBe(422);
    expect(body(refused).error.message).toBe(
      'Backpack has no room for more Platinum piece: a stack holds at most 10,000,000.',
    );
    expect((await stacks(backpack)).map((s) => s.quantity).sort((a, b) => a - b)).toEqual([
      5_000_000,
      MAX_STACK_QUANTITY,
    ]);
    expect(await ledgerCount()).toBe(rowsBefore + 1);
  });

  it('refuses a merge or a conversion that would overfill a stack', async () => {
    const { player, backpack } = await richPlayer();
    const platinum = await coinTemplate(ctx, 'pp');
    await coinTemplate(ctx, 'cp');
    const [stack] = body(
      await call('POST', '/item_instances', player, {
        item_template_id: platinum.id,
        container_id: backpack,
        quantity: MAX_STACK_QUANTITY,
      }),
    ).data;
    const convert = await call('POST', `/containers/${backpack}/convert_currency`, player, {
      from: 'pp',
      to: 'cp',
      quantity: 20_000,
    });
    expect(convert.statusCode).toBe(422);
    expect(body(convert).error.message).toBe(
      'Backpack has no room for more Copper piece: a stack holds at most 10,000,000.',
    );
    const [, half] = body(
      await call('POST', `/item_instances/${stack?.id}/split`, player, { quantity: MAX_STACK_QUANTITY / 2 }),
    ).data;
    await call('POST', '/item_instances', player, {
      item_template_id: platinum.id,
      container_id: backpack,
      quantity: MAX_STACK_QUANTITY / 2,
    });
    const merged = await call('POST', `/item_instances/${half?.id}/merge`, player, {
      target_instance_id: stack?.id,
    });
    expect(merged.statusCode).toBe(422);
    expect(body(merged).error.message).toBe(inventoryMessages.stackTooLarge);
    expect((await stacks(backpack)).map((s) => s.quantity).sort((a, b) => a - b)).toEqual([
      MAX_STACK_QUANTITY / 2,
      MAX_STACK_QUANTITY,
    ]);
  });
});
