import type { LedgerTransaction } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coinTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);

interface Operation {
  id: string;
  summary: string;
  size: number;
  kind?: string;
}
interface Listing {
  transactions: LedgerTransaction[];
  operations?: Operation[];
}

async function ledger(
  viewer: SignedInUser,
  scope: 'party' | 'character',
  id: string,
  query = 'per_page=100',
) {
  const response = await call('GET', `/transactions/${scope}/${id}?${query}`, viewer);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: Listing }).data;
}

/** A GM's party, a player in it, and the player's character outside it with 1000 gp in its backpack. */
async function newcomer(name = 'Pip') {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm);
  const player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_1');
  const made = await call('POST', '/characters', player, { character: { name } });
  expect(made.statusCode).toBe(201);
  const character = (made.json() as { data: { id: string; primary_container_id: string } }).data;
  const gold = await coinTemplate(ctx, 'gp');
  const added = await call('POST', '/item_instances', player, {
    item_template_id: gold.id,
    container_id: character.primary_container_id,
    quantity: 1000,
  });
  expect(added.statusCode, added.body).toBe(201);
  return { gm, party, player, character, backpack: character.primary_container_id };
}

const move = (player: SignedInUser, characterId: string, partyId: string | null) =>
  call('PATCH', `/characters/${characterId}`, player, { character: { party_id: partyId } });

const usageOf = async (user: SignedInUser) => {
  const usage = await ctx.app.services.entitlements.usage(ctx.database.db, user.user.id);
  return [usage.inventory_actions_personal_monthly.used, usage.inventory_actions_party_monthly.used];
};

describe('a character joining a party brings what it carries into the party’s ledger', () => {
  it('writes one row per stack, in the party, that leaves a replay of the ledger as it was', async () => {
    const { gm, party, player, character, backpack } = await newcomer();
    const usedBefore = await usageOf(player);

    expect((await move(player, character.id, party.id)).statusCode).toBe(200);

    const rows = (await ledger(gm, 'party', party.id)).transactions.filter(
      (row) => row.character_id === character.id,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        transaction_type: 'adjust',
        transaction_summary: 'Pip joined the party carrying 1,000 × Gold piece',
        party_id: party.id,
        quantity: 1000,
        actor_data: { id: player.user.id, name: player.user.username },
        source_location_data: { id: backpack, name: 'Backpack (Pip)' },
        destination_location_data: { id: backpack, name: 'Backpack (Pip)' },
        undoable: false,
      }),
    ]);
    // One action of the kind "joined the party", for every member of the party.
    const grouped = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(grouped.operations?.[0]).toMatchObject({
      summary: 'Pip joined the party carrying 1,000 × Gold piece',
      kind: 'joined_party',
      size: 1,
    });
    const other = await createMember(ctx, party, 'player');
    expect((await ledger(other, 'party', party.id)).transactions.map((r) => r.id)).toContain(rows[0]?.id);
    // And in the character's own ledger, for its player.
    expect((await ledger(player, 'character', character.id)).transactions.map((r) => r.id)).toContain(
      rows[0]?.id,
    );

    // A record, not a move: the allowance is untouched and the ledger still replays to what is held.
    expect(await usageOf(player)).toEqual(usedBefore);
    expect(await replayLedger(ctx.database.db, [backpack])).toEqual(
      await actualContents(ctx.database.db, [backpack]),
    );
  });

  it('tells a whole arrival with several stacks as one action', async () => {
    const { gm, party, player, character } = await newcomer('Nyx');
    const rope = await createTemplate(ctx, { name: 'Rope', visibility: 'public' });
    const bag = await call('POST', '/containers', player, {
      container: { name: 'Pouch', character_id: character.id },
    });
    expect(bag.statusCode, bag.body).toBe(201);
    const pouch = (bag.json() as { data: { id: string } }).data.id;
    await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: pouch,
      quantity: 2,
    });

    expect((await move(player, character.id, party.id)).statusCode).toBe(200);

    const grouped = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(grouped.operations?.[0]).toMatchObject({
      summary: 'Nyx joined the party carrying 2 kinds of items (1,002 items)',
      kind: 'joined_party',
      // Rope does not stack: two stacks of one.
      size: 3,
    });
    expect(
      grouped.transactions
        .filter((row) => row.operation === grouped.operations?.[0]?.id)
        .map((row) => row.transaction_summary)
        .sort(),
    ).toEqual([
      'Nyx joined the party carrying 1 × Rope',
      'Nyx joined the party carrying 1 × Rope',
      'Nyx joined the party carrying 1,000 × Gold piece',
    ]);
  });

  it('says a character came in empty-handed in one row without an item', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const made = await call('POST', '/characters', player, { character: { name: 'Bare' } });
    const character = (made.json() as { data: { id: string } }).data;

    expect((await move(player, character.id, party.id)).statusCode).toBe(200);

    const grouped = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(grouped.operations?.[0]).toMatchObject({ summary: 'Bare joined the party', kind: 'joined_party' });
    const [row] = grouped.transactions;
    expect(row).toMatchObject({
      transaction_type: 'adjust',
      character_id: character.id,
      quantity: null,
      transactable_data: { id: null },
      source_location_data: { id: null },
    });
  });

  it('leaves and comes back: the party’s ledger says what went out and what came back in', async () => {
    const { gm, party, player, character, backpack } = await newcomer('Vex');

    expect((await move(player, character.id, party.id)).statusCode).toBe(200);
    expect((await move(player, character.id, null)).statusCode).toBe(200);
    const left = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(left.operations?.[0]).toMatchObject({
      summary: 'Vex left the party with 1,000 × Gold piece',
      kind: 'left_party',
    });
    expect(left.transactions[0]).toMatchObject({ party_id: party.id, character_id: character.id });

    // Changed in private, where the party does not see it.
    const [stack] = (
      (await call('GET', `/containers/${backpack}/items`, player)).json() as { data: { id: string }[] }
    ).data;
    expect(
      (await call('PATCH', `/item_instances/${stack?.id}`, player, { item_instance: { quantity: 400 } }))
        .statusCode,
    ).toBe(200);

    expect((await move(player, character.id, party.id)).statusCode).toBe(200);
    const back = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(back.operations?.[0]).toMatchObject({
      summary: 'Vex joined the party carrying 400 × Gold piece',
      kind: 'joined_party',
    });
    expect(await replayLedger(ctx.database.db, [backpack])).toEqual(
      await actualContents(ctx.database.db, [backpack]),
    );
  });

  it('writes nothing when a GM-only party refuses a character that carries items', async () => {
    const { gm, party, player, character } = await newcomer('Kit');
    expect(
      (await call('PATCH', `/parties/${party.id}`, gm, { party: { item_conjuring: 'gm_only' } })).statusCode,
    ).toBe(200);
    expect((await move(player, character.id, party.id)).statusCode).toBe(403);
    const rows = (await ledger(gm, 'party', party.id)).transactions;
    expect(rows.filter((row) => row.character_id === character.id)).toEqual([]);
  });
});

describe('characters leaving with their player', () => {
  it('a member who leaves takes their characters out, and the party’s ledger says with what', async () => {
    const { gm, party, player, character } = await newcomer('Tam');
    expect((await move(player, character.id, party.id)).statusCode).toBe(200);
    const usedBefore = await usageOf(player);

    expect((await call('DELETE', `/parties/${party.id}/leave`, player)).statusCode).toBe(204);

    const grouped = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(grouped.operations?.[0]).toMatchObject({
      summary: 'Tam left the party with 1,000 × Gold piece',
      kind: 'left_party',
    });
    expect(grouped.transactions[0]).toMatchObject({
      party_id: party.id,
      character_id: character.id,
      actor_data: { id: player.user.id },
    });
    expect(await usageOf(player)).toEqual(usedBefore);
    // Its player still reads it in the character's own ledger.
    expect(
      (await ledger(player, 'character', character.id)).transactions.map((r) => r.transaction_summary),
    ).toContain('Tam left the party with 1,000 × Gold piece');
  });

  it('a member the GM removes: the rows name the GM, and the GM’s allowance is untouched', async () => {
    const { gm, party, player, character } = await newcomer('Rue');
    expect((await move(player, character.id, party.id)).statusCode).toBe(200);
    const usedBefore = await usageOf(gm);

    expect((await call('DELETE', `/parties/${party.id}/members/${player.user.id}`, gm)).statusCode).toBe(204);

    const grouped = await ledger(gm, 'party', party.id, 'per_page=5&group=operation');
    expect(grouped.operations?.[0]).toMatchObject({
      summary: 'Rue left the party with 1,000 × Gold piece',
      kind: 'left_party',
    });
    expect(grouped.transactions[0]).toMatchObject({ actor_data: { id: gm.user.id } });
    expect(await usageOf(gm)).toEqual(usedBefore);
  });
});
