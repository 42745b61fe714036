import type { Container } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/**
 * The owner lists (GET characters/{id}/containers, GET parties/{id}/containers) are built for all their
 * containers at once: each container must read exactly as GET containers/{id} answers it alone, for every
 * kind of viewer, loads, limits and the party's archive included.
 */
let ctx: TestContext;
let gm: SignedInUser;
let player: SignedInUser;
let observer: SignedInUser;
let bystander: SignedInUser;
let partyId: string;
let heroId: string;

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);

async function created(method: ApiMethod, url: string, user: SignedInUser, payload: unknown) {
  const response = await call(method, url, user, payload);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().data;
}

async function addItems(user: SignedInUser, containerId: string, templateId: string, quantity: number) {
  return (await created('POST', '/item_instances', user, {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  })) as { id: string }[];
}

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'weight' });
  partyId = party.id;
  player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  observer = await createMember(ctx, party, 'observer');
  // A player of the party without a character there: may read the stash but not act on it.
  bystander = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId, maxWeight: 80, maxSlots: 12 });
  heroId = hero.id;

  const rope = await createTemplate(ctx, { name: 'Rope', weight: 10, baseValue: 1, stackSize: 0 });
  const gem = await createTemplate(ctx, { name: 'Ruby', weight: 0.1, baseValue: 5, currency: 'pp' });
  const gold = await coinTemplate(ctx, 'gp');

  const chest = await created('POST', `/parties/${partyId}/containers`, gm, {
    container: { name: 'Chest', description: 'Iron-bound', max_weight: 500, max_slots: 40 },
  });
  await created('POST', `/parties/${partyId}/containers`, gm, { container: { name: 'Empty crate' } });
  const cart = await created('POST', `/parties/${partyId}/containers`, gm, {
    container: { name: 'Cart', max_weight: 0.25, max_slots: null },
  });
  await addItems(gm, chest.id, rope.id, 3);
  await addItems(gm, chest.id, gold.id, 250);
  const [ruby] = await addItems(gm, chest.id, gem.id, 2);
  // An override changes both the weight and the worth the container totals.
  await created('PATCH', `/item_instances/${ruby?.id}`, gm, {
    item_instance: { instance_data: { weight_override: 0.35, value_override: 7, currency_override: 'gp' } },
  });
  await addItems(gm, cart.id, gem.id, 1);

  const pouch = await created('POST', `/characters/${heroId}/containers`, player, {
    container: { name: 'Pouch', max_weight: 2, max_slots: 5 },
  });
  await created('POST', `/characters/${heroId}/containers`, player, { container: { name: 'Satchel' } });
  await addItems(player, String(hero.primary_container_id), rope.id, 2);
  await addItems(player, pouch.id, gold.id, 40);
  await addItems(player, pouch.id, gem.id, 3);
});
afterAll(async () => ctx?.close());

/** The list as answered, and each of its containers as GET containers/{id} answers it alone. */
async function listAndSingles(user: SignedInUser, url: string) {
  const list = await call('GET', url, user);
  expect(list.statusCode, list.body).toBe(200);
  const listed = list.json().data as Container[];
  const singles: Container[] = [];
  for (const container of listed) {
    const single = await call('GET', `/containers/${container.id}`, user);
    expect(single.statusCode, single.body).toBe(200);
    singles.push(single.json().data);
  }
  return { listed, singles };
}

function expectListsMatchSingles(label: string) {
  return async (user: SignedInUser, url: string, count: number) => {
    const { listed, singles } = await listAndSingles(user, url);
    expect(listed, `${label}: ${url}`).toHaveLength(count);
    expect(listed, `${label}: ${url}`).toEqual(singles);
    return listed;
  };
}

describe('the containers of an owner, listed at once', () => {
  it('reads each container as it reads alone, for the GM, a player, an observer and a bystander', async () => {
    const viewers = { gm, player, observer, bystander };
    for (const [who, user] of Object.entries(viewers)) {
      const check = expectListsMatchSingles(who);
      const stash = await check(user, `/parties/${partyId}/containers`, 4);
      const bags = await check(user, `/characters/${heroId}/containers`, 3);
      // The party's own stash comes first (created with the party), then the others by age.
      expect(stash.map((c) => c.name).slice(1)).toEqual(['Chest', 'Empty crate', 'Cart']);
      expect(bags.map((c) => c.is_primary)).toEqual([true, false, false]);
    }
    // Loads, worth and who may act come through the list as they do alone: spot-check a few values.
    const { listed } = await listAndSingles(gm, `/parties/${partyId}/containers`);
    // Rope 3 × 10 lb, 250 gp × 0.02 lb, the rubies (one a stack each) 0.35 lb overridden and 0.1 lb; worth
    // 3 gp + 250 gp + 7 gp overridden + 5 pp.
    expect(listed.find((c) => c.name === 'Chest')).toMatchObject({
      current_weight: 35.45,
      items_count: 4,
      total_value_gp: 310,
      can_act: true,
    });
    const asBystander = (await listAndSingles(bystander, `/parties/${partyId}/containers`)).listed;
    expect(asBystander.map((c) => c.can_act)).toEqual([false, false, false, false]);
    const heroBags = (await listAndSingles(observer, `/characters/${heroId}/containers`)).listed;
    expect(heroBags.map((c) => c.can_act)).toEqual([false, false, false]);
  });

  it('still matches once the party is archived: nobody may act, everybody may read', async () => {
    expect((await call('POST', `/parties/${partyId}/archive`, gm)).statusCode).toBe(200);
    try {
      for (const [who, user] of Object.entries({ gm, player, observer })) {
        const check = expectListsMatchSingles(`${who}, archived`);
        const stash = await check(user, `/parties/${partyId}/containers`, 4);
        const bags = await check(user, `/characters/${heroId}/containers`, 3);
        expect([...stash, ...bags].every((c) => !c.can_act)).toBe(true);
      }
    } finally {
      expect((await call('POST', `/parties/${partyId}/unarchive`, gm)).statusCode).toBe(200);
    }
  });

  it('still answers 404 to a stranger, for a party and for a character', async () => {
    const stranger = await createUser(ctx);
    for (const url of [`/parties/${partyId}/containers`, `/characters/${heroId}/containers`]) {
      const refused = await call('GET', url, stranger);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json().error.code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('GET /containers/by_owner: the containers of many owners in one request', () => {
  /** What each owner's own containers path answers the user, or null when it refuses them. */
  async function ownPath(user: SignedInUser, owner: { type: 'character' | 'party'; id: string }) {
    const own = await call(
      'GET',
      `/${owner.type === 'party' ? 'parties' : 'characters'}/${owner.id}/containers`,
      user,
    );
    return own.statusCode === 200 ? (own.json().data as Container[]) : null;
  }

  it('answers each owner as its own containers path does, for every kind of viewer', async () => {
    const gmHero = await createCharacter(ctx, gm, { partyId });
    const url = `/containers/by_owner?character_ids=${heroId},${gmHero.id}&party_ids=${partyId}`;
    for (const [who, user] of Object.entries({ gm, player, observer, bystander })) {
      const batch = await call('GET', url, user);
      expect(batch.statusCode, batch.body).toBe(200);
      const owners = [
        { type: 'character' as const, id: heroId },
        { type: 'character' as const, id: gmHero.id },
        { type: 'party' as const, id: partyId },
      ];
      const expected = [];
      for (const owner of owners) expected.push({ owner, containers: await ownPath(user, owner) });
      expect(batch.json().data, who).toEqual(expected);
    }
  });

  it('leaves out the owners the caller may not read: another user’s character, a party they are not in', async () => {
    const stranger = await createUser(ctx);
    const strangersHero = await createCharacter(ctx, stranger);
    const strangersParty = await createParty(ctx, stranger);
    const asPlayer = await call(
      'GET',
      `/containers/by_owner?character_ids=${strangersHero.id},${heroId}&party_ids=${strangersParty.id},${partyId}`,
      player,
    );
    expect(asPlayer.statusCode, asPlayer.body).toBe(200);
    const data = asPlayer.json().data as { owner: { id: string }; containers: Container[] }[];
    expect(data.map((entry) => entry.owner.id)).toEqual([heroId, partyId]);
    const ids = data.flatMap((entry) => entry.containers.map((c) => c.owner.id));
    expect(ids).not.toContain(strangersHero.id);
    expect(ids).not.toContain(strangersParty.id);
    // And a stranger to the party gets nothing of it, nor of its characters.
    const asStranger = await call(
      'GET',
      `/containers/by_owner?character_ids=${heroId}&party_ids=${partyId}`,
      stranger,
    );
    expect(asStranger.statusCode, asStranger.body).toBe(200);
    expect(asStranger.json().data).toEqual([]);
  });

  it('refuses ids that are not ids, and more owners than one request may name', async () => {
    const bad = await call('GET', '/containers/by_owner?character_ids=nope', gm);
    expect(bad.statusCode, bad.body).toBe(422);
    const many = Array.from({ length: 201 }, () => crypto.randomUUID()).join(',');
    const tooMany = await call('GET', `/containers/by_owner?character_ids=${many}`, gm);
    expect(tooMany.statusCode, tooMany.body).toBe(422);
    const none = await call('GET', '/containers/by_owner', gm);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().data).toEqual([]);
  });
});
