import { inventoryMessages, MAX_CONTAINERS_PER_OWNER } from '@haversack/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * An owner holds at most MAX_CONTAINERS_PER_OWNER containers (attack review, owner container lists): past
 * it a create is refused with 422, and creates sent at once cannot slip past it together.
 */
let ctx: TestContext;
let gm: SignedInUser;
let player: SignedInUser;
/** The party of `player` and the GM, its code kept for members joined later. */
let party: Awaited<ReturnType<typeof createParty>>;
let partyId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  partyId = party.id;
  player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
});
afterAll(async () => ctx?.close());

type Owner = { characterId: string } | { partyId: string };

const ownerColumn = (owner: Owner) =>
  'characterId' in owner
    ? eq(containers.characterId, owner.characterId)
    : eq(containers.partyId, owner.partyId);

async function containersOf(owner: Owner): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(containers).where(ownerColumn(owner));
  return Number(row?.n);
}

/**
 * Brings the owner to `total` containers. Written straight into the table: creating two hundred through
 * the API would only slow the test; the cap counts rows whoever wrote them.
 */
async function fillTo(owner: Owner, total: number) {
  const missing = total - (await containersOf(owner));
  if (missing <= 0) return;
  await ctx.database.db
    .insert(containers)
    .values(Array.from({ length: missing }, (_, i) => ({ name: `Crate ${i}`, ...owner })));
}

async function ledgerRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(transactions);
  return Number(row?.n);
}

function expectCapRefusal(response: { statusCode: number; body: string; json(): unknown }, kind: string) {
  const message =
    kind === 'character'
      ? 'A character can have at most 200 containers. Delete one first.'
      : 'A party can have at most 200 containers. Delete one first.';
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json()).toEqual({
    status: 'error',
    error: {
      code: 'VALIDATION_ERROR',
      status: 422,
      type: 'validation_error',
      message,
      details: [{ field: 'container', message }],
    },
  });
}

describe('the most containers an owner holds', () => {
  it('is 200, worded for a character and for a party', () => {
    expect(MAX_CONTAINERS_PER_OWNER).toBe(200);
    expect(inventoryMessages.containerLimit('character')).toBe(
      'A character can have at most 200 containers. Delete one first.',
    );
  });

  it('refuses a character’s next container at the cap, by either path, until one is deleted', async () => {
    const hero = await createCharacter(ctx, player, { partyId });
    const owner = { characterId: hero.id };
    await fillTo(owner, MAX_CONTAINERS_PER_OWNER - 1);
    const last = await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, player, {
      container: { name: 'The last one' },
    });
    expect(last.statusCode, last.body).toBe(201);
    const ledgerBefore = await ledgerRows();
    const refusals = [
      await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, player, {
        container: { name: 'One too many' },
      }),
      await callApi(ctx, 'POST', '/containers', player, {
        container: { name: 'One too many', character_id: hero.id },
      }),
      // The GM may act on a member's character: the cap is the character's, whoever asks.
      await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, gm, {
        container: { name: 'One too many' },
      }),
    ];
    for (const refused of refusals) expectCapRefusal(refused, 'character');
    expect(await containersOf(owner)).toBe(MAX_CONTAINERS_PER_OWNER);
    expect(await ledgerRows()).toBe(ledgerBefore);

    const deleted = await callApi(ctx, 'DELETE', `/containers/${last.json().data.id}`, player);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const again = await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, player, {
      container: { name: 'In its place' },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('refuses a party’s next container at the cap, by either path, the party’s own stash counted', async () => {
    const owner = { partyId };
    await fillTo(owner, MAX_CONTAINERS_PER_OWNER);
    const ledgerBefore = await ledgerRows();
    expectCapRefusal(
      await callApi(ctx, 'POST', `/parties/${partyId}/containers`, gm, { container: { name: 'Wagon' } }),
      'party',
    );
    expectCapRefusal(
      await callApi(ctx, 'POST', '/containers', gm, { container: { name: 'Wagon', party_id: partyId } }),
      'party',
    );
    expect(await containersOf(owner)).toBe(MAX_CONTAINERS_PER_OWNER);
    expect(await ledgerRows()).toBe(ledgerBefore);
    // The cap is no reason to hide the owner from those who may not act: a stranger still gets 404.
    const stranger = await createUser(ctx);
    await upgrade(ctx, stranger, 'tier_3');
    const hidden = await callApi(ctx, 'POST', `/parties/${partyId}/containers`, stranger, {
      container: { name: 'Wagon' },
    });
    expect(hidden.statusCode, hidden.body).toBe(404);
  });

  it('lets creates sent at once fill a character up to the cap and not one past it', async () => {
    // Its player on a plan with a monthly allowance (each of their creates also takes the allowance's
    // lock) and the GM on an unlimited one (theirs take only the owner's), asking at once.
    const adventurer = await createMember(ctx, party, 'player');
    await upgrade(ctx, adventurer, 'tier_1');
    const hero = await createCharacter(ctx, adventurer, { partyId });
    const owner = { characterId: hero.id };
    await fillTo(owner, MAX_CONTAINERS_PER_OWNER - 3);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? callApi(ctx, 'POST', `/characters/${hero.id}/containers`, i % 3 === 0 ? adventurer : gm, {
              container: { name: `Bag ${i}` },
            })
          : callApi(ctx, 'POST', '/containers', i % 3 === 0 ? adventurer : gm, {
              container: { name: `Bag ${i}`, character_id: hero.id },
            }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([
      201, 201, 201, 422, 422, 422, 422, 422, 422, 422, 422, 422,
    ]);
    for (const refused of responses.filter((r) => r.statusCode !== 201))
      expectCapRefusal(refused, 'character');
    expect(await containersOf(owner)).toBe(MAX_CONTAINERS_PER_OWNER);
  });

  it('lets creates sent at once by several members fill a party up to the cap and not one past it', async () => {
    const other = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const member = await createMember(ctx, other, 'player');
    await upgrade(ctx, member, 'tier_1');
    // Only a member with a character in the party acts on its containers.
    await createCharacter(ctx, member, { partyId: other.id });
    const owner = { partyId: other.id };
    await fillTo(owner, MAX_CONTAINERS_PER_OWNER - 4);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        callApi(ctx, 'POST', `/parties/${other.id}/containers`, i % 2 === 0 ? gm : member, {
          container: { name: `Chest ${i}` },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([
      201, 201, 201, 201, 422, 422, 422, 422, 422, 422, 422, 422,
    ]);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) expectCapRefusal(refused, 'party');
    expect(await containersOf(owner)).toBe(MAX_CONTAINERS_PER_OWNER);
  });
});
