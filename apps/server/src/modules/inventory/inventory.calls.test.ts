import { inventoryMessages, manualEntryMessages, shopMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/** Issue 14 item 1 and 5: the containers list and create, the item list, manual ledger entries, transfer failures. */

interface Body {
  status: string;
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: Record<string, number>;
  message?: string;
  success?: boolean;
  errors?: string[];
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  for (const currency of ['cp', 'sp', 'ep', 'gp', 'pp'] as const) await coinTemplate(ctx, currency);
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;
const ids = (response: { json(): unknown }) => body(response).data.map((row) => String(row.id));

/** A GM with a party and its stash, and a player with a character in it and another outside. */
async function table() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const stash = String(body(await call('GET', `/parties/${party.id}/containers`, gm)).data[0]?.id);
  const player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  const pip = await createCharacter(ctx, player, { name: 'Pip', partyId: party.id });
  const loner = await createCharacter(ctx, player, { name: 'Loner' });
  const other = await createMember(ctx, party, 'player');
  const brom = await createCharacter(ctx, other, { name: 'Brom', partyId: party.id });
  return { gm, party, stash, player, pip, loner, other, brom };
}

async function add(user: SignedInUser, containerId: string, templateId: string, quantity: number) {
  const response = await call('POST', '/item_instances', user, {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });
  expect(response.statusCode).toBe(201);
}

async function contents(user: SignedInUser, containerId: string) {
  const list = body(await call('GET', `/containers/${containerId}/items?per_page=100`, user)).data;
  return Object.fromEntries(list.map((i) => [String(i.name), Number(i.quantity)]));
}

describe('GET /containers (spec/02 §7 container CRUD at the containers paths)', () => {
  it('lists my characters’ containers and my parties’ own, each as GET containers/{id} shows it', async () => {
    const { party, stash, player, pip, loner, brom } = await table();
    const listed = await call('GET', '/containers', player);
    expect(listed.statusCode).toBe(200);
    // Characters' first, by name (Loner, Pip), then the party's stash; never another player's.
    expect(ids(listed)).toEqual([loner.primary_container_id, pip.primary_container_id, stash]);
    expect(ids(listed)).not.toContain(brom.primary_container_id);
    expect(body(listed).meta).toEqual({ current_page: 1, per_page: 20, total_count: 3, total_pages: 1 });
    const direct = body(await call('GET', `/containers/${stash}`, player)).data;
    expect(body(listed).data[2]).toEqual(direct);
    expect(body(listed).data[2]).toMatchObject({ party_id: party.id, can_act: true });

    const page = await call('GET', '/containers?per_page=2&page=2', player);
    expect(ids(page)).toEqual([stash]);
  });

  it('narrows to a character or a party the caller may read, and hides the rest', async () => {
    const { gm, party, stash, player, pip, loner, brom } = await table();
    expect(ids(await call('GET', `/containers?character_id=${pip.id}`, player))).toEqual([
      pip.primary_container_id,
    ]);
    // A party: its own containers and its characters', which every member may look at.
    const asGm = await call('GET', `/containers?filters[party_id]=${party.id}`, gm);
    expect(ids(asGm).sort()).toEqual([brom.primary_container_id, pip.primary_container_id, stash].sort());
    const bromsBag = body(asGm).data.find((c) => c.id === brom.primary_container_id);
    expect(bromsBag).toMatchObject({ can_act: true });
    const asPlayer = body(await call('GET', `/containers?party_id=${party.id}`, player)).data;
    expect(asPlayer.find((c) => c.id === brom.primary_container_id)).toMatchObject({ can_act: false });

    const stranger = await createUser(ctx);
    expect((await call('GET', `/containers?character_id=${loner.id}`, stranger)).statusCode).toBe(404);
    expect((await call('GET', `/containers?character_id=${loner.id}`, gm)).statusCode).toBe(404);
    expect((await call('GET', `/containers?party_id=${party.id}`, stranger)).statusCode).toBe(404);
    expect(body(await call('GET', '/containers', stranger)).data).toEqual([]);
    const bad = await call('GET', '/containers?party_id=nope', stranger);
    expect(bad.statusCode).toBe(422);
    expect(body(bad).error.details?.map((d) => d.field)).toEqual(['party_id']);
    expect((await call('GET', '/containers')).statusCode).toBe(401);
  });
});

describe('POST /containers', () => {
  it('creates a container for a character or a party, by the rules of their own paths', async () => {
    const { party, player, pip } = await table();
    const made = await call('POST', '/containers', player, {
      container: { name: 'Belt Pouch', max_weight: 2, max_slots: 5, character_id: pip.id },
    });
    expect(made.statusCode).toBe(201);
    expect(body(made).data).toMatchObject({
      name: 'Belt Pouch',
      character_id: pip.id,
      party_id: null,
      max_slots: 5,
      owner: { type: 'character', id: pip.id, name: 'Pip' },
    });
    const chest = await call('POST', '/containers', player, {
      container: { name: 'Wagon chest', party_id: party.id },
    });
    expect(chest.statusCode).toBe(201);
    expect(body(chest).data).toMatchObject({ party_id: party.id, owner: { type: 'party' } });
    const created = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.destinationContainerId, String(body(made).data.id)));
    expect(created.map((row) => row.transactionType)).toEqual(['container_creation']);
    expect(ids(await call('GET', `/containers?character_id=${pip.id}`, player))).toContain(
      body(made).data.id,
    );
  });

  it('needs exactly one owner, and refuses owners the caller may not change', async () => {
    const { party, player, pip, brom } = await table();
    const count = async () => (await ctx.database.db.select({ id: containers.id }).from(containers)).length;
    const before = await count();
    for (const owner of [{}, { character_id: pip.id, party_id: party.id }]) {
      const response = await call('POST', '/containers', player, { container: { name: 'Sack', ...owner } });
      expect(response.statusCode).toBe(422);
      expect(body(response).error.details).toEqual([
        { field: 'container.character_id', message: inventoryMessages.containerOwnerRequired },
      ]);
    }
    const blank = await call('POST', '/containers', player, {
      container: { name: ' ', character_id: pip.id },
    });
    expect(body(blank).error.details).toEqual([
      { field: 'container.name', message: inventoryMessages.containerNameRequired },
    ]);
    expect(
      (await call('POST', '/containers', player, { container: { name: 'Sack', character_id: brom.id } }))
        .statusCode,
    ).toBe(403);
    const stranger = await createUser(ctx);
    expect(
      (await call('POST', '/containers', stranger, { container: { name: 'Sack', character_id: pip.id } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', '/containers', stranger, { container: { name: 'Sack', party_id: party.id } }))
        .statusCode,
    ).toBe(404);
    const observer = await createMember(ctx, party, 'observer');
    expect(
      (await call('POST', '/containers', observer, { container: { name: 'Sack', party_id: party.id } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', '/containers', undefined, { container: { name: 'Sack', party_id: party.id } }))
        .statusCode,
    ).toBe(401);
    expect(await count()).toBe(before);
  });
});

describe('GET /item_instances (the container filters of spec/02 §7)', () => {
  it('lists stacks across the containers of a scope with the item filters', async () => {
    const { gm, party, stash, player, pip, loner, brom, other } = await table();
    const rope = await createTemplate(ctx, { name: 'Hempen rope', baseValue: 1, stackSize: 0 });
    const wand = await createTemplate(ctx, {
      name: 'Wand of sparks',
      baseValue: 300,
      metadata: { rarity: 'rare' },
    });
    await add(player, String(pip.primary_container_id), rope.id, 2);
    await add(player, String(loner.primary_container_id), wand.id, 1);
    await add(gm, stash, rope.id, 5);
    await add(other, String(brom.primary_container_id), rope.id, 7);

    const mine = await call('GET', '/item_instances', player);
    expect(mine.statusCode).toBe(200);
    const quantities = (response: { json(): unknown }) =>
      body(response)
        .data.map((i) => `${i.name}@${i.container_id}:${i.quantity}`)
        .sort();
    // Mine: my characters' containers and my party's stash, never Brom's bag.
    expect(quantities(mine)).toEqual(
      [
        `Hempen rope@${pip.primary_container_id}:2`,
        `Hempen rope@${stash}:5`,
        `Wand of sparks@${loner.primary_container_id}:1`,
      ].sort(),
    );
    expect(body(mine).meta).toMatchObject({ total_count: 3, current_page: 1 });
    expect(ids(await call('GET', '/item_instances?rarity=rare', player))).toHaveLength(1);
    expect(ids(await call('GET', '/item_instances?min_value=100', player))).toHaveLength(1);
    expect(ids(await call('GET', '/item_instances?filters[search]=rope&max_value=2', player))).toHaveLength(
      2,
    );
    expect(quantities(await call('GET', `/item_instances?container_id=${stash}`, player))).toEqual([
      `Hempen rope@${stash}:5`,
    ]);
    expect(ids(await call('GET', `/item_instances?character_id=${loner.id}`, player))).toHaveLength(1);
    // A party: its stash and every character's bag in it, for any member.
    expect(quantities(await call('GET', `/item_instances?party_id=${party.id}`, player))).toEqual(
      [
        `Hempen rope@${brom.primary_container_id}:7`,
        `Hempen rope@${pip.primary_container_id}:2`,
        `Hempen rope@${stash}:5`,
      ].sort(),
    );
    const paged = await call('GET', `/item_instances?party_id=${party.id}&per_page=2&page=2`, player);
    expect(body(paged).meta).toEqual({ current_page: 2, per_page: 2, total_count: 3, total_pages: 2 });

    const stranger = await createUser(ctx);
    expect((await call('GET', `/item_instances?container_id=${stash}`, stranger)).statusCode).toBe(404);
    expect((await call('GET', `/item_instances?character_id=${loner.id}`, gm)).statusCode).toBe(404);
    expect((await call('GET', `/item_instances?party_id=${party.id}`, stranger)).statusCode).toBe(404);
    const bad = await call('GET', '/item_instances?min_value=lots', player);
    expect(bad.statusCode).toBe(422);
    expect(body(bad).error.details?.map((d) => d.field)).toEqual(['min_value']);
  });
});

describe('POST /transactions: the GM’s manual ledger entries', () => {
  const partyLedger = async (user: SignedInUser, partyId: string) =>
    body(await call('GET', `/transactions/party/${partyId}?per_page=100`, user)).data as unknown as {
      transactions: Record<string, unknown>[];
    };

  it('writes a note that changes nothing into the party’s ledger', async () => {
    const { gm, party, player } = await table();
    const response = await call('POST', '/transactions', gm, {
      transaction: { kind: 'note', party_id: party.id, notes: 'The party rested at the Prancing Pony' },
    });
    expect(response.statusCode).toBe(201);
    expect(body(response).message).toBe(manualEntryMessages.recorded);
    const [entry] = (body(response).data as unknown as { transactions: Record<string, unknown>[] })
      .transactions;
    expect(entry).toMatchObject({
      transaction_type: 'adjust',
      notes: 'The party rested at the Prancing Pony',
      quantity: null,
      transactable_data: { id: null, name: null },
      actor_data: { id: gm.user.id },
      party_id: party.id,
    });
    expect((await partyLedger(player, party.id)).transactions.map((t) => t.id)).toContain(entry?.id);
  });

  it('spends coins from a container with change back in the largest coins, as adjust rows', async () => {
    const { gm, party, stash } = await table();
    const [pp, sp] = await Promise.all([coinTemplate(ctx, 'pp'), coinTemplate(ctx, 'sp')]);
    await add(gm, stash, pp.id, 2);
    await add(gm, stash, sp.id, 5);
    const usage = async () =>
      (await ctx.app.services.entitlements.usage(ctx.database.db, gm.user.id)).inventory_actions_party_monthly
        .used;
    const used = await usage();
    // "The party spent 15 gp on an inn": 2 pp go, 5 gp come back.
    const response = await call('POST', '/transactions', gm, {
      transaction: {
        kind: 'spend',
        party_id: party.id,
        container_id: stash,
        amount: 15,
        notes: 'Room at the inn',
      },
    });
    expect(response.statusCode).toBe(201);
    const rows = (body(response).data as unknown as { transactions: Record<string, unknown>[] }).transactions;
    expect(
      rows.map((r) => [r.transaction_type, (r.transactable_data as { name: string }).name, r.quantity]),
    ).toEqual([
      ['adjust', 'Platinum piece', 2],
      ['adjust', 'Gold piece', 5],
    ]);
    expect(rows[0]).toMatchObject({
      source_location_data: { id: stash },
      destination_location_data: { id: null },
    });
    expect(rows[1]).toMatchObject({
      source_location_data: { id: null },
      destination_location_data: { id: stash },
    });
    // Each row names its coin and what it did: the history must not read "spent 15 gp ×2, ×5".
    expect(rows.map((r) => r.transaction_summary)).toEqual([
      `${gm.user.username} paid 2 × Platinum piece from Party Stash (${party.name}) to spend 15 gp: Room at the inn`,
      `${gm.user.username} got 5 × Gold piece back in change into Party Stash (${party.name}), spending 15 gp: Room at the inn`,
    ]);
    expect(await contents(gm, stash)).toEqual({ 'Gold piece': 5, 'Silver piece': 5 });
    // One entry, one inventory action.
    expect(await usage()).toBe(used + 1);
    // Paid in the coin named, with nothing back, the entry reads as one sentence.
    const exact = await call('POST', '/transactions', gm, {
      transaction: {
        kind: 'spend',
        party_id: party.id,
        container_id: stash,
        amount: 3,
        currency: 'sp',
        notes: 'Ale',
      },
    });
    expect(exact.statusCode).toBe(201);
    expect(
      (body(exact).data as unknown as { transactions: Record<string, unknown>[] }).transactions.map(
        (r) => r.transaction_summary,
      ),
    ).toEqual([`${gm.user.username} spent 3 sp from Party Stash (${party.name}): Ale`]);
  });

  it('receives coins into a character’s container', async () => {
    const { gm, party, player, pip } = await table();
    const response = await call('POST', '/transactions', gm, {
      transaction: {
        kind: 'receive',
        party_id: party.id,
        container_id: pip.primary_container_id,
        amount: '12',
        currency: 'sp',
        notes: 'Reward from the mayor',
      },
    });
    expect(response.statusCode).toBe(201);
    expect(await contents(player, String(pip.primary_container_id))).toEqual({ 'Silver piece': 12 });
    const rows = (body(response).data as unknown as { transactions: Record<string, unknown>[] }).transactions;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transaction_type: 'adjust', quantity: 12, character_id: pip.id });
  });

  it('receives coins into the other stacks in turn when the first is full', async () => {
    const { gm, party, stash } = await table();
    const silver = await coinTemplate(ctx, 'sp');
    await add(gm, stash, silver.id, 10_000_000);
    const [full] = body(await call('GET', `/containers/${stash}/items?per_page=100`, gm)).data;
    const split = await call('POST', `/item_instances/${full?.id}/split`, gm, { quantity: 4_000_000 });
    expect(split.statusCode, split.body).toBe(200);
    // 6,000,000 + 4,000,000 sp: 5,000,000 more fill the first and go on into the second.
    const response = await call('POST', '/transactions', gm, {
      transaction: {
        kind: 'receive',
        party_id: party.id,
        container_id: stash,
        amount: '5000000',
        currency: 'sp',
        notes: 'Dragon hoard',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const list = body(await call('GET', `/containers/${stash}/items?per_page=100`, gm)).data;
    expect(list.map((i) => Number(i.quantity)).sort((a, b) => a - b)).toEqual([5_000_000, 10_000_000]);
    const rows = (body(response).data as unknown as { transactions: Record<string, unknown>[] }).transactions;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transaction_type: 'adjust', quantity: 5_000_000 });
  });

  it('refuses whatever is not the GM’s, not the party’s or not affordable, and writes nothing', async () => {
    const { gm, party, stash, player, loner } = await table();
    // The GM's own character in no party: a container the GM may see and change, but not the party's.
    const elsewhere = await createCharacter(ctx, gm, { name: 'Elsewhere' });
    const ledgerSize = async () =>
      (await ctx.database.db.select({ id: transactions.id }).from(transactions)).length;
    const before = await ledgerSize();
    const post = (user: SignedInUser | undefined, transaction: Record<string, unknown>) =>
      call('POST', '/transactions', user, { transaction });
    const spend = { kind: 'spend', party_id: party.id, container_id: stash, amount: 1, notes: 'Ale' };

    const poor = await post(gm, { ...spend, amount: 3 });
    expect(poor.statusCode).toBe(422);
    expect(body(poor).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: shopMessages.insufficientFunds(300),
    });
    const asPlayer = await post(player, { kind: 'note', party_id: party.id, notes: 'We found a map' });
    expect(asPlayer.statusCode).toBe(403);
    expect(body(asPlayer).error.message).toBe(manualEntryMessages.gmOnly);
    const stranger = await createUser(ctx);
    expect((await post(stranger, { kind: 'note', party_id: party.id, notes: 'x' })).statusCode).toBe(404);
    expect((await post(undefined, { kind: 'note', party_id: party.id, notes: 'x' })).statusCode).toBe(401);
    const outside = await post(gm, { ...spend, container_id: loner.primary_container_id });
    expect(outside.statusCode).toBe(422);
    expect(body(outside).error.details).toEqual([
      { field: 'transaction.container_id', message: manualEntryMessages.containerOutsideParty },
    ]);
    const ownOutside = await post(gm, {
      kind: 'receive',
      party_id: party.id,
      container_id: elsewhere.primary_container_id,
      amount: 5,
      currency: 'gp',
      notes: 'Pocketed',
    });
    expect(ownOutside.statusCode).toBe(422);
    expect(body(ownOutside).error.details).toEqual([
      { field: 'transaction.container_id', message: manualEntryMessages.containerOutsideParty },
    ]);
    expect(await contents(gm, String(elsewhere.primary_container_id))).toEqual({});
    for (const [transaction, fields] of [
      [{ party_id: party.id, notes: 'x' }, ['transaction.kind']],
      [{ ...spend, notes: '  ' }, ['transaction.notes']],
      [{ ...spend, amount: 0, currency: 'gold' }, ['transaction.amount', 'transaction.currency']],
      [{ ...spend, container_id: undefined }, ['transaction.container_id']],
    ] as const) {
      const response = await post(gm, transaction);
      expect(response.statusCode, JSON.stringify(transaction)).toBe(422);
      expect(body(response).error.code).toBe('VALIDATION_ERROR');
      expect(
        body(response)
          .error.details?.map((d) => d.field)
          .sort(),
      ).toEqual([...fields].sort());
    }
    await call('POST', `/parties/${party.id}/archive`, gm);
    expect((await post(gm, { kind: 'note', party_id: party.id, notes: 'x' })).statusCode).toBe(403);
    expect(await ledgerSize()).toBe(before);
  });
});

describe('a failed transfer (spec/02 §8 "failures return success false with an errors list")', () => {
  it('answers success false with the reasons beside the error envelope, on every transfer route', async () => {
    const { gm, stash, player, pip, loner } = await table();
    const anvil = await createTemplate(ctx, { name: 'Anvil', weight: 30 });
    const mule = await createCharacter(ctx, player, { name: 'Mule', maxWeight: 10 });
    await add(player, String(pip.primary_container_id), anvil.id, 1);
    const [stack] = ids(await call('GET', `/containers/${pip.primary_container_id}/items`, player));
    const same = await call('POST', '/containers/transfer', player, {
      item_instance_id: stack,
      source_container_id: pip.primary_container_id,
      target_container_id: pip.primary_container_id,
    });
    expect(same.statusCode).toBe(422);
    expect(body(same)).toMatchObject({
      status: 'error',
      success: false,
      errors: [inventoryMessages.sameContainer],
      error: { code: 'VALIDATION_ERROR', message: inventoryMessages.sameContainer },
    });
    const heavy = await call('POST', `/characters/${pip.id}/transfer_item`, player, {
      item_instance_id: stack,
      from_container_id: pip.primary_container_id,
      to_container_id: mule.primary_container_id,
    });
    expect(heavy.statusCode).toBe(422);
    expect(body(heavy)).toMatchObject({
      success: false,
      errors: [inventoryMessages.weightExceeded],
      error: { code: 'CAPACITY_EXCEEDED' },
    });
    const malformed = await call('POST', '/containers/transfer', player, { item_instance_id: stack });
    expect(malformed.statusCode).toBe(422);
    expect(body(malformed).success).toBe(false);
    expect(body(malformed).errors).toEqual(expect.arrayContaining(['Please select a destination']));
    // Loner is in no party of the GM's: unknown to them, and said so in the same shape.
    const gone = await call('POST', `/item_instances/${stack}/give`, gm, { character_id: loner.id });
    expect(body(gone)).toMatchObject({ success: false, errors: ['Character not found.'] });
    const outside = await call('POST', `/item_instances/${stack}/give`, player, { character_id: loner.id });
    expect(body(outside)).toMatchObject({ success: false, errors: [inventoryMessages.giveOutsideParty] });
    expect((await call('POST', '/containers/transfer', undefined, {})).json()).toMatchObject({
      success: false,
      error: { code: 'UNAUTHORIZED' },
    });
    // Other calls keep the plain envelope.
    const other = await call('POST', '/item_instances', player, { container_id: stash });
    expect(other.statusCode).toBe(422);
    expect(body(other)).not.toHaveProperty('success');
  });
});

describe('the ledger’s names for containers', () => {
  it('say whose each container is, as moves do: every character has a Backpack', async () => {
    const { party, player, pip, brom, other } = await table();
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const pipBag = String(pip.primary_container_id);
    await add(player, pipBag, rope.id, 10);
    await add(other, String(brom.primary_container_id), rope.id, 1);
    const [stack] = body(await call('GET', `/containers/${pipBag}/items`, player)).data;
    const stackId = String(stack?.id);
    expect(
      (await call('PATCH', `/item_instances/${stackId}`, player, { item_instance: { quantity: 12 } }))
        .statusCode,
    ).toBe(200);
    const split = await call('POST', `/item_instances/${stackId}/split`, player, { quantity: 2 });
    expect(split.statusCode).toBe(200);
    const rows = await ctx.database.db.select().from(transactions).where(eq(transactions.partyId, party.id));
    const named = (type: string) => rows.filter((r) => r.transactionType === type);
    const pipsBag = 'Backpack (Pip)';
    expect(
      named('item_creation')
        .map((r) => [r.destinationName, r.summary])
        .sort(),
    ).toEqual(
      [
        [pipsBag, `${player.user.username} added 10 × Rope to ${pipsBag}`],
        ['Backpack (Brom)', `${other.user.username} added 1 × Rope to Backpack (Brom)`],
      ].sort(),
    );
    expect(named('adjust').map((r) => r.summary)).toEqual([
      `${player.user.username} added 2 × Rope in ${pipsBag} (adjusted to 12)`,
    ]);
    expect(named('split').map((r) => [r.sourceName, r.destinationName, r.summary])).toEqual([
      [pipsBag, pipsBag, `${player.user.username} split 2 × Rope off a stack of 12 in ${pipsBag}`],
    ]);
  });
});

describe('the ledger’s quantities', () => {
  it('group their thousands, as the web writes every quantity (decision "Thousands")', async () => {
    // Review (coins, 8): "moved 10000000 × Platinum piece", "split 4000000 ×" in the history.
    const { party, stash, player, pip } = await table();
    const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 0, weight: 0 });
    const pipBag = String(pip.primary_container_id);
    const pipsBag = 'Backpack (Pip)';
    await add(player, pipBag, arrow.id, 10_000_000);
    const [stack] = body(await call('GET', `/containers/${pipBag}/items`, player)).data;
    const stackId = String(stack?.id);
    const adjusted = await call('PATCH', `/item_instances/${stackId}`, player, {
      item_instance: { quantity: 9_000_000 },
    });
    expect(adjusted.statusCode).toBe(200);
    expect(
      (await call('POST', `/item_instances/${stackId}/split`, player, { quantity: 4_000_000 })).statusCode,
    ).toBe(200);
    const moved = await call('POST', '/containers/transfer', player, {
      item_instance_id: stackId,
      source_container_id: pipBag,
      target_container_id: stash,
      quantity: 1_234_567,
    });
    expect(moved.statusCode).toBe(200);
    const rows = await ctx.database.db.select().from(transactions).where(eq(transactions.partyId, party.id));
    const summaries = (type: string) => rows.filter((r) => r.transactionType === type).map((r) => r.summary);
    const name = player.user.username;
    expect(summaries('item_creation')).toEqual([`${name} added 10,000,000 × Arrow to ${pipsBag}`]);
    expect(summaries('adjust')).toEqual([
      `${name} removed 1,000,000 × Arrow in ${pipsBag} (adjusted to 9,000,000)`,
    ]);
    expect(summaries('split')).toEqual([
      `${name} split 4,000,000 × Arrow off a stack of 9,000,000 in ${pipsBag}`,
    ]);
    expect(summaries('party_deposit')).toEqual([
      `${name} moved 1,234,567 × Arrow from ${pipsBag} to Party Stash (${party.name})`,
    ]);
  });
});
