import type { Character, Container } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { characters } from '../../db/schema/characters.js';
import { containers } from '../../db/schema/inventory.js';
import { createParty, createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { watchLocks } from '../../test/lock-watch.js';
import { inventoryRepository } from './inventory.repository.js';

/**
 * The attack review of 2026-11-30: a character deleted by its player while they added a container to it
 * answered the new container 500, its foreign key meeting the character deleted after the request had
 * found it; so did a stash added to a party its GM deleted at the same moment. Several connections and real row locks are needed to see it, so PostgreSQL only (on PGlite one
 * transaction runs at a time). The deletion is a real request, sent once the new container's request has
 * found the character and is about to write the container.
 */
let ctx: TestContext;
/** Tells whether the deletion had to wait for the request's locks. */
let locks: Awaited<ReturnType<typeof watchLocks>>;
let player: SignedInUser;

beforeAll(async () => {
  ctx = await buildTestApp();
  locks = await watchLocks(ctx);
  player = await createUser(ctx);
});
afterAll(async () => {
  await locks.close();
  await ctx.close();
});

/** Sends the deletion and waits until it has answered, or waits on a lock the caller's transaction holds. */
async function deleteCharacterNow(characterId: string) {
  return deleteNow(`/characters/${characterId}`);
}

async function deleteNow(path: string) {
  return locks.sendUntilAnsweredOrWaiting(() => callApi(ctx, 'DELETE', path, player));
}

describe('a character deleted while its player adds a container to it', () => {
  it('adds the container, and then deletes the character with every container it has', async () => {
    const created = await callApi(ctx, 'POST', '/characters', player, { character: { name: 'Doomed' } });
    expect(created.statusCode, created.body).toBe(201);
    const character = created.json().data as Character;
    let deletion: Awaited<ReturnType<typeof deleteCharacterNow>> | undefined;
    const insert = inventoryRepository.insertContainer.bind(inventoryRepository);
    const inserts = vi
      .spyOn(inventoryRepository, 'insertContainer')
      .mockImplementation(async (db, values) => {
        deletion ??= await deleteCharacterNow(character.id);
        return insert(db, values);
      });
    let added: LightMyRequestResponse;
    try {
      added = await callApi(ctx, 'POST', `/characters/${character.id}/containers`, player, {
        container: { name: 'Saddlebag' },
      });
    } finally {
      inserts.mockRestore();
    }
    expect(added.statusCode, added.body).toBe(201);
    expect(deletion?.outcome).toBe('waited');
    expect((await deletion?.answer)?.statusCode).toBe(204);
    expect((added.json().data as Container).name).toBe('Saddlebag');
    expect(await ctx.database.db.select().from(characters).where(eq(characters.id, character.id))).toEqual(
      [],
    );
    expect(
      await ctx.database.db.select().from(containers).where(eq(containers.characterId, character.id)),
    ).toEqual([]);
  });
});

describe('a party deleted while its GM adds a stash to it', () => {
  it('adds the stash, and then deletes the party with it', async () => {
    await upgrade(ctx, player, 'tier_3');
    const doomed = await createParty(ctx, player);
    let deletion: Awaited<ReturnType<typeof deleteNow>> | undefined;
    const insert = inventoryRepository.insertContainer.bind(inventoryRepository);
    const inserts = vi
      .spyOn(inventoryRepository, 'insertContainer')
      .mockImplementation(async (db, values) => {
        deletion ??= await deleteNow(`/parties/${doomed.id}`);
        return insert(db, values);
      });
    let added: LightMyRequestResponse;
    try {
      added = await callApi(ctx, 'POST', `/parties/${doomed.id}/containers`, player, {
        container: { name: 'Stash' },
      });
    } finally {
      inserts.mockRestore();
    }
    expect(added.statusCode, added.body).toBe(201);
    expect(deletion?.outcome).toBe('waited');
    const deleted = await deletion?.answer;
    expect(deleted?.statusCode, deleted?.body).toBe(204);
    expect(await ctx.database.db.select().from(containers).where(eq(containers.partyId, doomed.id))).toEqual(
      [],
    );
  });
});
