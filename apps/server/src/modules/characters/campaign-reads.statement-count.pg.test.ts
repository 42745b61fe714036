import type { OwnerContainers, PartyWealth } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers } from '../../db/schema/inventory.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * The reads a long campaign found slow (docs/decisions.md, "A long campaign, measured"): the party's wealth
 * and the containers of many owners. Each is one aggregate over every stack; around it, the party and the
 * reader's place in it are read in one statement, and the containers with their sums in as few as their
 * answer allows, whatever the party's size.
 */
let ctx: TestContext;
let gm: SignedInUser;
let partyId: string;
const characterIds: string[] = [];

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'both' });
  partyId = party.id;
  const gold = await coinTemplate(ctx, 'gp');
  for (let i = 0; i < 3; i++) {
    const player = await createMember(ctx, party, 'player');
    for (let j = 0; j < 2; j++) {
      const character = await createCharacter(ctx, player, { partyId });
      characterIds.push(character.id);
      const [backpack] = await ctx.database.db
        .select({ id: containers.id })
        .from(containers)
        .where(eq(containers.characterId, character.id));
      await ctx.app.services.inventory.createInstance(
        { id: player.user.id, username: player.user.username },
        { item_template_id: gold.id, container_id: backpack?.id ?? '', quantity: 10 * (i + 1) },
      );
    }
  }
});
afterAll(async () => ctx.close());

describe('the statements of the campaign reads', () => {
  it('reads the party’s wealth in 3 statements: the party with my role, its characters, the sums', async () => {
    const { result, statements } = await statementsOfSecondRequest(() =>
      callApi(ctx, 'GET', `/parties/${partyId}/wealth`, gm),
    );
    const wealth = json<{ data: PartyWealth }>(result).data;
    expect(wealth.characters).toHaveLength(6);
    expect(wealth.totals.coins.gp).toBe(2 * (10 + 20 + 30));
    // The new party's stash, empty: still there.
    expect(wealth.stash).not.toBeNull();
    expect(statements).toBe(3);
  });

  it('lists the containers of many owners in 4 statements, as many for one owner and a stash', async () => {
    const counted = async (ids: string[]) => {
      const query = `character_ids=${ids.join(',')}&party_ids=${partyId}`;
      const { result, statements } = await statementsOfSecondRequest(() =>
        callApi(ctx, 'GET', `/containers/by_owner?${query}`, gm),
      );
      return { owners: json<{ data: OwnerContainers[] }>(result).data, statements };
    };
    const one = await counted(characterIds.slice(0, 1));
    const all = await counted(characterIds);
    expect(one.owners).toHaveLength(2);
    expect(all.owners).toHaveLength(7);
    expect(all.owners.flatMap((o) => o.containers)).toHaveLength(7);
    expect(all.statements).toBe(one.statements);
    expect(all.statements).toBe(4);
  });
});
