import { characterMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import {
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
  meta?: Record<string, number>;
  message?: string;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

describe('characters', () => {
  it('creates with the spec defaults, a primary container and ledger rows', async () => {
    const player = await createUser(ctx);
    const response = await call('POST', '/characters', player, { character: { name: 'Aragorn' } });
    expect(response.statusCode).toBe(201);
    expect(body(response).message).toBe('Character "Aragorn" created successfully!');
    const character = body(response).data;
    expect(character).toMatchObject({
      name: 'Aragorn',
      level: 1,
      max_weight: 50,
      max_slots: 20,
      race: '',
      character_class: '',
      party_id: null,
      player_name: player.user.username,
      is_owner: true,
    });
    const [primary] = await ctx.database.db
      .select()
      .from(containers)
      .where(eq(containers.characterId, String(character.id)));
    expect(primary).toMatchObject({
      id: character.primary_container_id,
      isPrimary: true,
      maxWeight: 50,
      maxSlots: 20,
    });
    const ledger = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.characterId, String(character.id)));
    expect(ledger.map((t) => t.transactionType).sort()).toEqual(['character_creation', 'container_creation']);
    expect(ledger.every((t) => t.actorName === player.user.username && t.targetName === 'Aragorn')).toBe(
      true,
    );
  });

  it('requires a name with the spec message', async () => {
    const player = await createUser(ctx);
    const response = await call('POST', '/characters', player, { character: { name: '   ', level: 0 } });
    expect(response.statusCode).toBe(422);
    expect(body(response).error.details).toEqual(
      expect.arrayContaining([
        { field: 'character.name', message: characterMessages.nameRequired },
        expect.objectContaining({ field: 'character.level' }),
      ]),
    );
  });

  it('enforces the characters limit with a message and upgrade details', async () => {
    const player = await createUser(ctx);
    expect((await call('POST', '/characters', player, { character: { name: 'One' } })).statusCode).toBe(201);
    const second = await call('POST', '/characters', player, { character: { name: 'Two' } });
    expect(second.statusCode).toBe(403);
    expect(body(second).error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'Your Free plan allows 1 character. Upgrade to create more.',
      details: [expect.objectContaining({ resource: 'characters', limit: 1, used: 1 })],
    });
    await upgrade(ctx, player, 'tier_1');
    expect((await call('POST', '/characters', player, { character: { name: 'Two' } })).statusCode).toBe(201);
  });

  it('lists my own characters with filters and total_count', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    const make = (name: string, race: string, level: number) =>
      call('POST', '/characters', player, { character: { name, race, level, character_class: 'Ranger' } });
    await make('Legolas', 'Elf', 10);
    await make('Gimli', 'Dwarf', 9);
    await make('Tauriel', 'Elf', 4);
    const elves = body(await call('GET', '/characters?race=elf&min_level=5', player));
    expect(elves.data.map((c) => c.name)).toEqual(['Legolas']);
    const all = body(await call('GET', '/characters?per_page=2', player));
    expect(all.meta).toMatchObject({ total_count: 3, total_pages: 2 });
    expect(body(await call('GET', '/characters?filters[search]=gim', player)).data).toHaveLength(1);
    const other = await createUser(ctx);
    expect(body(await call('GET', '/characters', other)).meta?.total_count).toBe(0);
  });

  it('lets only the owner change or delete, and party members read', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const stranger = await createUser(ctx);
    const created = body(
      await call('POST', '/characters', player, { character: { name: 'Frodo', party_id: party.id } }),
    ).data;
    expect(created).toMatchObject({ party_id: party.id, party_name: party.name });

    expect((await call('GET', `/characters/${created.id}`, gm)).statusCode).toBe(200);
    expect(body(await call('GET', `/characters/${created.id}`, gm)).data.is_owner).toBe(false);
    expect((await call('GET', `/characters/${created.id}`, stranger)).statusCode).toBe(404);
    expect(
      (await call('PATCH', `/characters/${created.id}`, gm, { character: { name: 'Mine' } })).statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/characters/${created.id}`, stranger, { character: { name: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/characters/${created.id}`, gm)).statusCode).toBe(403);

    const party_chars = body(await call('GET', `/characters?party_id=${party.id}`, gm)).data;
    expect(party_chars.map((c) => c.name)).toEqual(['Frodo']);
    expect((await call('GET', `/characters?party_id=${party.id}`, stranger)).statusCode).toBe(404);

    const updated = await call('PATCH', `/characters/${created.id}`, player, {
      character: { level: 3, max_weight: 80 },
    });
    expect(body(updated).data).toMatchObject({ level: 3, max_weight: 80 });
    const [primary] = await ctx.database.db
      .select()
      .from(containers)
      .where(eq(containers.characterId, String(created.id)));
    expect(primary?.maxWeight).toBe(80);
  });

  // A PATCH changes what it sends: the assignment dialog sends party_id alone, and a character taken out of
  // its party came back level 1, with no notes and the default capacity (zod's partial kept the defaults).
  it('changes only the fields a PATCH sends, capacity and notes included', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    const full = {
      name: 'Thorin',
      race: 'Dwarf',
      character_class: 'Cleric',
      level: 7,
      notes: 'Owes the guild 40 gp',
      image_url: 'https://example.com/thorin.png',
      max_weight: 300,
      max_slots: 60,
    };
    const created = body(
      await call('POST', '/characters', player, { character: { ...full, party_id: party.id } }),
    ).data;
    const left = await call('PATCH', `/characters/${created.id}`, player, { character: { party_id: null } });
    expect(body(left).data).toMatchObject({ ...full, party_id: null });
    const renamed = await call('PATCH', `/characters/${created.id}`, player, {
      character: { notes: 'Paid' },
    });
    expect(body(renamed).data).toMatchObject({ ...full, notes: 'Paid', party_id: null });
    const [primary] = await ctx.database.db
      .select()
      .from(containers)
      .where(eq(containers.characterId, String(created.id)));
    expect(primary).toMatchObject({ maxWeight: 300, maxSlots: 60 });
  });

  it('assigns only into parties I belong to, one party at a time', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const otherParty = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_1');
    const character = body(await call('POST', '/characters', player, { character: { name: 'Sam' } })).data;
    const foreign = await call('PATCH', `/characters/${character.id}`, player, {
      character: { party_id: otherParty.id },
    });
    expect(foreign.statusCode).toBe(403);
    expect(body(foreign).error.details?.[0]).toMatchObject({
      field: 'party_id',
      message: characterMessages.notPartyMember,
    });
    expect(
      body(await call('PATCH', `/characters/${character.id}`, player, { character: { party_id: party.id } }))
        .data.party_id,
    ).toBe(party.id);
    // Joining a second party does not let a character be in two.
    await ctx.app.services.parties.join(player.user.id, {
      join_code: String(otherParty.join_code),
      role_request: 'player',
    });
    expect(
      (await call('PATCH', `/characters/${character.id}`, player, { character: { party_id: otherParty.id } }))
        .statusCode,
    ).toBe(409);
    expect(
      body(await call('PATCH', `/characters/${character.id}`, player, { character: { party_id: null } })).data
        .party_id,
    ).toBeNull();
    // Leaving a party takes the player's characters out of it.
    await call('PATCH', `/characters/${character.id}`, player, { character: { party_id: party.id } });
    await call('DELETE', `/parties/${party.id}/leave`, player);
    expect(body(await call('GET', `/characters/${character.id}`, player)).data.party_id).toBeNull();
  });

  it('deletes a character with its containers, writing character_deletion', async () => {
    const player = await createUser(ctx);
    const character = body(
      await call('POST', '/characters', player, { character: { name: 'Boromir' } }),
    ).data;
    expect((await call('DELETE', `/characters/${character.id}`, player)).statusCode).toBe(204);
    expect((await call('GET', `/characters/${character.id}`, player)).statusCode).toBe(404);
    const left = await ctx.database.db
      .select()
      .from(containers)
      .where(eq(containers.characterId, String(character.id)));
    expect(left).toHaveLength(0);
    const ledger = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.characterId, String(character.id)));
    expect(ledger.map((t) => t.transactionType)).toContain('character_deletion');
    // The limit counts what exists: the slot is free again.
    expect((await call('POST', '/characters', player, { character: { name: 'Faramir' } })).statusCode).toBe(
      201,
    );
  });

  it('lets exactly the limit through when character creations race', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_1'); // 5 characters
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/characters', player, { character: { name: `Racer ${i}` } }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(responses.filter((r) => r.statusCode === 403)).toHaveLength(3);
  });
});

describe('moving a character between parties', () => {
  it('is two saves, and the refusal says so on the party field', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_2');
    const first = await createParty(ctx, player);
    const second = await createParty(ctx, player);
    const made = body(
      await call('POST', '/characters', player, { character: { name: 'Nyx', party_id: first.id } }),
    ).data;
    const moved = await call('PATCH', `/characters/${made.id}`, player, {
      character: { party_id: second.id },
    });
    expect(moved.statusCode).toBe(409);
    expect((moved.json() as { error: { details: unknown[] } }).error.details).toEqual([
      { field: 'character.party_id', message: characterMessages.alreadyInParty },
    ]);
    expect(
      (await call('PATCH', `/characters/${made.id}`, player, { character: { party_id: null } })).statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `/characters/${made.id}`, player, { character: { party_id: second.id } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('a character’s capacity is its main container’s', () => {
  it('refuses a max weight below what the main container holds, and follows an edit of that container', async () => {
    const player = await createUser(ctx);
    const made = body(
      await call('POST', '/characters', player, { character: { name: 'Thorin', max_weight: 100 } }),
    ).data;
    const backpack = String(made.primary_container_id);
    const mail = await createTemplate(ctx, { name: 'Chain mail', weight: 55 });
    expect(
      (
        await call('POST', '/item_instances', player, {
          item_template_id: mail.id,
          container_id: backpack,
          quantity: 1,
        })
      ).statusCode,
    ).toBe(201);

    const lowered = await call('PATCH', `/characters/${made.id}`, player, { character: { max_weight: 1 } });
    expect(lowered.statusCode).toBe(422);
    expect((lowered.json() as { error: { details: unknown[] } }).error.details).toEqual([
      {
        field: 'character.max_weight',
        message: 'Backpack, Thorin’s main container, already holds 55 lbs: its max weight cannot be lower',
      },
    ]);
    const container = () => call('GET', `/containers/${backpack}`, player);
    expect(body(await container()).data).toMatchObject({ max_weight: 100 });

    // The container's own edit changes the character's capacity too: one limit on both screens.
    expect(
      (await call('PATCH', `/containers/${backpack}`, player, { container: { max_weight: 80 } })).statusCode,
    ).toBe(200);
    expect(body(await call('GET', `/characters/${made.id}`, player)).data).toMatchObject({ max_weight: 80 });
  });
});

describe('list parameters sort, direction and include (spec/01 §3, issue 14)', () => {
  async function company() {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_3');
    const make = async (name: string, race: string, level: number) =>
      body(await call('POST', '/characters', player, { character: { name, race, level } })).data;
    const legolas = await make('Legolas', 'Elf', 10);
    const gimli = await make('gimli', 'Dwarf', 9);
    const tauriel = await make('Tauriel', 'Elf', 4);
    return { player, legolas, gimli, tauriel };
  }
  const names = (response: { json(): unknown }) => body(response).data.map((c) => c.name);

  it('sorts by the named key, ascending unless told, names regardless of case', async () => {
    const { player } = await company();
    expect(names(await call('GET', '/characters?sort=name', player))).toEqual([
      'gimli',
      'Legolas',
      'Tauriel',
    ]);
    expect(names(await call('GET', '/characters?sort=level&direction=desc', player))).toEqual([
      'Legolas',
      'gimli',
      'Tauriel',
    ]);
    expect(names(await call('GET', '/characters?sort=level', player))).toEqual([
      'Tauriel',
      'gimli',
      'Legolas',
    ]);
    // Ties on the key fall back to the name.
    expect(names(await call('GET', '/characters?sort=race&direction=desc', player))).toEqual([
      'Legolas',
      'Tauriel',
      'gimli',
    ]);
    expect(names(await call('GET', '/characters?sort=created_at&per_page=1&page=2', player))).toEqual([
      'gimli',
    ]);
  });

  it('embeds each character’s containers with include=containers, main container first', async () => {
    const { player, legolas, gimli } = await company();
    const quiver = body(
      await call('POST', `/characters/${legolas.id}/containers`, player, {
        container: { name: 'Quiver', max_slots: 2 },
      }),
    ).data;
    const listed = await call('GET', '/characters?sort=name&include=containers', player);
    expect(listed.statusCode).toBe(200);
    const containersOf = (name: string) =>
      body(listed).data.find((c) => c.name === name)?.containers as Record<string, unknown>[] | undefined;
    expect(containersOf('Legolas')?.map((c) => c.id)).toEqual([legolas.primary_container_id, quiver.id]);
    expect(containersOf('gimli')?.map((c) => c.id)).toEqual([gimli.primary_container_id]);
    // The same container JSON as GET containers/{id}.
    const direct = body(await call('GET', `/containers/${quiver.id}`, player)).data;
    expect(containersOf('Legolas')?.[1]).toEqual(direct);
    expect(body(await call('GET', '/characters', player)).data[0]).not.toHaveProperty('containers');
  });

  it('shows party members the containers of a party’s characters, changeable only by their owner or the GM', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm);
    const player = await createMember(ctx, party, 'player');
    await call('POST', '/characters', player, { character: { name: 'Pip', party_id: party.id } });
    const canAct = async (user: SignedInUser) => {
      const [pip] = body(await call('GET', `/characters?party_id=${party.id}&include=containers`, user)).data;
      return (pip?.containers as { can_act: boolean }[] | undefined)?.map((c) => c.can_act);
    };
    const other = await createMember(ctx, party, 'player');
    expect(await canAct(gm)).toEqual([true]);
    expect(await canAct(player)).toEqual([true]);
    expect(await canAct(other)).toEqual([false]);
  });

  it('refuses unknown sort keys, directions and includes with a VALIDATION_ERROR naming them', async () => {
    const player = await createUser(ctx);
    for (const [query, field] of [
      ['sort=notes', 'sort'],
      ['direction=sideways', 'direction'],
      ['include=inventory', 'include'],
    ] as const) {
      const response = await call('GET', `/characters?${query}`, player);
      expect(response.statusCode, query).toBe(422);
      expect(body(response).error.details?.map((d) => d.field)).toEqual([field]);
    }
  });
});
