import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * DESIGN §4 Who may act on a party's own containers: the GM, or a member who is no observer and has a
 * character in the party. Creating one, reading one's `can_act` (alone and in the lists) and moving an item
 * into one decide it on different paths; a mutant once made the create succeed where the read said
 * `can_act: false`. Each role's answers must agree, and say what DESIGN §4 says.
 */
let ctx: TestContext;
let gm: SignedInUser;
let party: Awaited<ReturnType<typeof createParty>>;
let stashId: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!stash) throw new Error('a new party has a stash');
  stashId = stash.id;
});
afterAll(async () => ctx?.close());

type Role = 'gm' | 'manager' | 'player' | 'observer';

/** Who asks: the party's GM, a member of a role, or no member; with a character in the party or not. */
async function someone(role: Role | 'outsider', inParty: boolean): Promise<SignedInUser> {
  let user: SignedInUser;
  if (role === 'gm') user = gm;
  else if (role === 'outsider') user = await createUser(ctx);
  else user = await createMember(ctx, party, role);
  if (role !== 'gm') await upgrade(ctx, user, 'tier_3');
  if (inParty) await createCharacter(ctx, user, { partyId: party.id });
  return user;
}

/** A stack in a container of the user's own (a character in no party): what they try to move in. */
async function ownStack(user: SignedInUser) {
  const loner = await createCharacter(ctx, user);
  if (!loner.primary_container_id) throw new Error('a character has a main container');
  const rope = await createTemplate(ctx, { name: 'Rope' });
  const [stack] = await ctx.app.services.inventory.createInstance(
    { id: user.user.id, username: user.user.username },
    { item_template_id: rope.id, container_id: loner.primary_container_id, quantity: 1 },
  );
  if (!stack) throw new Error('no stack made');
  return { containerId: loner.primary_container_id, stackId: stack.id };
}

const cases: { role: Role | 'outsider'; inParty: boolean; mayAct: boolean; member: boolean }[] = [
  { role: 'gm', inParty: false, mayAct: true, member: true },
  { role: 'manager', inParty: true, mayAct: true, member: true },
  { role: 'manager', inParty: false, mayAct: false, member: true },
  { role: 'player', inParty: true, mayAct: true, member: true },
  { role: 'player', inParty: false, mayAct: false, member: true },
  { role: 'observer', inParty: true, mayAct: false, member: true },
  { role: 'observer', inParty: false, mayAct: false, member: true },
  { role: 'outsider', inParty: false, mayAct: false, member: false },
  // Last: the GM's character in the party changes nothing for them.
  { role: 'gm', inParty: true, mayAct: true, member: true },
];

describe('who may act on a party’s containers, asked on every path', () => {
  for (const { role, inParty, mayAct, member } of cases) {
    it(`${role} ${inParty ? 'with' : 'without'} a character in the party: create, reads and moves agree (${mayAct})`, async () => {
      const user = await someone(role, inParty);
      const { containerId, stackId } = await ownStack(user);

      const created = await callApi(ctx, 'POST', `/parties/${party.id}/containers`, user, {
        container: { name: `Box of a ${role}` },
      });
      const createAllowed = created.statusCode === 201;
      expect(created.statusCode, created.body).toBe(mayAct ? 201 : member ? 403 : 404);

      const single = await callApi(ctx, 'GET', `/containers/${stashId}`, user);
      const byOwner = await callApi(ctx, 'GET', `/parties/${party.id}/containers`, user);
      const listed = await callApi(ctx, 'GET', `/containers?party_id=${party.id}`, user);
      const byOwners = await callApi(ctx, 'GET', `/containers/by_owner?party_ids=${party.id}`, user);
      if (!member) {
        expect(single.statusCode, single.body).toBe(404);
        expect(byOwner.statusCode, byOwner.body).toBe(404);
        expect(listed.statusCode, listed.body).toBe(404);
        expect(byOwners.json().data).toEqual([]);
      } else {
        const stashOf = (containers: { id: string; can_act: boolean }[]) =>
          containers.find((c) => c.id === stashId)?.can_act;
        const answers = [
          single.json().data.can_act,
          stashOf(byOwner.json().data),
          stashOf(listed.json().data),
          stashOf(byOwners.json().data[0].containers),
        ];
        expect(answers).toEqual([createAllowed, createAllowed, createAllowed, createAllowed]);
      }

      const moved = await callApi(ctx, 'POST', '/containers/transfer', user, {
        item_instance_id: stackId,
        source_container_id: containerId,
        target_container_id: stashId,
        quantity: 1,
      });
      expect(moved.statusCode === 200, moved.body).toBe(createAllowed);
    });
  }
});
