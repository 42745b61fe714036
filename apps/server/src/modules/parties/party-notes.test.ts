import { PARTY_NOTES_MAX_LENGTH, type PartyNotes, partyNotesMessages } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createParty, createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';

interface Answer {
  data: PartyNotes;
  message?: string;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const read = (user: SignedInUser | undefined, partyId: string) =>
  callApi(ctx, 'GET', `/parties/${partyId}/notes`, user);
const save = (user: SignedInUser | undefined, partyId: string, notes: string, version: number) =>
  callApi(ctx, 'PATCH', `/parties/${partyId}/notes`, user, { party_notes: { notes, version } });

async function table(overrides: { is_public?: boolean } = {}) {
  const gm = await createUser(ctx);
  const party = await createParty(ctx, gm, overrides);
  const player = await createMember(ctx, party, 'player');
  return { gm, party, player };
}

describe('GET/PATCH parties/{id}/notes (issue 14)', () => {
  it('starts empty and keeps what a member saves, with the last editor and time, for every member', async () => {
    const { gm, party, player } = await table();
    const empty = await read(gm, party.id);
    expect(empty.statusCode).toBe(200);
    expect(json<Answer>(empty).data).toEqual({
      notes: '',
      version: 0,
      updated_at: null,
      updated_by: null,
      can_edit: true,
    });

    const saved = await save(player, party.id, 'The innkeeper owes us 30 gp.\nAsk about the map.', 0);
    expect(saved.statusCode).toBe(200);
    expect(json<Answer>(saved).message).toBe(partyNotesMessages.saved);
    expect(json<Answer>(saved).data).toMatchObject({
      notes: 'The innkeeper owes us 30 gp.\nAsk about the map.',
      version: 1,
      updated_by: { id: player.user.id, username: player.user.username },
    });

    const seenByGm = json<Answer>(await read(gm, party.id)).data;
    expect(seenByGm).toMatchObject({ version: 1, updated_by: { username: player.user.username } });
    expect(Date.parse(seenByGm.updated_at ?? '')).toBeGreaterThan(Date.now() - 60_000);

    const byGm = await save(gm, party.id, `${seenByGm.notes}\nThe map is fake.`, 1);
    expect(json<Answer>(byGm).data).toMatchObject({ version: 2, updated_by: { id: gm.user.id } });
  });

  it('refuses a save based on an older version with CONFLICT naming the last editor, and keeps theirs', async () => {
    const { gm, party, player } = await table();
    expect((await save(gm, party.id, 'Session 1: goblins', 0)).statusCode).toBe(200);
    // The player started from version 0 too, before the GM's save.
    const stale = await save(player, party.id, 'Session 1: kobolds', 0);
    expect(stale.statusCode).toBe(409);
    expect(json<Answer>(stale).error).toMatchObject({
      code: 'CONFLICT',
      message: partyNotesMessages.conflict(gm.user.username),
    });
    expect(json<Answer>(await read(player, party.id)).data).toMatchObject({
      notes: 'Session 1: goblins',
      version: 1,
    });
  });

  it('answers a save from a version the notes never had with CONFLICT, however large, and keeps them', async () => {
    const { gm, party, player } = await table();
    expect((await save(gm, party.id, 'Session 1: goblins', 0)).statusCode).toBe(200);
    // Past the version column's range (a 4-byte integer) as well as inside it: never a server error.
    for (const version of [7, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const ahead = await save(player, party.id, 'Session 1: kobolds', version);
      expect(ahead.statusCode, `version ${version}: ${ahead.body}`).toBe(409);
      expect(json<Answer>(ahead).error).toMatchObject({
        code: 'CONFLICT',
        message: partyNotesMessages.conflict(gm.user.username),
      });
    }
    expect(json<Answer>(await read(player, party.id)).data).toMatchObject({
      notes: 'Session 1: goblins',
      version: 1,
    });
  });

  it('lets exactly one of two saves from the same version win', async () => {
    const { gm, party, player } = await table();
    const answers = await Promise.all([
      save(gm, party.id, 'from the GM', 0),
      save(player, party.id, 'from the player', 0),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const kept = json<Answer>(await read(gm, party.id)).data;
    const winner = answers.find((a) => a.statusCode === 200);
    expect(kept).toMatchObject({ version: 1, notes: winner ? json<Answer>(winner).data.notes : '?' });
  });

  it('accepts saving the text already there from any version, without a new version', async () => {
    const { gm, party, player } = await table();
    await save(gm, party.id, 'Same words', 0);
    const again = await save(player, party.id, 'Same words', 0);
    expect(again.statusCode).toBe(200);
    expect(json<Answer>(again).data).toMatchObject({ version: 1, updated_by: { id: gm.user.id } });
  });

  it('refuses notes past the limit with a VALIDATION_ERROR naming the field', async () => {
    const { gm, party } = await table();
    const tooLong = await save(gm, party.id, 'x'.repeat(PARTY_NOTES_MAX_LENGTH + 1), 0);
    expect(tooLong.statusCode).toBe(422);
    expect(json<Answer>(tooLong).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(json<Answer>(tooLong).error.details).toContainEqual({
      field: 'party_notes.notes',
      message: partyNotesMessages.tooLong,
    });
    expect((await save(gm, party.id, 'x'.repeat(PARTY_NOTES_MAX_LENGTH), 0)).statusCode).toBe(200);
    const noVersion = await callApi(ctx, 'PATCH', `/parties/${party.id}/notes`, gm, {
      party_notes: { notes: 'hi' },
    });
    expect(noVersion.statusCode).toBe(422);
  });

  it('lets observers read but not change them, and freezes them while the party is archived', async () => {
    const { gm, party } = await table();
    const observer = await createMember(ctx, party, 'observer');
    expect(json<Answer>(await read(observer, party.id)).data.can_edit).toBe(false);
    const refused = await save(observer, party.id, 'I was here', 0);
    expect(refused.statusCode).toBe(403);
    expect(json<Answer>(refused).error.message).toBe(partyNotesMessages.observer);

    await callApi(ctx, 'POST', `/parties/${party.id}/archive`, gm);
    expect(json<Answer>(await read(gm, party.id)).data.can_edit).toBe(false);
    const archived = await save(gm, party.id, 'Too late', 0);
    expect(archived.statusCode).toBe(403);
    expect(json<Answer>(archived).error.code).toBe('FORBIDDEN');
  });

  it('refuses non-members (404 private, 403 public), anonymous callers (401) and malformed ids (422)', async () => {
    const { party: hidden } = await table();
    const { party: open } = await table({ is_public: true });
    const stranger = await createUser(ctx);
    expect((await read(stranger, hidden.id)).statusCode).toBe(404);
    expect((await save(stranger, hidden.id, 'hello', 0)).statusCode).toBe(404);
    const publicRead = await read(stranger, open.id);
    expect(publicRead.statusCode).toBe(403);
    expect(json<Answer>(publicRead).error.message).toBe(partyNotesMessages.membersOnly);
    expect((await save(stranger, open.id, 'hello', 0)).statusCode).toBe(403);
    expect((await read(undefined, open.id)).statusCode).toBe(401);
    expect((await save(undefined, open.id, 'hello', 0)).statusCode).toBe(401);
    expect((await read(stranger, crypto.randomUUID())).statusCode).toBe(404);
    expect((await read(stranger, 'not-an-id')).statusCode).toBe(422);
  });
});
