import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { containerItemsQuerySchema } from '@haversack/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { FingerprintedCache } from '../../lib/fingerprinted-cache.js';
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
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

// GET containers/{id}/items answers pages serialized once and kept under the fingerprint of the rows they
// were built from (issue 13 §3). These tests hold its answer to what the page built afresh is, byte for
// byte, after every kind of write, for every reader.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const data = (response: { json(): unknown }) => (response.json() as { data: Record<string, unknown>[] }).data;

/** The answer as the route built it before pages were kept: the page read and stringified afresh. */
async function builtAfresh(user: SignedInUser, containerId: string, query: Record<string, unknown>) {
  const parsed = containerItemsQuerySchema.parse(query);
  const page = await ctx.app.services.inventory.items(user.user.id, containerId, parsed);
  return JSON.stringify({ status: 'success', ...page });
}

/**
 * Reads the page twice (the second read is answered from what the first kept) and holds both, and the
 * compressed answers, to the page built afresh. Answers the body.
 */
async function expectCurrent(user: SignedInUser, containerId: string, query: Record<string, unknown> = {}) {
  const search = new URLSearchParams(
    Object.entries({ per_page: 100, ...query }).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const url = `/api/v1/containers/${containerId}/items?${search}`;
  const expected = await builtAfresh(user, containerId, Object.fromEntries(search));
  for (let i = 0; i < 2; i++) {
    const plain = await ctx.app.inject({ method: 'GET', url, headers: user.auth });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.body).toBe(expected);
  }
  // Answers under 1 KiB go out plain (lib/compression.ts).
  if (Buffer.byteLength(expected) < 1024) return expected;
  for (const [acceptEncoding, encoding, decode] of [
    ['gzip', 'gzip', gunzipSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
  ] as const) {
    // The first read of an encoding compresses the page, the second answers what that kept.
    const [first, second] = [
      await ctx.app.inject({
        method: 'GET',
        url,
        headers: { ...user.auth, 'accept-encoding': acceptEncoding },
      }),
      await ctx.app.inject({
        method: 'GET',
        url,
        headers: { ...user.auth, 'accept-encoding': acceptEncoding },
      }),
    ];
    for (const answer of [first, second]) {
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toBe('accept-encoding');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['content-length']).toBe(String(answer.rawPayload.length));
      expect(decode(answer.rawPayload).toString()).toBe(expected);
    }
  }
  return expected;
}

async function heroWithBackpack() {
  const player = await createUser(ctx);
  const character = await createCharacter(ctx, player);
  return { player, character, backpack: String(character.primary_container_id) };
}

async function add(user: SignedInUser, containerId: string, templateId: string, quantity = 1) {
  const response = await call('POST', '/item_instances', user, {
    item_template_id: templateId,
    container_id: containerId,
    quantity,
  });
  expect(response.statusCode).toBe(201);
  return String(data(response)[0]?.id);
}

describe('container pages kept serialized (issue 13 §3)', () => {
  it('answers the bytes of the page built afresh, for every filter and page, plain and compressed', async () => {
    const { player, backpack } = await heroWithBackpack();
    const ring = await createTemplate(ctx, {
      name: 'Ring of Warmth',
      baseValue: 500,
      tags: ['magic', 'attunement'],
      metadata: { rarity: 'rare', requires_attunement: true },
    });
    const ringId = await add(player, backpack, ring.id);
    expect(
      (
        await call('PATCH', `/item_instances/${ringId}`, player, {
          item_instance: { instance_data: { is_attuned: true }, notes: 'from the dragon' },
        })
      ).statusCode,
    ).toBe(200);
    const lantern = await createTemplate(ctx, {
      name: 'Lantern',
      weight: 2,
      baseValue: 5,
      metadata: { rarity: 'common' },
    });
    await ctx.database.db.insert(itemInstances).values([
      {
        containerId: backpack,
        itemTemplateId: lantern.id,
        quantity: 3,
        notes: 'dented',
        isIdentified: false,
        instanceData: {
          name_override: 'Lamp of Ages',
          value_override: 7,
          weight_override: 0.5,
          currency_override: 'sp',
        },
      },
      { containerId: backpack, itemTemplateId: lantern.id, quantity: 1, notes: '', instanceData: {} },
    ]);
    await add(player, backpack, (await coinTemplate(ctx, 'gp')).id, 250);
    const arrow = await createTemplate(ctx, {
      name: 'Arrow',
      weight: 0.05,
      baseValue: 5,
      currency: 'cp',
      stackSize: 20,
    });
    await add(player, backpack, arrow.id, 45);

    const queries: Record<string, unknown>[] = [
      {},
      { per_page: 2 },
      { per_page: 2, page: 2 },
      { per_page: 2, page: 9 },
      { search: 'lamp' },
      { rarity: 'RARE' },
      { min_value: 1, max_value: 10 },
      { search: 'a', rarity: 'common', min_value: 0 },
    ];
    const bodies = new Set<string>();
    for (const query of queries) bodies.add(await expectCurrent(player, backpack, query));
    // Each query is a page of its own, not another query's page kept.
    expect(bodies.size).toBe(queries.length);
    const everything = JSON.parse(await expectCurrent(player, backpack)) as {
      data: Record<string, unknown>[];
    };
    // The compressed answers were kept with the page, each for the accept-encoding it answered.
    const kept = await ctx.app.services.inventory.itemsJson(
      player.user.id,
      backpack,
      containerItemsQuerySchema.parse({ per_page: '100' }),
    );
    expect([...kept.encoded.keys()]).toEqual(['gzip', 'gzip, deflate, br']);
    expect(gunzipSync(kept.encoded.get('gzip')?.bytes ?? Buffer.alloc(0)).equals(kept.body)).toBe(true);
    // A search's pages are answered afresh, never kept (each keystroke is another query).
    await expectCurrent(player, backpack, { search: 'a' });
    const searched = await ctx.app.services.inventory.itemsJson(
      player.user.id,
      backpack,
      containerItemsQuerySchema.parse({ per_page: '100', search: 'a' }),
    );
    expect(searched.encoded.size).toBe(0);
    expect(everything.data.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Lamp of Ages', 'Lantern', 'Ring of Warmth', 'Arrow']),
    );
    expect(everything.data.find((s) => s.name === 'Ring of Warmth')).toMatchObject({
      instance_data: { is_attuned: true },
      notes: 'from the dragon',
    });
  });

  it('answers the new page right after each kind of write, whichever path wrote it', async () => {
    const { player, character, backpack } = await heroWithBackpack();
    const pouch = String(
      (
        (
          await call('POST', `/characters/${character.id}/containers`, player, {
            container: { name: 'Pouch' },
          })
        ).json() as { data: { id: string } }
      ).data.id,
    );
    const own = await createTemplate(ctx, {
      name: 'Homebrew Charm',
      creatorId: player.user.id,
      visibility: 'private',
    });
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 10 });
    let before = await expectCurrent(player, backpack);
    const changes = async (label: string, write: () => Promise<unknown>) => {
      await write();
      const after = await expectCurrent(player, backpack);
      expect(after, label).not.toBe(before);
      before = after;
    };
    const ropeId = await add(player, backpack, rope.id, 6);
    before = await expectCurrent(player, backpack);
    const charmId = await add(player, backpack, own.id);
    await changes('add', async () => add(player, backpack, rope.id, 1));
    await changes('edit', () =>
      call('PATCH', `/item_instances/${charmId}`, player, { item_instance: { notes: 'glows faintly' } }),
    );
    await changes('split', () => call('POST', `/item_instances/${ropeId}/split`, player, { quantity: 2 }));
    await changes('transfer out', () =>
      call('POST', '/containers/transfer', player, {
        item_instance_id: ropeId,
        source_container_id: backpack,
        target_container_id: pouch,
        quantity: 1,
      }),
    );
    const [inPouch] = data(await call('GET', `/containers/${pouch}/items`, player));
    await changes('transfer in', () =>
      call('POST', '/containers/transfer', player, {
        item_instance_id: inPouch?.id,
        source_container_id: pouch,
        target_container_id: backpack,
        quantity: 1,
      }),
    );
    await changes('template edited by its creator', () =>
      call('PATCH', `/item_templates/${own.id}`, player, { item_template: { name: 'Homebrew Amulet' } }),
    );
    // Paths that go around the inventory (an administrator, a catalogue import, SQL by hand) tell nobody.
    await changes('template written directly', () =>
      ctx.database.db.update(itemTemplates).set({ weight: 3 }).where(eq(itemTemplates.id, rope.id)),
    );
    await changes('stack written directly', () =>
      ctx.database.db.update(itemInstances).set({ notes: 'frayed' }).where(eq(itemInstances.id, ropeId)),
    );
    await changes('destroy', () => call('DELETE', `/item_instances/${charmId}`, player));
  });

  it('answers a loot take and a party stash page the same to every reader allowed, and nothing to others', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const stash = String(
      (
        (
          await call('POST', `/parties/${party.id}/containers`, gm, { container: { name: 'Stash' } })
        ).json() as {
          data: { id: string };
        }
      ).data.id,
    );
    const player = await createMember(ctx, party, 'player');
    const observer = await createMember(ctx, party, 'observer');
    const stranger = await createUser(ctx);
    const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 50 });
    await add(gm, stash, gem.id, 2);
    const url = `/containers/${stash}/items?per_page=100`;
    const refusedBefore = await call('GET', url, stranger);
    expect(refusedBefore.statusCode).toBe(404);

    const byGm = await expectCurrent(gm, stash);
    expect(await expectCurrent(player, stash)).toBe(byGm);
    expect(await expectCurrent(observer, stash)).toBe(byGm);
    // A page kept for members is no answer to anyone else: the same refusal as before it was kept.
    const refused = await call('GET', url, stranger);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toBe(refusedBefore.body);
    expect((await call('GET', `/containers/${crypto.randomUUID()}/items`, gm)).body).toBe(refusedBefore.body);
    const badId = await call('GET', '/containers/not-an-id/items', gm);
    expect(badId.statusCode).toBe(422);
    const badPage = await call('GET', `/containers/${stash}/items?per_page=501`, gm);
    expect(badPage.statusCode).toBe(422);

    // Loot taken into a hero's backpack.
    const hero = await createCharacter(ctx, player, { partyId: party.id });
    const backpack = String(hero.primary_container_id);
    const lootTemplate = await createLootTemplate(ctx, gm, [{ item_template_id: gem.id, quantity: 3 }]);
    const loot = await deployLoot(ctx, gm, party.id, lootTemplate.id, { reveal: true });
    const before = await expectCurrent(player, backpack);
    const taken = await call('POST', `/loot_instances/${loot.id}/take`, player, {
      item_instance_id: loot.container.item_instances[0]?.id,
      target_container_id: backpack,
      quantity: 1,
    });
    expect(taken.statusCode).toBe(200);
    expect(await expectCurrent(player, backpack)).not.toBe(before);

    // A member who leaves is refused at once, though the page was kept while they could read it.
    await expectCurrent(player, stash);
    await ctx.database.db.execute(
      sql`delete from party_memberships where party_id = ${party.id} and user_id = ${player.user.id}`,
    );
    expect((await call('GET', url, player)).statusCode).toBe(404);
  });
});

describe('CONTAINER_PAGE_CACHE_MB=0', () => {
  it('keeps no page and answers the same bytes', async () => {
    const uncached = await buildTestApp({ env: { CONTAINER_PAGE_CACHE_MB: '0' } });
    try {
      const player = await createUser(uncached);
      const character = await createCharacter(uncached, player);
      const backpack = String(character.primary_container_id);
      const rope = await createTemplate(uncached, { name: 'Rope', tags: ['gear'] });
      for (let i = 0; i < 12; i++) {
        await uncached.database.db
          .insert(itemInstances)
          .values({ containerId: backpack, itemTemplateId: rope.id, quantity: i + 1, notes: `coil ${i}` });
      }
      const query = containerItemsQuerySchema.parse({ per_page: '100' });
      const afresh = JSON.stringify({
        status: 'success',
        ...(await uncached.app.services.inventory.items(player.user.id, backpack, query)),
      });
      expect(Buffer.byteLength(afresh)).toBeGreaterThan(1024);
      for (let i = 0; i < 2; i++) {
        const answer = await uncached.app.inject({
          method: 'GET',
          url: `/api/v1/containers/${backpack}/items?per_page=100`,
          headers: { ...player.auth, 'accept-encoding': 'gzip' },
        });
        expect(answer.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(answer.rawPayload).toString()).toBe(afresh);
      }
      const page = await uncached.app.services.inventory.itemsJson(player.user.id, backpack, query);
      expect(page.body.toString()).toBe(afresh);
      expect(page.encoded.size).toBe(0);
    } finally {
      await uncached.close();
    }
  });
});

describe('FingerprintedCache', () => {
  const bytes = (n: number) => Buffer.alloc(n, 1);
  const keep = (cache: FingerprintedCache<Buffer>, key: string, fingerprint: string, n: number) =>
    cache.set(key, fingerprint, bytes(n), n);

  it('answers a value only for the fingerprint it was kept under', () => {
    const cache = new FingerprintedCache<Buffer>(1000);
    keep(cache, 'a', 'v1', 10);
    expect(cache.get('a', 'v1')?.length).toBe(10);
    expect(cache.get('a', 'v2')).toBeUndefined();
    expect(cache.get('b', 'v1')).toBeUndefined();
    keep(cache, 'a', 'v2', 20);
    expect(cache.get('a', 'v1')).toBeUndefined();
    expect(cache.get('a', 'v2')?.length).toBe(20);
    expect(cache.bytes).toBe(20);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently read first to stay within its bytes, and keeps nothing too big', () => {
    const cache = new FingerprintedCache<Buffer>(100);
    keep(cache, 'a', 'v', 25);
    keep(cache, 'b', 'v', 25);
    keep(cache, 'c', 'v', 25);
    cache.get('a', 'v');
    keep(cache, 'd', 'v', 25);
    keep(cache, 'e', 'v', 25);
    expect(cache.get('b', 'v')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((key) => cache.get(key, 'v')?.length)).toEqual([25, 25, 25, 25]);
    expect(cache.bytes).toBe(100);
    keep(cache, 'f', 'v', 26);
    expect(cache.get('f', 'v')).toBeUndefined();
    expect(cache.bytes).toBe(100);
  });

  it('counts what is added to a kept value, only while it is kept under that fingerprint', () => {
    const cache = new FingerprintedCache<Buffer>(100);
    for (const key of ['a', 'b', 'c', 'd']) keep(cache, key, 'v', 20);
    cache.get('a', 'v');
    expect(cache.grow('b', 'v', 5)).toBe(true);
    expect(cache.bytes).toBe(85);
    expect(cache.grow('b', 'other', 1)).toBe(false);
    expect(cache.grow('gone', 'v', 1)).toBe(false);
    // Past a quarter of the budget a value is not grown.
    expect(cache.grow('c', 'v', 6)).toBe(false);
    expect(cache.bytes).toBe(85);
    // Growing counts against the budget like keeping: the least recently read go first ('b', then 'c').
    keep(cache, 'e', 'v', 20);
    expect(cache.get('b', 'v')).toBeUndefined();
    keep(cache, 'f', 'v', 20);
    expect(cache.bytes).toBe(100);
    expect(cache.grow('c', 'v', 5)).toBe(false);
    expect(cache.get('c', 'v')).toBeUndefined();
    expect(cache.bytes).toBe(80);
  });
});
