import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coinTemplate,
  createCharacter,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { statementsOfSecondRequest } from '../../test/statement-counter.js';

/**
 * An owner's list of containers (GET characters/{id}/containers, GET parties/{id}/containers) sends the
 * same statements whatever the number of its containers: it once sent a few per container, and a party of
 * 1,000 containers held the in-process database for seconds (attack review, owner container lists).
 */
let ctx: TestContext;
let gm: SignedInUser;
let gold: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  gold = (await coinTemplate(ctx, 'gp')).id;
});
afterAll(async () => ctx?.close());

/** Adds `count` containers to the owner at `url`, each holding a few coins so that every one has a load. */
async function fill(url: string, count: number) {
  for (let i = 0; i < count; i++) {
    const made = await callApi(ctx, 'POST', url, gm, { container: { name: `Box ${i}` } });
    expect(made.statusCode, made.body).toBe(201);
    const added = await callApi(ctx, 'POST', '/item_instances', gm, {
      item_template_id: gold,
      container_id: made.json().data.id,
      quantity: i + 1,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
}

/** The statements of one list of the owner at `url`, and how many containers it answered. */
async function statementsOfList(url: string) {
  const { result, statements } = await statementsOfSecondRequest(() => callApi(ctx, 'GET', url, gm));
  return { statements, listed: (result.json().data as unknown[]).length };
}

describe('the statements of an owner’s list of containers', () => {
  for (const owner of ['party', 'character'] as const) {
    it(`sends as many statements for 25 containers of a ${owner} as for 2`, async () => {
      const make = async () =>
        owner === 'party'
          ? `/parties/${(await createParty(ctx, gm, { encumbrance_style: 'none' })).id}/containers`
          : `/characters/${(await createCharacter(ctx, gm, { maxWeight: null, maxSlots: null })).id}/containers`;
      const few = await make();
      const many = await make();
      await fill(few, 1);
      await fill(many, 24);
      const small = await statementsOfList(few);
      const large = await statementsOfList(many);
      // The party's own stash or the character's main container, and those added.
      expect([small.listed, large.listed]).toEqual([2, 25]);
      expect(large.statements).toBe(small.statements);
      expect(large.statements).toBeLessThanOrEqual(8);
    });
  }
});

describe('the statements of GET /containers/by_owner', () => {
  it('sends as many statements for 20 owners as for 2', async () => {
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const characters: { id: string }[] = [];
    for (let i = 0; i < 19; i++) characters.push(await createCharacter(ctx, gm, { partyId: party.id }));
    const url = (ids: string[]) =>
      `/containers/by_owner?character_ids=${ids.join(',')}&party_ids=${party.id}`;
    const few = await statementsOfSecondRequest(() =>
      callApi(ctx, 'GET', url(characters.slice(0, 1).map((c) => c.id)), gm),
    );
    const many = await statementsOfSecondRequest(() =>
      callApi(ctx, 'GET', url(characters.map((c) => c.id)), gm),
    );
    expect([few.result.json().data.length, many.result.json().data.length]).toEqual([2, 20]);
    expect(many.statements).toBe(few.statements);
    expect(many.statements).toBeLessThanOrEqual(10);
  });
});
