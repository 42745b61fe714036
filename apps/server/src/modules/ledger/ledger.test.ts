import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { createParty, createUser, upgrade } from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

/** A small CSV reader for the test: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('CSV export of the ledger', () => {
  it('streams every row with the spec columns and file name, newest first', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const base = Date.now() - 10_000_000;
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      transactionType: 'transfer',
      partyId: party.id,
      actorId: gm.user.id,
      actorName: gm.user.username,
      targetName: 'Stash',
      itemName: i === 0 ? 'Sword, "Sting"' : `Arrow ${i}`,
      quantity: i + 1,
      amountCp: 5,
      currency: 'cp',
      sourceName: 'Backpack',
      destinationName: 'Stash',
      notes: i === 1 ? '=HYPERLINK("x")' : null,
      summary: `row ${i}`,
      transactionDate: new Date(base + i * 1000),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await ctx.database.db.insert(transactions).values(rows.slice(i, i + 500));

    const response = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv`,
      headers: gm.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="transactions-${party.id}-${today}.csv"`,
    );
    const table = parseCsv(response.body);
    expect(table[0]).toEqual([
      'Date',
      'Type',
      'Actor',
      'Target',
      'Item',
      'Quantity',
      'Amount',
      'Currency',
      'From Location',
      'To Location',
      'Notes',
    ]);
    expect(table).toHaveLength(2_501);
    expect(table[1]?.[5]).toBe('2500');
    const first = table.find((r) => r[4] === 'Sword, "Sting"');
    expect(first).toBeDefined();
    expect(table.find((r) => r[5] === '2')?.[10]).toBe(`'=HYPERLINK("x")`);
    expect(new Set(table.slice(1).map((r) => r[5])).size).toBe(2_500);
  });

  it('applies the filters and refuses strangers', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const response = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv?transaction_type=sale`,
      headers: gm.auth,
    });
    expect(parseCsv(response.body)).toHaveLength(1);
    const stranger = await createUser(ctx);
    expect(
      (
        await ctx.app.inject({
          url: `/api/v1/transactions/party/${party.id}/export.csv`,
          headers: stranger.auth,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await ctx.app.inject({
          url: `/api/v1/transactions/character/${crypto.randomUUID()}/export.csv`,
          headers: gm.auth,
        })
      ).statusCode,
    ).toBe(404);
  });
});
