import { inventoryMessages, type LedgerTransaction } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances } from '../../db/schema/items.js';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Body {
  data: {
    id: string;
    moved: number;
    message: string;
    transaction_ids: string[];
    transactions: LedgerTransaction[];
  } & { id: string }[];
  error: { code: string; message: string };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** How many of each item a container holds, by stack. */
async function quantities(containerId: string): Promise<number[]> {
  const rows = await ctx.database.db
    .select()
    .from(itemInstances)
    .where(eq(itemInstances.containerId, containerId));
  return rows.map((row) => row.quantity).sort((a, b) => a - b);
}

/** Aria with 10 arrows in her backpack and an empty quiver; her player given, or a new one. */
async function archer(given: { user?: SignedInUser; partyId?: string } = {}) {
  const user = given.user ?? (await createUser(ctx));
  const aria = await createCharacter(ctx, user, {
    name: 'Aria',
    ...(given.partyId ? { partyId: given.partyId } : {}),
  });
  const backpack = String(aria.primary_container_id);
  const quiver = String(
    body(await call('POST', `/characters/${aria.id}/containers`, user, { container: { name: 'Quiver' } }))
      .data.id,
  );
  const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 0 });
  const added = await call('POST', '/item_instances', user, {
    item_template_id: arrow.id,
    container_id: backpack,
    quantity: 10,
  });
  const stack = String(body(added).data[0]?.id);
  return { user, aria, backpack, quiver, stack };
}

async function move(user: SignedInUser, stack: string, from: string, to: string, quantity: number) {
  const moved = await call('POST', '/containers/transfer', user, {
    item_instance_id: stack,
    source_container_id: from,
    target_container_id: to,
    quantity,
  });
  expect(moved.statusCode, moved.body).toBe(200);
  return String(body(moved).data.transaction_ids[0]);
}

const undo = (user: SignedInUser, transactionId: string) =>
  call('POST', `/transactions/${transactionId}/undo`, user);

describe('undoing a move (DESIGN §4 Undo)', () => {
  it('moves the items back as a new entry linked to the one it reverts, and only once', async () => {
    const { user, aria, backpack, quiver, stack } = await archer();
    const entry = await move(user, stack, backpack, quiver, 4);

    const undone = await undo(user, entry);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(body(undone).data).toMatchObject({ moved: 4, message: inventoryMessages.undone });
    expect(await quantities(backpack)).toEqual([10]);
    expect(await quantities(quiver)).toEqual([]);

    const history = body(await call('GET', `/transactions/character/${aria.id}?per_page=50`, user)).data
      .transactions;
    const original = history.find((row) => row.id === entry);
    const reverting = history.filter((row) => row.reverts_transaction_id === entry);
    expect(original?.reverts_transaction_id).toBeNull();
    // Undone: no longer offered, on any page, though the undo that moved it back is elsewhere.
    expect(original).toMatchObject({ undoable: false, undone: true });
    const alone = body(await call('GET', `/transactions/${entry}`, user))
      .data as unknown as LedgerTransaction;
    expect(alone).toMatchObject({ undoable: false, undone: true });
    expect(reverting).toHaveLength(1);
    expect(reverting[0]?.undoable).toBe(false);
    expect(reverting[0]).toMatchObject({
      quantity: 4,
      source_location_data: { id: quiver },
      destination_location_data: { id: backpack },
    });
    expect(reverting[0]?.transaction_summary).toMatch(
      /undid a move: 4 × Arrow went back to Backpack \(Aria\)$/,
    );

    const again = await undo(user, entry);
    expect(again.statusCode).toBe(409);
    expect(body(again).error.message).toBe(inventoryMessages.undoneAlready);
    // An undo is not undone: moving the items again is.
    const undoOfUndo = await undo(user, String(reverting[0]?.id));
    expect(undoOfUndo.statusCode).toBe(409);
    expect(body(undoOfUndo).error.message).toBe(inventoryMessages.undoOfUndo);
    expect(await quantities(backpack)).toEqual([10]);
  });

  it('undoes a move once when the same undo arrives five times at once, with more of the item left there', async () => {
    const { user, backpack, quiver, stack } = await archer();
    // Enough arrows stay in the quiver for a second undo to find four more to take back.
    await move(user, stack, backpack, quiver, 5);
    const entry = await move(user, stack, backpack, quiver, 4);
    const answers = await Promise.all(Array.from({ length: 5 }, () => undo(user, entry)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await quantities(backpack)).toEqual([5]);
    expect(await quantities(quiver)).toEqual([5]);
  });

  it('moves nothing when some of the items have moved on since', async () => {
    const { user, backpack, quiver, stack } = await archer();
    const entry = await move(user, stack, backpack, quiver, 4);
    const [inQuiver] = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, quiver));
    await move(user, String(inQuiver?.id), quiver, backpack, 3);

    const refused = await undo(user, entry);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error.message).toBe(inventoryMessages.undoItemsMovedOn);
    expect(await quantities(backpack)).toEqual([9]);
    expect(await quantities(quiver)).toEqual([1]);
  });

  it('says so in its own words when a container of the move has been deleted since', async () => {
    // Out of the quiver, which is then deleted: the arrows have nowhere to go back to.
    const first = await archer();
    const all = await move(first.user, first.stack, first.backpack, first.quiver, 10);
    expect(all).toBeTruthy();
    const [quivered] = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, first.quiver));
    const out = await move(first.user, String(quivered?.id), first.quiver, first.backpack, 10);
    expect((await call('DELETE', `/containers/${first.quiver}`, first.user)).statusCode).toBe(204);
    const noSource = await undo(first.user, out);
    expect([noSource.statusCode, body(noSource).error.message]).toEqual([
      409,
      inventoryMessages.undoSourceGone,
    ]);

    // Into the quiver, which is then deleted with its arrows handed back on: they have moved on.
    const second = await archer();
    const into = await move(second.user, second.stack, second.backpack, second.quiver, 4);
    const deleted = await call(
      'DELETE',
      `/containers/${second.quiver}?destination_container_id=${second.backpack}`,
      second.user,
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    const noTarget = await undo(second.user, into);
    expect([noTarget.statusCode, body(noTarget).error.message]).toEqual([
      409,
      inventoryMessages.undoItemsMovedOn,
    ]);
    expect(await quantities(second.backpack)).toEqual([10]);
  });

  it('takes nothing back once the stack the move filled has gone, even with plain items of the same kind there', async () => {
    const { user, backpack, quiver, stack } = await archer();
    // Elven arrows go to the quiver and leave it again; plain arrows of someone's arrive after.
    await call('PATCH', `/item_instances/${stack}`, user, { item_instance: { name: 'Elven arrow' } });
    const entry = await move(user, stack, backpack, quiver, 5);
    const [elven] = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, quiver));
    await move(user, String(elven?.id), quiver, backpack, 5);
    const [kind] = await ctx.database.db.select().from(itemInstances).where(eq(itemInstances.id, stack));
    await call('POST', '/item_instances', user, {
      item_template_id: kind?.itemTemplateId,
      container_id: quiver,
      quantity: 7,
    });

    const refused = await undo(user, entry);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error.message).toBe(inventoryMessages.undoItemsMovedOn);
    expect(await quantities(quiver)).toEqual([7]);
    expect(await quantities(backpack)).toEqual([5, 5]);
  });

  it("refuses someone else's move, an unknown entry, a change that is not a move, and a bad id", async () => {
    const { user, aria, backpack, quiver, stack } = await archer();
    const entry = await move(user, stack, backpack, quiver, 2);
    const stranger = await createUser(ctx);
    const theirs = await undo(stranger, entry);
    expect(theirs.statusCode).toBe(404);
    expect(body(theirs).error.message).toBe(inventoryMessages.undoNotFound);
    expect((await undo(user, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await undo(user, 'not-an-id')).statusCode).toBe(422);

    // The marketplace add that filled the backpack is a creation, not a move.
    const history = body(
      await call('GET', `/transactions/character/${aria.id}?per_page=50`, user),
    ).data.transactions.filter((row) => row.transaction_type === 'item_creation');
    expect(history).toHaveLength(1);
    const notAMove = await undo(user, String(history[0]?.id));
    expect(notAMove.statusCode).toBe(409);
    expect(body(notAMove).error.message).toBe(inventoryMessages.undoNotAMove);
    expect(await quantities(quiver)).toEqual([2]);
  });

  it("tells a party member who can read another's move that only its maker undoes it", async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const mover = await createMember(ctx, party, 'player');
    const { user, backpack, quiver, stack } = await archer({ user: mover, partyId: party.id });
    const entry = await move(user, stack, backpack, quiver, 3);

    const seen = await call('GET', `/transactions/${entry}`, player);
    expect(seen.statusCode, seen.body).toBe(200);
    const refused = await undo(player, entry);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(body(refused).error.message).toBe(inventoryMessages.undoNotYours);
    expect(await quantities(quiver)).toEqual([3]);
  });
});
