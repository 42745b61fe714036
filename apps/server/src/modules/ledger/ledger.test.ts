import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operationKindLabel, operationKindLabels, transactionTypeLabel } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  deployLoot,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { CSV_PAGE_ROWS } from './ledger.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

/** The summaries of a party's ledger list, newest first, for the query given. */
async function partySummaries(viewer: { auth: { authorization: string } }, partyId: string, query: string) {
  const response = await ctx.app.inject({
    url: `/api/v1/transactions/party/${partyId}?${query}`,
    headers: viewer.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (
    response.json() as { data: { transactions: { transaction_summary: string }[] } }
  ).data.transactions.map((t) => t.transaction_summary);
}

/** A small CSV reader for the test: a leading byte order mark, quoted fields, doubled quotes, CRLF rows. */
function parseCsv(withBom: string): string[][] {
  const text = withBom.replace(/^\uFEFF/, '');
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

/**
 * A party whose shop asks the GM about every purchase, and a player with 5 gp: `ask` requests a rope (2 gp 5 sp),
 * `decide` answers a request.
 */
async function requestsAtRopewalk() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, {
    name: 'Pip',
    partyId: party.id,
    maxWeight: null,
    maxSlots: null,
  });
  const backpack = hero.primary_container_id ?? '';
  const gold = await coinTemplate(ctx, 'gp');
  await ctx.app.services.inventory.createInstance(
    { id: player.user.id, username: player.user.username },
    { item_template_id: gold.id, container_id: backpack, quantity: 5 },
  );
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const template = (
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Ropewalk' } })
  ).json().data as { id: string };
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: 10, price_cp: 250 },
  });
  const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: template.id, party_id: party.id, approval_threshold_cp: 0 },
  });
  expect(deployed.statusCode, deployed.body).toBe(201);
  const shop = deployed.json().data as { id: string; container: { item_instances: { id: string }[] } };
  const ask = async () => {
    const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: shop.container.item_instances[0]?.id,
        quantity: 1,
        buyer_character_id: hero.id,
        buyer_container_id: backpack,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    return (asked.json().data as { request: { id: string } }).request.id;
  };
  const decide = async (by: SignedInUser, id: string, path: 'approve' | 'decline' | 'cancel') => {
    const decided = await callApi(ctx, 'POST', `/shop_requests/${id}/${path}`, by);
    expect(decided.statusCode, decided.body).toBe(200);
  };
  return { gm, party, player, ask, decide };
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
    // Excel reads a file without the byte order mark in the system's code page, garbling accents.
    expect(response.body.startsWith('\uFEFFDate,Type,')).toBe(true);
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
      'Source',
      'Type code',
    ]);
    // The header, the creation of the party's Party Stash (the newest row) and the 2,500 transfers.
    expect(table).toHaveLength(2_502);
    expect(table[1]?.[9]).toBe(`Party Stash (${party.name})`);
    expect(table[2]?.[5]).toBe('2500');
    expect(table[2]?.[11]).toBe('web');
    const first = table.find((r) => r[4] === 'Sword, "Sting"');
    expect(first).toBeDefined();
    expect(table.find((r) => r[5] === '2')?.[10]).toBe(`'=HYPERLINK("x")`);
    expect(new Set(table.slice(2).map((r) => r[5])).size).toBe(2_500);
  });

  it('writes each row’s Type as the transaction history names it, not the ledger’s code', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const base = Date.now() - 1_000_000;
    await ctx.database.db.insert(transactions).values(
      (['transfer', 'loot_distribution', 'character_to_party_transfer'] as const).map((type, i) => ({
        transactionType: type,
        partyId: party.id,
        actorId: gm.user.id,
        actorName: gm.user.username,
        itemName: `Rope ${i}`,
        quantity: 1,
        summary: `row ${i}`,
        transactionDate: new Date(base + i * 1000),
      })),
    );
    const response = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv`,
      headers: gm.auth,
    });
    expect(response.statusCode).toBe(200);
    const typeOf = (item: string) => parseCsv(response.body).find((row) => row[4] === item)?.[1];
    expect(typeOf('Rope 0')).toBe('Transfer');
    expect(typeOf('Rope 1')).toBe('Loot distribution');
    expect(typeOf('Rope 2')).toBe('Character to party (GM)');
    // The party's own stash, made with it.
    expect(parseCsv(response.body)[1]?.[1]).toBe('Container created');
  });

  it('names a character joining or leaving and a purchase request’s hold as the history’s badge does', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, {
      name: 'Pip',
      partyId: party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const backpack = hero.primary_container_id ?? '';
    const gold = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: gold.id, container_id: backpack, quantity: 5 },
    );
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
    const call = (user: typeof gm, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      ctx.app.inject({ method, url: `/api/v1${url}`, headers: user.auth, ...(payload ? { payload } : {}) });
    const template = (
      await call(gm, 'POST', '/shop_templates', { shop_template: { name: 'Ropewalk' } })
    ).json().data as { id: string };
    await call(gm, 'POST', `/shop_templates/${template.id}/add_item`, {
      shop_item: { item_template_id: rope.id, quantity: 10, price_cp: 250 },
    });
    // Every purchase waits for the GM.
    const deployed = await call(gm, 'POST', '/shop_instances', {
      shop_instance: { shop_template_id: template.id, party_id: party.id, approval_threshold_cp: 0 },
    });
    expect(deployed.statusCode, deployed.body).toBe(201);
    const shop = deployed.json().data as { id: string; container: { item_instances: { id: string }[] } };
    const ask = async () => {
      const asked = await call(player, 'POST', `/shop_instances/${shop.id}/purchase`, {
        purchase: {
          item_instance_id: shop.container.item_instances[0]?.id,
          quantity: 1,
          buyer_character_id: hero.id,
          buyer_container_id: backpack,
        },
      });
      expect(asked.statusCode, asked.body).toBe(202);
      return (asked.json().data as { request: { id: string } }).request.id;
    };
    const decided = async (user: typeof gm, path: string) =>
      expect((await call(user, 'POST', path, {})).statusCode).toBe(200);
    await decided(gm, `/shop_requests/${await ask()}/decline`);
    await decided(player, `/shop_requests/${await ask()}/cancel`);
    await decided(gm, `/shop_requests/${await ask()}/approve`);
    // Pip, carrying 2 gp, 5 sp of change and the rope, goes out of the party and comes back.
    for (const partyId of [null, party.id]) {
      const moved = await call(player, 'PATCH', `/characters/${hero.id}`, {
        character: { party_id: partyId },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }

    const response = await call(gm, 'GET', `/transactions/party/${party.id}/export.csv`);
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = parseCsv(response.body);
    // spec/02 §9's columns, as before.
    expect(header).toEqual([
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
      'Source',
      'Type code',
    ]);
    const typed = (type: string) => lines.filter((line) => line[1] === type);
    const gear = (type: string) =>
      typed(type)
        .map((line) => `${line[4]} ${line[5]} ${line[8]} → ${line[9]}`)
        .sort();
    const carried = [
      'Gold piece 2 Backpack (Pip) → Backpack (Pip)',
      'Rope 1 Backpack (Pip) → Backpack (Pip)',
      'Silver piece 5 Backpack (Pip) → Backpack (Pip)',
    ];
    expect(gear('Left the party')).toEqual(carried);
    expect(gear('Joined the party')).toEqual(carried);
    // Nothing here was an adjustment: summing that Type no longer counts Pip's gear twice.
    expect(typed('Adjustment')).toEqual([]);
    // Each request set a rope aside (its hold made, the rope moved in), then what became of it.
    expect(typed('Purchase requested').map((line) => line[4])).toEqual(['Rope', '', 'Rope', '', 'Rope', '']);
    expect(typed('Purchase declined').map((line) => line[4])).toEqual(['', 'Rope']);
    expect(typed('Purchase request cancelled').map((line) => line[4])).toEqual(['', 'Rope']);
    expect(typed('Purchase approved').map((line) => line[4])).toEqual(['']);
    // The approved purchase is a purchase: its goods, the coins paid and the change, its price once.
    expect(typed('Purchase').map((line) => [line[4], line[6]])).toEqual([
      ['Silver piece', ''],
      ['Gold piece', ''],
      ['Rope', '250'],
    ]);
    expect(typed('Transfer')).toEqual([]);
  });

  it('writes each row’s code after the spec’s columns, the one its Type label is named by, for scripts', async () => {
    const { gm, party, ask, decide } = await requestsAtRopewalk();
    await decide(gm, await ask(), 'approve');
    const response = await callApi(ctx, 'GET', `/transactions/party/${party.id}/export.csv`, gm);
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = parseCsv(response.body);
    // spec/02 §9's eleven columns keep their order; the codes come last, after Source.
    expect(header?.slice(-2)).toEqual(['Source', 'Type code']);
    const coded = (line: string[]) => `${line[1]} = ${line.at(-1)}`;
    const codes = new Set(lines.map(coded));
    // The party's stash and the ledger's own types, as exports wrote them before they had labels.
    expect(codes).toContain('Container created = container_creation');
    expect(codes).toContain('Item added = item_creation');
    expect(codes).toContain('Purchase = purchase');
    // The request's rows, by the kind their label is named by.
    expect(codes).toContain('Purchase requested = shop_request');
    expect(codes).toContain('Purchase approved = shop_request_approved');
    // Every code names its label, and one label has one code.
    for (const line of lines) {
      const code = line.at(-1) ?? '';
      const label = code in operationKindLabels ? operationKindLabel(code) : transactionTypeLabel(code);
      expect(line[1], code).toBe(label);
    }
    const byLabel = new Map<string, Set<string>>();
    for (const line of lines)
      byLabel.set(line[1] ?? '', (byLabel.get(line[1] ?? '') ?? new Set()).add(line.at(-1) ?? ''));
    expect([...byLabel.values()].every((set) => set.size === 1)).toBe(true);
  });

  it('names the hold an approval dropped before decisions kept their outcome as the approval, as the history does', async () => {
    const { gm, party, ask, decide } = await requestsAtRopewalk();
    await decide(gm, await ask(), 'approve');
    await decide(gm, await ask(), 'decline');
    // Rows written before 2026-11-29 (ecb03768) named no outcome: the hold dropped and the goods sent back said
    // only that they were about a request.
    await ctx.database.db.execute(
      sql`update transactions set details = details - 'outcome' where party_id = ${party.id} and details ? 'outcome'`,
    );

    // The Activity tab badges the approval by its purchase, and an old decline by its main row's type.
    const grouped = await callApi(
      ctx,
      'GET',
      `/transactions/party/${party.id}?per_page=50&group=operation`,
      gm,
    );
    expect(grouped.statusCode, grouped.body).toBe(200);
    const { operations } = grouped.json().data as { operations: { summary: string; kind?: string }[] };
    const kindOf = (pattern: RegExp) =>
      operations.filter((op) => pattern.test(op.summary)).map((op) => op.kind);
    expect(kindOf(/ bought 1 × Rope /)).toEqual(['shop_request_approved']);
    expect(kindOf(/ declined /)).toEqual([undefined]);

    const response = await callApi(ctx, 'GET', `/transactions/party/${party.id}/export.csv`, gm);
    expect(response.statusCode).toBe(200);
    const [, ...lines] = parseCsv(response.body);
    const holdDrops = lines
      // The hold dropped: from the hold, to nowhere.
      .filter((line) => line[8] === 'Ropewalk hold' && line[9] === '')
      .map((line) => `${line[1]} = ${line.at(-1)}`);
    // Newest first: the decline's, then the approval's. Neither is a request.
    expect(holdDrops).toEqual([
      'Container deleted = container_deletion',
      'Purchase approved = shop_request_approved',
    ]);
    const typed = (type: string) => lines.filter((line) => line[1] === type).map((line) => line[4]);
    // Only the asking's rows are requests: each hold made and the rope set aside in it.
    expect(typed('Purchase requested')).toEqual(['Rope', '', 'Rope', '']);
    // The old decline's rope going back reads as the Activity tab's badge does.
    expect(typed('Transfer')).toEqual(['Rope']);
  });

  it('writes control characters and override marks of rows stored before the text rules as U+FFFD', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    // U+009B (CSI) and U+0085 (NEL) are C1 controls a terminal or a CSV reader may act on.
    await ctx.database.db.insert(transactions).values({
      transactionType: 'transfer',
      partyId: party.id,
      actorId: gm.user.id,
      actorName: 'Pip\u009B31m',
      targetName: 'Stash\u0085',
      itemName: 'Rope \u202Eevil',
      quantity: 1,
      sourceName: 'Bag\u0007',
      destinationName: 'Stash',
      notes: 'North\r\n\tSouth\u0080',
      summary: 'old row',
    });
    const response = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv`,
      headers: gm.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/(?![\t\n\r])\p{Cc}|[\u202A-\u202E]/u);
    const row = parseCsv(response.body).find((r) => r[2]?.startsWith('Pip'));
    expect(row?.slice(2, 5)).toEqual(['Pip\uFFFD31m', 'Stash\uFFFD', 'Rope \uFFFDevil']);
    expect(row?.[8]).toBe('Bag\uFFFD');
    expect(row?.[10]).toBe('North\r\n\tSouth\uFFFD');
  });

  it('lists the rows of one database transaction, which share its date, in the reverse of their writing', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    // One date for all, as now() gives every row of one transaction; more rows than a CSV page (1,000).
    const sameInstant = new Date(Date.now() + 60_000);
    const rows = Array.from({ length: 1_200 }, (_, i) => ({
      transactionType: 'transfer',
      partyId: party.id,
      actorId: gm.user.id,
      actorName: gm.user.username,
      itemName: `Arrow ${i}`,
      quantity: 1,
      summary: `row ${i}`,
      transactionDate: sameInstant,
    }));
    await ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 400) await tx.insert(transactions).values(rows.slice(i, i + 400));
    });
    const written = rows.map((row) => row.itemName);
    const newestFirst = [...written].reverse();

    const listed = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}?per_page=20&page=2`,
      headers: gm.auth,
    });
    const page = (listed.json() as { data: { transactions: { transactable_data: { name: string } }[] } })
      .data;
    expect(page.transactions.map((t) => t.transactable_data.name)).toEqual(newestFirst.slice(20, 40));

    const exported = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv`,
      headers: gm.auth,
    });
    const items = parseCsv(exported.body)
      .slice(1)
      .map((row) => row[4])
      .filter((name) => name?.startsWith('Arrow '));
    expect(items).toEqual(newestFirst);
  });

  it('exports every row of a change stamped finer than a millisecond across a page boundary', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    // PostgreSQL's now() keeps microseconds; a cursor held as a JS Date dropped what lay past a page's end.
    const microseconds = sql`'2026-11-20 18:00:00.257123+00'::timestamptz`;
    const rows = Array.from({ length: CSV_PAGE_ROWS + 7 }, (_, i) => ({
      transactionType: 'transfer',
      partyId: party.id,
      actorId: gm.user.id,
      actorName: gm.user.username,
      itemName: `Coin ${i}`,
      quantity: 1,
      summary: `row ${i}`,
      transactionDate: microseconds,
    }));
    await ctx.database.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 400) await tx.insert(transactions).values(rows.slice(i, i + 400));
    });
    const exported = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv`,
      headers: gm.auth,
    });
    const names = parseCsv(exported.body)
      .slice(1)
      .map((row) => row[4])
      .filter((name) => name?.startsWith('Coin '));
    expect(names).toHaveLength(CSV_PAGE_ROWS + 7);
    expect(new Set(names).size).toBe(CSV_PAGE_ROWS + 7);
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

describe('amounts in the ledger (spec/02 history)', () => {
  it('shows money only where it changed hands, always in copper and labelled so', async () => {
    const player = await createUser(ctx);
    const character = await createCharacter(ctx, player);
    const backpack = String(character.primary_container_id);
    const act = (url: string, payload: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: player.auth,
        payload: payload as object,
      });
    const gold = await coinTemplate(ctx, 'gp');
    const pouch = await act(`/characters/${character.id}/containers`, { container: { name: 'Pouch' } });
    const pouchId = String((pouch.json() as { data: { id: string } }).data.id);
    const gem = await createTemplate(ctx, { name: 'Gem', weight: 0, baseValue: 50 });
    const [added] = (
      (await act('/item_instances', { item_template_id: gem.id, container_id: backpack })).json() as {
        data: { id: string }[];
      }
    ).data;
    expect(
      (
        await act('/containers/transfer', {
          item_instance_id: added?.id,
          source_container_id: backpack,
          target_container_id: pouchId,
        })
      ).statusCode,
    ).toBe(200);
    await act('/item_instances', { item_template_id: gold.id, container_id: backpack, quantity: 10 });
    const converted = await act(`/containers/${backpack}/convert_currency`, { from: 'gp', to: 'pp' });
    expect(converted.statusCode).toBe(200);

    const listed = await ctx.app.inject({
      url: `/api/v1/transactions/character/${character.id}?per_page=50`,
      headers: player.auth,
    });
    const rows = (
      listed.json() as {
        data: {
          transactions: {
            transaction_type: string;
            transactable_data: { name: string };
            quantity: number;
            amount: number | null;
            currency: string | null;
          }[];
        };
      }
    ).data.transactions;
    const pick = (type: string, name: string) =>
      rows.find((r) => r.transaction_type === type && r.transactable_data.name === name);
    // 10 gp make 1 pp: the exchange is worth 1000 cp, said once (on the coins given) in one unit, so a sum
    // of the amounts counts it once.
    expect(pick('currency_conversion', 'Gold piece')).toMatchObject({
      quantity: 10,
      amount: 1000,
      currency: 'cp',
    });
    expect(pick('currency_conversion', 'Platinum piece')).toMatchObject({
      quantity: 1,
      amount: null,
      currency: null,
    });
    // Adding and moving things is not a trade: no amount at all.
    expect(pick('item_creation', 'Gem')).toMatchObject({ amount: null, currency: null });
    expect(pick('item_creation', 'Gold piece')).toMatchObject({ amount: null, currency: null });
    expect(pick('transfer', 'Gem')).toMatchObject({ amount: null, currency: null });

    const csv = await ctx.app.inject({
      url: `/api/v1/transactions/character/${character.id}/export.csv`,
      headers: player.auth,
    });
    const table = parseCsv(csv.body).slice(1);
    // The Type column names the type as the transaction history does.
    const line = (type: string, item: string) => table.find((r) => r[1] === type && r[4] === item);
    expect(line('Currency conversion', 'Gold piece')?.slice(5, 8)).toEqual(['10', '1000', 'cp']);
    expect(line('Currency conversion', 'Platinum piece')?.slice(5, 8)).toEqual(['1', '', '']);
    expect(line('Item added', 'Gem')?.slice(5, 8)).toEqual(['1', '', '']);
    expect(line('Transfer', 'Gem')?.slice(5, 8)).toEqual(['1', '', '']);
  });

  it('reads older rows the same way: a move keeps no price, copper is labelled cp', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const base = {
      partyId: party.id,
      actorId: gm.user.id,
      actorName: gm.user.username,
      summary: 'older row',
    };
    await ctx.database.db.insert(transactions).values([
      {
        ...base,
        transactionType: 'item_creation',
        itemName: 'Gold piece',
        quantity: 20,
        amountCp: 2000,
        currency: 'cp',
      },
      {
        ...base,
        transactionType: 'currency_conversion',
        itemName: 'Platinum piece',
        quantity: 1,
        amountCp: 1000,
        currency: 'pp',
      },
    ]);
    const listed = await ctx.app.inject({ url: `/api/v1/transactions/party/${party.id}`, headers: gm.auth });
    const rows = (
      listed.json() as {
        data: {
          transactions: { transaction_type: string; amount: number | null; currency: string | null }[];
        };
      }
    ).data.transactions;
    expect(rows.find((r) => r.transaction_type === 'item_creation')).toMatchObject({
      amount: null,
      currency: null,
    });
    expect(rows.find((r) => r.transaction_type === 'currency_conversion')).toMatchObject({
      amount: 1000,
      currency: 'cp',
    });
  });
});

// A date at the calendar's edge (year 0, or 9999-12-31 whose inclusive end is a day into year 10000) once
// reached PostgreSQL and failed there as a 500; it is a typo, refused naming its field.
describe('ledger date filters at the edges of the calendar', () => {
  it("gives each row's target the id of what it names: the receiver, the stash's party, the loot", async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_3');
    const aria = await createCharacter(ctx, gm, { name: 'Aria', partyId: party.id });
    const borin = await createCharacter(ctx, player, { name: 'Borin', partyId: party.id });
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url: `/api/v1${url}`, headers: gm.auth, ...(payload ? { payload } : {}) });
    const added = await call('POST', '/item_instances', {
      item_template_id: rope.id,
      container_id: aria.primary_container_id,
      quantity: 5,
    });
    expect(added.statusCode, added.body).toBe(201);
    const stackId = String((added.json() as { data: { id: string }[] }).data[0]?.id);
    expect(
      (await call('POST', `/item_instances/${stackId}/give`, { character_id: borin.id, quantity: 1 }))
        .statusCode,
    ).toBe(200);
    const containers = (await call('GET', `/parties/${party.id}/containers`)).json() as {
      data: { id: string; name: string }[];
    };
    const stash = containers.data.find((c) => c.name === 'Party Stash');
    const deposit = await call('POST', '/containers/transfer', {
      item_instance_id: stackId,
      source_container_id: aria.primary_container_id,
      target_container_id: stash?.id,
      quantity: 1,
    });
    expect(deposit.statusCode, deposit.body).toBe(200);
    const hoard = await deployLoot(
      ctx,
      gm,
      party.id,
      (await createLootTemplate(ctx, gm, [{ item_template_id: rope.id, quantity: 2 }])).id,
      { name: 'Hoard' },
    );

    const listed = (await call('GET', `/transactions/party/${party.id}?per_page=100`)).json() as {
      data: {
        transactions: { transaction_type: string; target_data: { id: string | null; name: string } }[];
      };
    };
    const targetOf = (type: string) =>
      listed.data.transactions.find((t) => t.transaction_type === type)?.target_data;
    // The gift: the receiver, not the giver's character the row belongs to.
    expect(targetOf('character_to_character_transfer')).toEqual({ id: borin.id, name: 'Borin' });
    expect(targetOf('party_deposit')).toEqual({ id: party.id, name: party.name });
    expect(targetOf('item_creation')).toEqual({ id: aria.id, name: 'Aria' });
    expect(targetOf('create')).toEqual({ id: hoard.id, name: 'Hoard' });

    // The receiver's own history and CSV hold the gift that brought them the rope, as the giver's do.
    const history = async (characterId: string, who = gm) =>
      (
        (
          await ctx.app.inject({
            url: `/api/v1/transactions/character/${characterId}?per_page=100`,
            headers: who.auth,
          })
        ).json() as { data: { transactions: { transaction_type: string }[] } }
      ).data.transactions.map((t) => t.transaction_type);
    expect(await history(borin.id, player)).toContain('character_to_character_transfer');
    expect(await history(aria.id)).toContain('character_to_character_transfer');
    const csv = await ctx.app.inject({
      url: `/api/v1/transactions/character/${borin.id}/export.csv`,
      headers: player.auth,
    });
    expect(csv.body).toContain('Rope');
    // A move that neither names it nor brings it anything stays out: the stash deposit is Aria's alone.
    expect(await history(borin.id, player)).not.toContain('party_deposit');

    // Between two characters' Backpacks, the summary names each one's owner.
    const across = await call('POST', '/containers/transfer', {
      item_instance_id: stackId,
      source_container_id: aria.primary_container_id,
      target_container_id: borin.primary_container_id,
      quantity: 1,
    });
    expect(across.statusCode, across.body).toBe(200);
    const summaries = (
      (await call('GET', `/transactions/party/${party.id}?per_page=100`)).json() as {
        data: { transactions: { transaction_summary: string }[] };
      }
    ).data.transactions.map((t) => t.transaction_summary);
    expect(summaries).toContain(
      `${gm.user.username} moved 1 × Rope from Backpack (Aria) to Backpack (Borin)`,
    );
    expect(summaries).toContain(
      `${gm.user.username} moved 1 × Rope from Backpack (Aria) to Party Stash (${party.name})`,
    );

    // Borin's player leaves the party with Borin: the gift Borin received still opens on its own, as it
    // still lists in Borin's history.
    const giftRow = (
      (
        await ctx.app.inject({
          url: `/api/v1/transactions/character/${borin.id}?per_page=100`,
          headers: player.auth,
        })
      ).json() as { data: { transactions: { id: string; transaction_type: string }[] } }
    ).data.transactions.find((t) => t.transaction_type === 'character_to_character_transfer');
    const left = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/parties/${party.id}/leave`,
      headers: player.auth,
    });
    expect(left.statusCode, left.body).toBe(204);
    const alone = await ctx.app.inject({ url: `/api/v1/transactions/${giftRow?.id}`, headers: player.auth });
    expect(alone.statusCode, alone.body).toBe(200);

    // Borin joins another party: its members see Borin's history there, not the old party's rows (who gave
    // what to whom, the GM's names for things), on the list, in the CSV, or a row opened on its own.
    const inn = await createParty(ctx, player, { name: 'The Prancing Pony' });
    const brought = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/characters/${borin.id}`,
      headers: player.auth,
      payload: { character: { party_id: inn.id } },
    });
    expect(brought.statusCode, brought.body).toBe(200);
    const newcomer = await createMember(ctx, inn, 'observer');
    expect(await history(borin.id, player)).toContain('character_to_character_transfer');
    const seenThere = await history(borin.id, newcomer);
    expect(seenThere).not.toContain('character_to_character_transfer');
    expect(seenThere).not.toContain('character_creation');
    const theirCsv = await ctx.app.inject({
      url: `/api/v1/transactions/character/${borin.id}/export.csv`,
      headers: newcomer.auth,
    });
    expect(theirCsv.statusCode).toBe(200);
    // Not the old party's rows (the gift from Aria); only what Borin brought along, told to its new party.
    expect(theirCsv.body).not.toContain('Aria');
    expect(theirCsv.body).not.toContain('Character to character');
    expect(theirCsv.body).toMatch(
      /,Joined the party,[^,]+,Borin,Rope,2,,,Backpack \(Borin\),Backpack \(Borin\),/,
    );
    const opened = await ctx.app.inject({
      url: `/api/v1/transactions/${giftRow?.id}`,
      headers: newcomer.auth,
    });
    expect(opened.statusCode, opened.body).toBe(404);
    // What happens to Borin in the new party is theirs to read.
    const torch = await createTemplate(ctx, { name: 'Torch', stackSize: 0 });
    const lit = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/item_instances',
      headers: player.auth,
      payload: { item_template_id: torch.id, container_id: borin.primary_container_id, quantity: 1 },
    });
    expect(lit.statusCode, lit.body).toBe(201);
    expect(await history(borin.id, newcomer)).toContain('item_creation');
  });

  it('refuses dates outside 1000-01-01 to 9998-12-31 with 422 on the lists and the CSV exports', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const hero = await createCharacter(ctx, gm);
    const ledgers = [
      `/api/v1/transactions/party/${party.id}`,
      `/api/v1/transactions/party/${party.id}/export.csv`,
      `/api/v1/transactions/character/${hero.id}`,
      `/api/v1/transactions/character/${hero.id}/export.csv`,
    ];
    for (const ledger of ledgers) {
      for (const [field, date] of [
        ['start_date', '0000-01-01'],
        ['end_date', '0000-01-01'],
        ['end_date', '9999-12-31'],
        ['start_date', '9999-12-31'],
        ['start_date', '0999-12-31'],
      ] as const) {
        const url = `${ledger}?${field}=${date}`;
        const refused = await ctx.app.inject({ url, headers: gm.auth });
        expect([url, refused.statusCode, refused.json()]).toEqual([
          url,
          422,
          {
            status: 'error',
            error: expect.objectContaining({
              code: 'VALIDATION_ERROR',
              details: [{ field, message: `${field} must be between 1000-01-01 and 9998-12-31` }],
            }),
          },
        ]);
      }
    }
  });

  it('keeps both edge dates, inclusive, and finds rows dated on them', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const row = { transactionType: 'transfer', partyId: party.id, actorId: gm.user.id, quantity: 1 };
    await ctx.database.db.insert(transactions).values([
      { ...row, summary: 'first day', transactionDate: new Date('1000-01-01T12:00:00Z') },
      { ...row, summary: 'last day', transactionDate: new Date('9998-12-31T23:59:59Z') },
    ]);
    const summaries = (query: string) => partySummaries(gm, party.id, query);
    expect(await summaries('start_date=1000-01-01&end_date=1000-01-01')).toEqual(['first day']);
    expect(await summaries('start_date=9998-12-31&end_date=9998-12-31')).toEqual(['last day']);
    const exported = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv?start_date=9998-12-31&end_date=9998-12-31`,
      headers: gm.auth,
    });
    expect(exported.statusCode).toBe(200);
    expect(parseCsv(exported.body)).toHaveLength(2);
  });
});

// The web's "1d" is the last 24 hours wherever its user is: a day read as UTC midnight was 20 h in UTC+14.
describe('ledger date filters as instants', () => {
  it('takes start_date and end_date as ISO instants, exact to the second, on the lists and the CSV exports', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const row = { transactionType: 'transfer', partyId: party.id, actorId: gm.user.id, quantity: 1 };
    await ctx.database.db.insert(transactions).values([
      { ...row, summary: 'a day and a minute ago', transactionDate: new Date('2026-03-09T10:29:00Z') },
      { ...row, summary: 'a day ago, less a minute', transactionDate: new Date('2026-03-09T10:31:00Z') },
      { ...row, summary: 'just now', transactionDate: new Date('2026-03-10T10:29:00Z') },
    ]);
    // Making the party wrote a row of its own, dated now: left out of what the test compares.
    const created = `${gm.user.username} created Party Stash for ${party.name}`;
    const summaries = async (query: string) =>
      (await partySummaries(gm, party.id, query)).filter((summary) => summary !== created);
    // 2026-03-10 00:30 in UTC+14 is 2026-03-09 10:30 UTC: the last 24 hours start a day before that.
    const since = new URLSearchParams({ start_date: '2026-03-09T10:30:00.000Z' });
    expect(await summaries(`${since}`)).toEqual(['just now', 'a day ago, less a minute']);
    // The same instant written with its offset means the same.
    expect(await summaries(`${new URLSearchParams({ start_date: '2026-03-10T00:30:00+14:00' })}`)).toEqual([
      'just now',
      'a day ago, less a minute',
    ]);
    expect(await summaries(`${since}&end_date=2026-03-09T10:31:00Z`)).toEqual(['a day ago, less a minute']);
    // A bare date still means its whole day in UTC.
    expect(await summaries('start_date=2026-03-09&end_date=2026-03-09')).toEqual([
      'a day ago, less a minute',
      'a day and a minute ago',
    ]);
    const exported = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}/export.csv?${since}`,
      headers: gm.auth,
    });
    expect(exported.statusCode).toBe(200);
    expect(parseCsv(exported.body)).toHaveLength(4);
  });

  it('refuses a start_date that is neither a date nor an instant, naming it', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const refused = await ctx.app.inject({
      url: `/api/v1/transactions/party/${party.id}?start_date=yesterday`,
      headers: gm.auth,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details).toEqual([
      { field: 'start_date', message: 'start_date must be a date (YYYY-MM-DD) or an ISO-8601 date and time' },
    ]);
  });
});

describe('migration 0024: targets for rows written before 0021', () => {
  it('gives an old gift its receiver as target, so it lists in the receiver’s history again', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const aria = await createCharacter(ctx, gm, { name: 'Aria', partyId: party.id });
    const borin = await createCharacter(ctx, gm, { name: 'Borin', partyId: party.id });
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url: `/api/v1${url}`, headers: gm.auth, ...(payload ? { payload } : {}) });
    const added = await call('POST', '/item_instances', {
      item_template_id: rope.id,
      container_id: aria.primary_container_id,
      quantity: 3,
    });
    const stackId = String((added.json() as { data: { id: string }[] }).data[0]?.id);
    const gift = await call('POST', `/item_instances/${stackId}/give`, {
      character_id: borin.id,
      quantity: 1,
    });
    expect(gift.statusCode, gift.body).toBe(200);
    const typesIn = async (characterId: string) =>
      (
        (await call('GET', `/transactions/character/${characterId}?per_page=100`)).json() as {
          data: { transactions: { transaction_type: string }[] };
        }
      ).data.transactions.map((t) => t.transaction_type);

    // As a site upgraded from before 0021 has them: no row of this party has a target.
    await ctx.database.db.execute(
      sql`update ${transactions} set target_id = null where ${transactions.partyId} = ${party.id}`,
    );
    expect(await typesIn(borin.id)).not.toContain('character_to_character_transfer');

    const migration = readFileSync(
      fileURLToPath(new URL('../../db/migrations/0024_ledger_target_backfill.sql', import.meta.url)),
      'utf8',
    );
    await ctx.database.db.execute(sql.raw(migration));
    expect(await typesIn(borin.id)).toContain('character_to_character_transfer');
    // Aria's own rows target nothing new: her history is what it was, Borin's creation stays his.
    expect(await typesIn(aria.id)).toContain('character_to_character_transfer');
    expect((await typesIn(aria.id)).filter((t) => t === 'character_creation')).toHaveLength(1);
  });
});
