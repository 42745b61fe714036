import type { Character } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { characters } from '../../db/schema/characters.js';
import {
  createCharacter,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { watchLocks } from '../../test/lock-watch.js';
import { charactersRepository } from './characters.repository.js';

/**
 * The attack review of 2026-11-30: a character made in a party (or moved into one) while its GM deleted the
 * party answered 500, its foreign key meeting the party deleted after the request had found it. Several
 * connections and real row locks are needed to see it, so PostgreSQL only (on PGlite one transaction runs at
 * a time). The deletion is a real request, sent once the character's request has found the party and is
 * about to write what refers to it.
 */
let ctx: TestContext;
/** Tells whether the deletion had to wait for the request's locks. */
let locks: Awaited<ReturnType<typeof watchLocks>>;
let gm: SignedInUser;

beforeAll(async () => {
  ctx = await buildTestApp();
  locks = await watchLocks(ctx);
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
});
afterAll(async () => {
  await locks.close();
  await ctx.close();
});

/** Sends the party's deletion and waits until it has answered, or waits on a lock the caller's request holds. */
async function deletePartyNow(partyId: string) {
  return locks.sendUntilAnsweredOrWaiting(() => callApi(ctx, 'DELETE', `/parties/${partyId}`, gm));
}

/** Runs `request`, deleting the party once the request reaches `method` of the characters' repository. */
async function raceDeletion(
  partyId: string,
  method: 'insert' | 'lockContainersOf',
  request: () => Promise<LightMyRequestResponse>,
) {
  let deletion: Awaited<ReturnType<typeof deletePartyNow>> | undefined;
  const original = charactersRepository[method].bind(charactersRepository) as (
    ...args: unknown[]
  ) => Promise<unknown>;
  const spy = vi.spyOn(charactersRepository, method).mockImplementation((async (...args: unknown[]) => {
    deletion ??= await deletePartyNow(partyId);
    return original(...args);
  }) as never);
  try {
    const answer = await request();
    return { answer, deletion };
  } finally {
    spy.mockRestore();
  }
}

async function partyOf(characterId: string) {
  const [row] = await ctx.database.db
    .select({ partyId: characters.partyId })
    .from(characters)
    .where(eq(characters.id, characterId));
  return row?.partyId;
}

describe('a party deleted while a character comes into it', () => {
  it('makes the character in the party, and then the deletion lets it go with its gear', async () => {
    const doomed = await createParty(ctx, gm);
    const { answer, deletion } = await raceDeletion(doomed.id, 'insert', () =>
      callApi(ctx, 'POST', '/characters', gm, { character: { name: 'Newcomer', party_id: doomed.id } }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    expect(deletion?.outcome).toBe('waited');
    const deleted = await deletion?.answer;
    expect(deleted?.statusCode, deleted?.body).toBe(204);
    expect(await partyOf((answer.json().data as Character).id)).toBeNull();
  });

  it('moves a character into the party, and then the deletion lets it go again', async () => {
    const doomed = await createParty(ctx, gm);
    const hero = await createCharacter(ctx, gm, { name: 'Wanderer' });
    const { answer, deletion } = await raceDeletion(doomed.id, 'lockContainersOf', () =>
      callApi(ctx, 'PATCH', `/characters/${hero.id}`, gm, { character: { party_id: doomed.id } }),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(deletion?.outcome).toBe('waited');
    const deleted = await deletion?.answer;
    expect(deleted?.statusCode, deleted?.body).toBe(204);
    expect(await partyOf(hero.id)).toBeNull();
  });
});
