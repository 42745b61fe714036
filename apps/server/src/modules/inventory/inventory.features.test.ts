import { limitExceededMessage } from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
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

interface Body {
  data: Record<string, unknown> & Record<string, unknown>[];
  error: { code: string; message: string; details?: { field: string; message: string; feature?: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

/** A party with a stash holding one rope, and a Free player with a character in it. */
async function partyWithStash() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm);
  const stashId = String(
    body(await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Stash' } })).data.id,
  );
  const rope = await createTemplate(ctx, { name: 'Rope' });
  const [inStash] = body(
    await call('POST', '/item_instances', gm, { item_template_id: rope.id, container_id: stashId }),
  ).data;
  const player = await createMember(ctx, party, 'player');
  const character = await createCharacter(ctx, player, { partyId: party.id });
  return {
    gm,
    party,
    stashId,
    rope,
    stashRopeId: String(inStash?.id),
    player,
    backpack: String(character.primary_container_id),
    characterId: character.id,
  };
}

function expectFeatureRefused(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(403);
  const { error } = body(response);
  expect(error.code).toBe('FEATURE_NOT_AVAILABLE');
  expect(error.message).toBe('Party collaboration is not included in your Free plan. Upgrade to use it.');
  expect(error.details).toEqual([
    { field: 'party_collaboration', message: error.message, feature: 'party_collaboration' },
  ]);
}

describe('party_collaboration (spec/01 §3: not in Free)', () => {
  it('lets a Free member look at the stash and use their own character, but not act on the stash', async () => {
    const { party, stashId, rope, stashRopeId, player, backpack } = await partyWithStash();

    expect((await call('GET', `/containers/${stashId}/items`, player)).statusCode).toBe(200);
    expect((await call('GET', `/parties/${party.id}/containers`, player)).statusCode).toBe(200);
    const [inBackpack] = body(
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: backpack }),
    ).data;
    expect(inBackpack?.id).toBeDefined();

    expectFeatureRefused(
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: stashId }),
    );
    expectFeatureRefused(
      await call('POST', '/containers/transfer', player, {
        item_instance_id: inBackpack?.id,
        source_container_id: backpack,
        target_container_id: stashId,
      }),
    );
    expectFeatureRefused(
      await call('POST', '/containers/transfer', player, {
        item_instance_id: stashRopeId,
        source_container_id: stashId,
        target_container_id: backpack,
      }),
    );
    expectFeatureRefused(await call('DELETE', `/item_instances/${stashRopeId}`, player));
    expectFeatureRefused(
      await call('POST', `/parties/${party.id}/containers`, player, { container: { name: 'Mine' } }),
    );
    // Changing the stash is acting on it too: a Free manager could lift its capacity (0 is no limit). A
    // player may not change it on any plan (inventory.party-container-deletion.test).
    const manager = await createMember(ctx, party, 'manager');
    await createCharacter(ctx, manager, { partyId: party.id });
    expectFeatureRefused(
      await call('PATCH', `/parties/${party.id}/containers/${stashId}`, manager, {
        container: { name: 'Renamed by Free', max_weight: 0, max_slots: 0 },
      }),
    );

    // Nothing moved or changed: the stash still holds exactly the GM's rope, under its own name.
    const stash = body(await call('GET', `/containers/${stashId}/items`, player)).data;
    expect(stash.map((item) => item.id)).toEqual([stashRopeId]);
    expect(body(await call('GET', `/containers/${stashId}`, player)).data.name).toBe('Stash');
  });

  it('opens the stash to a paid plan of their own', async () => {
    const { stashId, rope, player } = await partyWithStash();
    await upgrade(ctx, player, 'tier_1');
    const added = await call('POST', '/item_instances', player, {
      item_template_id: rope.id,
      container_id: stashId,
    });
    expect(added.statusCode).toBe(201);
  });

  it('opens the stash through a patronage in that party, for as long as it lasts', async () => {
    const { gm, party, stashId, rope, player } = await partyWithStash();
    const granted = await call('POST', '/patronages', gm, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(granted.statusCode).toBe(201);
    expect(
      (await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: stashId }))
        .statusCode,
    ).toBe(201);

    // Ending the patronage closes the stash again.
    const ended = await call('DELETE', `/patronages/${body(granted).data.id}`, gm);
    expect(ended.statusCode).toBeLessThan(300);
    expectFeatureRefused(
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: stashId }),
    );
  });

  // A transfer reads the user's subscription with its lock (inventory.service #lockAndLocate): the same
  // decisions as the entitlements' own read, patronage included.
  it('moves into the stash through a patronage, and not once it ended', async () => {
    const { gm, party, stashId, rope, player, backpack } = await partyWithStash();
    const [mine] = body(
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: backpack }),
    ).data;
    const deposit = () =>
      call('POST', '/containers/transfer', player, {
        item_instance_id: mine?.id,
        source_container_id: backpack,
        target_container_id: stashId,
      });
    const granted = await call('POST', '/patronages', gm, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(granted.statusCode).toBe(201);
    await call('DELETE', `/patronages/${body(granted).data.id}`, gm);
    expectFeatureRefused(await deposit());
    const again = await call('POST', '/patronages', gm, {
      beneficiary_id: player.user.id,
      party_id: party.id,
    });
    expect(again.statusCode).toBe(201);
    expect((await deposit()).statusCode).toBe(200);
  });

  it('refuses a transfer past the monthly allowance of the plan, moving nothing', async () => {
    const { party, rope, player, backpack, characterId } = await partyWithStash();
    const pouch = String(
      body(
        await call('POST', `/characters/${characterId}/containers`, player, {
          container: { name: 'Pouch' },
        }),
      ).data.id,
    );
    const [mine] = body(
      await call('POST', '/item_instances', player, { item_template_id: rope.id, container_id: backpack }),
    ).data;
    // Free allows 100 personal actions a month: the month's count is the ledger's.
    const used = await ctx.database.db.$count(
      transactions,
      and(eq(transactions.actorId, player.user.id), eq(transactions.scope, 'personal')),
    );
    await ctx.database.db.insert(transactions).values(
      Array.from({ length: 100 - used }, () => ({
        transactionType: 'adjust',
        partyId: party.id,
        actorId: player.user.id,
        scope: 'personal' as const,
        summary: 'filler',
      })),
    );
    const refused = await call('POST', '/containers/transfer', player, {
      item_instance_id: mine?.id,
      source_container_id: backpack,
      target_container_id: pouch,
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: limitExceededMessage('Free', 'inventory_actions_personal_monthly', 100),
    });
    const left = body(await call('GET', `/containers/${backpack}/items`, player)).data;
    expect(left.map((item) => item.id)).toContain(mine?.id);
    expect(body(await call('GET', `/containers/${pouch}/items`, player)).data).toEqual([]);

    // Destroying gains nothing: it is still allowed, in the ledger, and spends nothing of the allowance.
    expect((await call('DELETE', `/item_instances/${mine?.id}`, player)).statusCode).toBe(204);
    const [destroyed] = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.itemInstanceId, String(mine?.id)),
          eq(transactions.transactionType, 'item_destruction'),
        ),
      );
    expect(destroyed).toMatchObject({ actorId: player.user.id, quantity: 1, scope: null });
    const usage = (await ctx.app.services.entitlements.usage(ctx.database.db, player.user.id))
      .inventory_actions_personal_monthly;
    expect(usage).toEqual({ used: 100, limit: 100 });
  });

  it('still refuses a Free member destroying what the stash holds', async () => {
    const { player, stashRopeId } = await partyWithStash();
    expectFeatureRefused(await call('DELETE', `/item_instances/${stashRopeId}`, player));
  });
});
