import { joinCodeAlphabet, partyMessages } from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';

interface Body {
  status: string;
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

async function gmWithParty(overrides: Parameters<typeof createParty>[2] = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, overrides);
  return { gm, party };
}

describe('creating and reading parties', () => {
  it('makes the creator the GM member, with a well-formed code and the spec defaults', async () => {
    const gm = await createUser(ctx);
    const response = await call('POST', '/parties', gm, { party: { name: 'The Fellowship' } });
    expect(response.statusCode).toBe(201);
    const party = body(response).data;
    expect(party).toMatchObject({
      name: 'The Fellowship',
      join_permission: 'limited',
      encumbrance_style: 'both',
      is_gm: true,
      user_role: 'gm',
      member_count: 1,
      gm_name: gm.user.username,
      is_archived: false,
    });
    expect(String(party.join_code)).toMatch(new RegExp(`^[${joinCodeAlphabet}]{8}$`));
    expect(String(party.join_code)).not.toMatch(/[01OI]/);
  });

  it('starts the party with a Party Stash, created in the ledger (issue 12)', async () => {
    const { gm, party } = await gmWithParty();
    const containers = body(await call('GET', `/parties/${party.id}/containers`, gm)).data;
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({ name: 'Party Stash', party_id: party.id, character_id: null });
    const ledger = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.partyId, party.id), eq(transactions.transactionType, 'container_creation')));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      destinationName: `Party Stash (${party.name})`,
      actorId: gm.user.id,
      scope: null,
    });
    // Nothing the GM did: their allowance of party actions is untouched.
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, gm.user.id);
    expect(usage.inventory_actions_party_monthly.used).toBe(0);
  });

  it('keeps players free to add items unless the GM says otherwise (issue 12)', async () => {
    const { party } = await gmWithParty();
    expect(party.item_conjuring).toBe('free');
  });

  it('validates the form with the spec message', async () => {
    const gm = await createUser(ctx);
    const response = await call('POST', '/parties', gm, {
      party: { name: 'ab', join_permission: 'everyone' },
    });
    expect(response.statusCode).toBe(422);
    expect(body(response).error.details).toEqual(
      expect.arrayContaining([
        { field: 'party.name', message: partyMessages.nameTooShort },
        expect.objectContaining({ field: 'party.join_permission' }),
      ]),
    );
  });

  it('gives restricted parties no code', async () => {
    const { party } = await gmWithParty({ join_permission: 'restricted' });
    expect(party.join_code).toBeNull();
  });

  it('enforces parties_can_create: a free user runs one party', async () => {
    const gm = await createUser(ctx);
    expect((await call('POST', '/parties', gm, { party: { name: 'First table' } })).statusCode).toBe(201);
    const second = await call('POST', '/parties', gm, { party: { name: 'Second table' } });
    expect(second.statusCode).toBe(403);
    expect(body(second).error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'Your Free plan allows 1 party you run. Upgrade to create more.',
    });
  });

  it('hides private parties from non-members and previews public ones', async () => {
    const { party } = await gmWithParty({ is_public: false });
    const { party: open } = await gmWithParty({ is_public: true, description: 'Open table' });
    const stranger = await createUser(ctx);
    expect((await call('GET', `/parties/${party.id}`, stranger)).statusCode).toBe(404);
    const preview = await call('GET', `/parties/${open.id}`, stranger);
    expect(preview.statusCode).toBe(200);
    // spec/02 §3 user_role "default observer" (issue 14): a non-member looks on, is_member says so.
    expect(body(preview).data).toMatchObject({
      description: 'Open table',
      is_member: false,
      is_gm: false,
      join_code: null,
      user_role: 'observer',
    });
    const discovered = await call('GET', `/parties?visibility=public&search=${open.name}`, stranger);
    expect(body(discovered).data[0]).toMatchObject({ id: open.id, user_role: 'observer', is_member: false });
    expect((await call('GET', `/parties/${party.id}`)).statusCode).toBe(401);
    expect((await call('GET', '/parties/not-a-uuid', stranger)).statusCode).toBe(422);
  });

  it('lists my parties with filters and paging', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    for (let i = 1; i <= 12; i++) await createParty(ctx, gm, { name: `Table ${String(i).padStart(2, '0')}` });
    const archived = await createParty(ctx, gm, { name: 'Old campaign' });
    await call('POST', `/parties/${archived.id}/archive`, gm);
    const page = await call('GET', '/parties?page=2&per_page=9&is_archived=false', gm);
    expect(body(page).meta).toEqual({ current_page: 2, per_page: 9, total_count: 12, total_pages: 2 });
    expect(body(page).data).toHaveLength(3);
    const search = await call('GET', '/parties?filters[search]=old', gm);
    expect(body(search).data.map((p) => p.name)).toEqual(['Old campaign']);
    const owned = await call('GET', '/parties?owned=true&role=gm&per_page=50', gm);
    expect(body(owned).meta?.total_count).toBe(13);
    const stranger = await createUser(ctx);
    expect(body(await call('GET', '/parties', stranger)).meta?.total_count).toBe(0);
  });

  it('discovers public parties by text and game system', async () => {
    const tag = `Zeph${Date.now() % 100000}`;
    await gmWithParty({ is_public: true, name: `${tag} Raiders`, game_system: 'Pathfinder 2e' });
    await gmWithParty({ is_public: true, name: 'Other', setting: `${tag} coast`, game_system: 'D&D 5e' });
    await gmWithParty({ is_public: false, name: `${tag} secret` });
    const stranger = await createUser(ctx);
    const all = await call('GET', `/parties?visibility=public&search=${tag}&per_page=50`, stranger);
    expect(
      body(all)
        .data.map((p) => p.name)
        .sort(),
    ).toEqual([`${tag} Raiders`, 'Other'].sort());
    const pf = await call(
      'GET',
      `/parties?visibility=public&search=${tag}&game_system=Pathfinder%202e`,
      stranger,
    );
    expect(body(pf).data.map((p) => p.name)).toEqual([`${tag} Raiders`]);
  });
});

describe('list parameters sort, direction and include (spec/01 §3, issue 14)', () => {
  async function threeParties() {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    // Made in this order, so "most recently changed first" (the default) is Caravan, Abbey, Bastion.
    const bastion = await createParty(ctx, gm, { name: 'Bastion', game_system: 'Pathfinder 2e' });
    const abbey = await createParty(ctx, gm, { name: 'abbey', game_system: 'D&D 5e' });
    const caravan = await createParty(ctx, gm, { name: 'Caravan', game_system: 'Other' });
    return { gm, bastion, abbey, caravan };
  }
  const names = (response: { json(): unknown }) => body(response).data.map((p) => p.name);

  it('sorts by the named key, ascending unless told, and keeps its default without one', async () => {
    const { gm, bastion } = await threeParties();
    await createMember(ctx, bastion, 'player');
    await createMember(ctx, bastion, 'player');
    expect(names(await call('GET', '/parties', gm))).toEqual(['Caravan', 'abbey', 'Bastion']);
    expect(names(await call('GET', '/parties?sort=name', gm))).toEqual(['abbey', 'Bastion', 'Caravan']);
    expect(names(await call('GET', '/parties?sort=name&direction=desc', gm))).toEqual([
      'Caravan',
      'Bastion',
      'abbey',
    ]);
    expect(names(await call('GET', '/parties?sort=created_at', gm))).toEqual(['Bastion', 'abbey', 'Caravan']);
    expect(names(await call('GET', '/parties?direction=asc', gm))).toEqual(['Bastion', 'abbey', 'Caravan']);
    expect(names(await call('GET', '/parties?sort=member_count&direction=desc', gm))[0]).toBe('Bastion');
    expect(names(await call('GET', '/parties?sort=game_system', gm))).toEqual([
      'abbey',
      'Caravan',
      'Bastion',
    ]);
    // Paging follows the order.
    const second = await call('GET', '/parties?sort=name&per_page=2&page=2', gm);
    expect(names(second)).toEqual(['Caravan']);
  });

  it('embeds members with include=members, as the member list shows them, and only for members', async () => {
    const { gm, bastion } = await threeParties();
    const player = await createMember(ctx, bastion, 'player');
    const listed = await call('GET', '/parties?sort=name&include=members', gm);
    expect(listed.statusCode).toBe(200);
    const withMembers = body(listed).data.find((p) => p.id === bastion.id) as { members: unknown[] };
    const direct = body(await call('GET', `/parties/${bastion.id}/members`, gm)).data;
    expect(withMembers.members).toEqual(direct);
    expect(withMembers.members).toHaveLength(2);
    // The player sees their own email and not the GM's, as in GET parties/{id}/members.
    const asPlayer = body(await call('GET', '/parties?include=members', player)).data[0] as {
      members: { user_id: string; user: { email: string | null } }[];
    };
    const emails = Object.fromEntries(asPlayer.members.map((m) => [m.user_id, m.user.email]));
    expect(emails).toEqual({ [gm.user.id]: null, [player.user.id]: player.user.email });
    // Without include, no members key; a public party the caller has not joined keeps its members.
    expect(body(await call('GET', '/parties', gm)).data[0]).not.toHaveProperty('members');
    const { party: open } = await gmWithParty({ is_public: true, name: `Open ${Date.now()}` });
    const stranger = await createUser(ctx);
    const publicList = await call(
      'GET',
      `/parties?visibility=public&search=${open.name}&include=members`,
      stranger,
    );
    expect(body(publicList).data[0]).toMatchObject({ id: open.id });
    expect(body(publicList).data[0]).not.toHaveProperty('members');
  });

  it('refuses unknown sort keys, directions and includes with a VALIDATION_ERROR naming them', async () => {
    const gm = await createUser(ctx);
    for (const [query, field] of [
      ['sort=join_code', 'sort'],
      ['sort=name&direction=up', 'direction'],
      ['include=members,secrets', 'include'],
    ] as const) {
      const response = await call('GET', `/parties?${query}`, gm);
      expect(response.statusCode, query).toBe(422);
      expect(body(response).error.code).toBe('VALIDATION_ERROR');
      expect(body(response).error.details?.map((d) => d.field)).toEqual([field]);
    }
    expect(body(await call('GET', '/parties?sort=bogus', gm)).error.details?.[0]?.message).toBe(
      'sort must be one of: name, created_at, updated_at, game_system, member_count',
    );
    expect((await call('GET', '/parties?sort=name')).statusCode).toBe(401);
  });
});

describe('joining', () => {
  it('previews by code and joins; twice is a CONFLICT', async () => {
    const { party } = await gmWithParty({ name: 'Dragon Hunters' });
    const player = await createUser(ctx);
    const preview = await call('GET', `/parties/preview?join_code=${party.join_code?.toLowerCase()}`, player);
    expect(body(preview).data).toMatchObject({ name: 'Dragon Hunters', member_count: 1, is_member: false });
    const joined = await call('POST', '/parties/join', player, {
      join_code: party.join_code,
      role_request: 'player',
    });
    expect(joined.statusCode).toBe(200);
    expect(body(joined).message).toBe('Successfully joined party "Dragon Hunters"!');
    expect(body(joined).data).toMatchObject({ user_role: 'player', member_count: 2 });
    const again = await call('POST', '/parties/join', player, { join_code: party.join_code });
    expect(again.statusCode).toBe(409);
  });

  it('cleans a code as the join form does: upper-cased, separators dropped, before checking its length', async () => {
    const { party } = await gmWithParty({ name: 'Separated' });
    const code = String(party.join_code);
    const written = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`; // as shared: "qqeu-KWDT"
    const player = await createUser(ctx);
    const preview = await call(
      'GET',
      `/parties/preview?join_code=${encodeURIComponent(` ${written} `)}`,
      player,
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(body(preview).data).toMatchObject({ name: 'Separated' });
    const joined = await call('POST', '/parties/join', player, {
      join_code: written,
      role_request: 'player',
    });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(body(joined).data).toMatchObject({ user_role: 'player' });
    // Nine letters and digits are still one too many, however they are written.
    const long = await call('POST', '/parties/join', player, { join_code: 'ABCD-EFGH-J' });
    expect(long.statusCode).toBe(422);
    expect(body(long).error.details?.[0]?.message).toBe(partyMessages.joinCodeTooLong);
  });

  it('answers 404 for an unknown code and 422 for a malformed one', async () => {
    const player = await createUser(ctx);
    expect((await call('POST', '/parties/join', player, { join_code: 'ZZZZZZZZ' })).statusCode).toBe(404);
    const short = await call('POST', '/parties/join', player, { join_code: 'ABC' });
    expect(short.statusCode).toBe(422);
    expect(body(short).error.details?.[0]?.message).toBe(partyMessages.joinCodeTooShort);
    expect((await call('GET', '/parties/preview?join_code=ABCDEFGHIJ', player)).statusCode).toBe(422);
  });

  it('honours join_permission', async () => {
    const { party: limited } = await gmWithParty({ join_permission: 'limited' });
    const { party: full } = await gmWithParty({ join_permission: 'full' });
    const a = await createUser(ctx);
    const asManager = await call('POST', '/parties/join', a, {
      join_code: limited.join_code,
      role_request: 'manager',
    });
    expect(asManager.statusCode).toBe(422);
    expect(body(asManager).error.details?.[0]?.message).toBe(partyMessages.limitedRole);
    expect(
      (await call('POST', '/parties/join', a, { join_code: limited.join_code, role_request: 'observer' }))
        .statusCode,
    ).toBe(200);
    const b = await createUser(ctx);
    await upgrade(ctx, b, 'tier_1');
    expect(
      (await call('POST', '/parties/join', b, { join_code: full.join_code, role_request: 'manager' }))
        .statusCode,
    ).toBe(200);
  });

  it('stops working for the old code after regeneration', async () => {
    const { gm, party } = await gmWithParty();
    const regenerated = await call('POST', `/parties/${party.id}/regenerate_join_code`, gm);
    const newCode = body(regenerated).data.join_code;
    expect(newCode).not.toBe(party.join_code);
    const player = await createUser(ctx);
    expect((await call('POST', '/parties/join', player, { join_code: party.join_code })).statusCode).toBe(
      404,
    );
    expect((await call('POST', '/parties/join', player, { join_code: newCode })).statusCode).toBe(200);
    const notGm = await call('POST', `/parties/${party.id}/regenerate_join_code`, player);
    expect(notGm.statusCode).toBe(403);
  });

  it('lets exactly one of racing joins through at the parties_can_join limit', async () => {
    const parties = await Promise.all([1, 2, 3, 4].map(() => gmWithParty()));
    const player = await createUser(ctx); // Free: joins 1 party
    const responses = await Promise.all(
      parties.map(({ party }) => call('POST', '/parties/join', player, { join_code: party.join_code })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 403, 403, 403]);
    expect(
      responses.filter((r) => r.statusCode === 403).every((r) => body(r).error.code === 'LIMIT_EXCEEDED'),
    ).toBe(true);
  });

  it('generates codes of the right alphabet that do not collide', async () => {
    const { generateJoinCode } = await import('./join-codes.js');
    const codes = new Set(Array.from({ length: 5000 }, () => generateJoinCode()));
    expect(codes.size).toBe(5000);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });
});

describe('members and roles', () => {
  it('tells the GM alone whose plan in the party has Party collaboration, not which plan', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const free = await createMember(ctx, party, 'player');
    const adventurer = await createMember(ctx, party, 'player');
    await upgrade(ctx, adventurer, 'tier_1');
    const patron = await createMember(ctx, party, 'player');
    await upgrade(ctx, patron, 'tier_2');
    const sponsored = await createMember(ctx, party, 'player');
    const granted = await call('POST', '/patronages', patron, {
      beneficiary_id: sponsored.user.id,
      party_id: party.id,
    });
    expect(granted.statusCode).toBe(201);

    const listed = async (caller: SignedInUser) =>
      Object.fromEntries(
        body(await call('GET', `/parties/${party.id}/members`, caller)).data.map((m) => [
          m.user_id,
          m.party_collaboration,
        ]),
      );
    expect(await listed(gm)).toEqual({
      [gm.user.id]: false,
      [free.user.id]: false,
      [adventurer.user.id]: true,
      [patron.user.id]: true,
      [sponsored.user.id]: true,
    });
    for (const member of [free, patron, sponsored]) {
      expect(Object.values(await listed(member))).toEqual([null, null, null, null, null]);
    }
  });

  it('lets only the GM re-role and remove, and never the GM member', async () => {
    const { gm, party } = await gmWithParty();
    const player = await createMember(ctx, party, 'player');
    const manager = await createMember(ctx, party, 'manager');
    const observer = await createMember(ctx, party, 'observer');

    const members = body(await call('GET', `/parties/${party.id}/members`, player)).data;
    expect(members.map((m) => m.role)).toEqual(['gm', 'manager', 'player', 'observer']);
    // Addresses only for the GM and one's own row.
    expect(members.find((m) => m.user_id === gm.user.id)?.user).toMatchObject({ email: null });

    for (const actor of [player, manager, observer]) {
      const reroled = await call('PATCH', `/parties/${party.id}/members/${player.user.id}`, actor, {
        party_membership: { role: 'observer' },
      });
      expect(reroled.statusCode, 'non-GM re-role').toBe(403);
      expect(
        (await call('DELETE', `/parties/${party.id}/members/${observer.user.id}`, actor)).statusCode,
      ).toBe(403);
    }
    const ok = await call('PATCH', `/parties/${party.id}/members/${player.user.id}`, gm, {
      party_membership: { role: 'manager' },
    });
    expect(body(ok).data).toMatchObject({ role: 'manager' });
    const gmRerole = await call('PATCH', `/parties/${party.id}/members/${gm.user.id}`, gm, {
      party_membership: { role: 'player' },
    });
    expect(gmRerole.statusCode).toBe(403);
    expect(body(gmRerole).error.message).toBe(partyMessages.gmCannotBeReroled);
    const gmRemove = await call('DELETE', `/parties/${party.id}/members/${gm.user.id}`, gm);
    expect(body(gmRemove).error.message).toBe(partyMessages.gmCannotBeRemoved);
    const asGm = await call('PATCH', `/parties/${party.id}/members/${player.user.id}`, gm, {
      party_membership: { role: 'gm' },
    });
    expect(asGm.statusCode).toBe(422);

    expect((await call('DELETE', `/parties/${party.id}/members/${observer.user.id}`, gm)).statusCode).toBe(
      204,
    );
    expect((await call('GET', `/parties/${party.id}`, observer)).statusCode).toBe(404);
  });

  it('lets members leave but not the GM', async () => {
    const { gm, party } = await gmWithParty();
    const player = await createMember(ctx, party, 'player');
    const leaving = await call('DELETE', `/parties/${party.id}/leave`, gm);
    expect(body(leaving).error.message).toBe(partyMessages.gmCannotLeave);
    expect((await call('DELETE', `/parties/${party.id}/leave`, player)).statusCode).toBe(204);
    expect((await call('DELETE', `/parties/${party.id}/leave`, player)).statusCode).toBe(404);
  });

  it('hides members from non-members', async () => {
    const { party } = await gmWithParty({ is_public: true });
    const stranger = await createUser(ctx);
    expect((await call('GET', `/parties/${party.id}/members`, stranger)).statusCode).toBe(404);
  });
});

describe('editing, archiving and deleting', () => {
  it('lets only the GM edit, archive and delete', async () => {
    const { gm, party } = await gmWithParty();
    const player = await createMember(ctx, party, 'player');
    expect(
      (await call('PATCH', `/parties/${party.id}`, player, { party: { name: 'Hijacked' } })).statusCode,
    ).toBe(403);
    const edited = await call('PATCH', `/parties/${party.id}`, gm, {
      party: { name: 'Renamed', join_permission: 'restricted' },
    });
    expect(body(edited).data).toMatchObject({ name: 'Renamed', join_code: null });
    const reopened = await call('PATCH', `/parties/${party.id}`, gm, {
      party: { join_permission: 'limited' },
    });
    expect(String(body(reopened).data.join_code)).toHaveLength(8);

    expect((await call('POST', `/parties/${party.id}/archive`, player)).statusCode).toBe(403);
    const archived = await call('POST', `/parties/${party.id}/archive`, gm);
    expect(body(archived).data.is_archived).toBe(true);
    expect(
      (await call('PATCH', `/parties/${party.id}`, gm, { party: { name: 'While archived' } })).statusCode,
    ).toBe(403);
    expect(body(await call('POST', `/parties/${party.id}/unarchive`, gm)).data.is_archived).toBe(false);

    expect((await call('DELETE', `/parties/${party.id}`, player)).statusCode).toBe(403);
    expect((await call('DELETE', `/parties/${party.id}`, gm)).statusCode).toBe(204);
    expect((await call('GET', `/parties/${party.id}`, gm)).statusCode).toBe(404);
  });
});

describe('the GM-only refusal', () => {
  // One wording for every GM-only call, the party's as the loot's (spec review: two wordings).
  it('says "Only the GM can do this." on every GM-only party call, to every other role', async () => {
    const { party } = await gmWithParty();
    const target = await createMember(ctx, party, 'player');
    const guest = await createUser(ctx);
    const calls: [ApiMethod, string, unknown?][] = [
      ['PATCH', `/parties/${party.id}`, { party: { name: 'Hijacked' } }],
      ['POST', `/parties/${party.id}/regenerate_join_code`],
      ['POST', `/parties/${party.id}/archive`],
      ['PATCH', `/parties/${party.id}/members/${target.user.id}`, { party_membership: { role: 'observer' } }],
      ['DELETE', `/parties/${party.id}/members/${target.user.id}`],
      ['DELETE', `/parties/${party.id}`],
      ['POST', `/parties/${party.id}/invitations`, { party_invitation: { username: guest.user.username } }],
      ['GET', `/parties/${party.id}/invitations`],
      ['DELETE', `/parties/${party.id}/invitations/00000000-0000-4000-8000-000000000000`],
    ];
    for (const role of ['manager', 'player', 'observer'] as const) {
      const member = await createMember(ctx, party, role);
      for (const [method, url, payload] of calls) {
        const refused = await call(method, url, member, payload);
        expect(refused.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(body(refused).error, `${role} ${method} ${url}`).toMatchObject({
          code: 'FORBIDDEN',
          message: 'Only the GM can do this.',
        });
      }
    }
  });
});

describe('invitations', () => {
  it('is the only way into a restricted party', async () => {
    const { gm, party } = await gmWithParty({ join_permission: 'restricted' });
    const guest = await createUser(ctx);
    const invited = await call('POST', `/parties/${party.id}/invitations`, gm, {
      party_invitation: { username: guest.user.username.toUpperCase(), role: 'player' },
    });
    expect(invited.statusCode).toBe(201);
    expect(
      (
        await call('POST', `/parties/${party.id}/invitations`, gm, {
          party_invitation: { email: guest.user.email },
        })
      ).statusCode,
    ).toBe(409);
    const mine = body(await call('GET', '/invitations', guest)).data;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      party_name: party.name,
      role: 'player',
      invited_by: { username: gm.user.username },
    });
    const accepted = await call('POST', `/invitations/${mine[0]?.id}/accept`, guest);
    expect(body(accepted).data).toMatchObject({ user_role: 'player', is_member: true });
    expect((await call('POST', `/invitations/${mine[0]?.id}/accept`, guest)).statusCode).toBe(409);
  });

  it('refuses unknown invitees and members, and lets the GM revoke', async () => {
    const { gm, party } = await gmWithParty();
    const player = await createMember(ctx, party, 'player');
    expect(
      (
        await call('POST', `/parties/${party.id}/invitations`, gm, {
          party_invitation: { username: 'nobody_here' },
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await call('POST', `/parties/${party.id}/invitations`, gm, {
          party_invitation: { username: player.user.username },
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await call('POST', `/parties/${party.id}/invitations`, gm, { party_invitation: {} })).statusCode,
    ).toBe(422);
    const guest = await createUser(ctx);
    expect(
      (
        await call('POST', `/parties/${party.id}/invitations`, player, {
          party_invitation: { username: guest.user.username },
        })
      ).statusCode,
    ).toBe(403);
    const invitation = body(
      await call('POST', `/parties/${party.id}/invitations`, gm, {
        party_invitation: { username: guest.user.username },
      }),
    ).data;
    expect(body(await call('GET', `/parties/${party.id}/invitations`, gm)).data).toHaveLength(1);
    expect((await call('DELETE', `/parties/${party.id}/invitations/${invitation.id}`, gm)).statusCode).toBe(
      204,
    );
    expect(body(await call('GET', '/invitations', guest)).data).toHaveLength(0);
    expect((await call('POST', `/invitations/${invitation.id}/accept`, guest)).statusCode).toBe(409);
  });

  it('lets the invitee decline, and nobody else answer', async () => {
    const { gm, party } = await gmWithParty();
    const guest = await createUser(ctx);
    const other = await createUser(ctx);
    const invitation = body(
      await call('POST', `/parties/${party.id}/invitations`, gm, {
        party_invitation: { username: guest.user.username },
      }),
    ).data;
    expect((await call('POST', `/invitations/${invitation.id}/accept`, other)).statusCode).toBe(404);
    expect((await call('POST', `/invitations/${invitation.id}/decline`, guest)).statusCode).toBe(204);
    expect((await call('GET', `/parties/${party.id}`, guest)).statusCode).toBe(404);
  });
});

describe('an archived party and a second GM', () => {
  it('answers an archived party’s join code as unknown and its pending invitation as gone', async () => {
    const { gm, party } = await gmWithParty();
    const guest = await createUser(ctx);
    const invitation = body(
      await call('POST', `/parties/${party.id}/invitations`, gm, {
        party_invitation: { username: guest.user.username },
      }),
    ).data;
    expect((await call('POST', `/parties/${party.id}/archive`, gm)).statusCode).toBe(200);
    const preview = await call('GET', `/parties/preview?join_code=${party.join_code}`, guest);
    expect(preview.statusCode).toBe(404);
    expect(body(preview).error.message).toBe(partyMessages.joinCodeInvalid);
    const joined = await call('POST', '/parties/join', guest, { join_code: party.join_code });
    expect(joined.statusCode).toBe(404);
    const accepted = await call('POST', `/invitations/${invitation.id}/accept`, guest);
    expect(accepted.statusCode).toBe(409);
    expect(body(accepted).error.message).toBe(partyMessages.invitationGone);
    expect((await call('GET', `/parties/${party.id}`, guest)).statusCode).toBe(404);
  });

  it('lets only the party’s creator delete it, not another GM member', async () => {
    const { gm, party } = await gmWithParty();
    const coGm = await createMember(ctx, party, 'gm');
    const refused = await call('DELETE', `/parties/${party.id}`, coGm);
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error.message).toBe('Only the party’s creator can delete it.');
    expect((await call('GET', `/parties/${party.id}`, gm)).statusCode).toBe(200);
  });
});
