import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresence } from './presence.js';

// Runs where Redis runs (the PostgreSQL pass). Each test uses a party id of its own and deletes only its
// own keys: other tests and agents may share this Redis.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('presence kept in Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await redis.quit();
  });

  const keysOf = (partyId: string) => [
    `haversack:presence:${partyId}`,
    `haversack:presence-names:${partyId}`,
  ];

  // Reviewer "multiproc" finding 7: the names hash was left behind for every party ever seen online.
  it('leaves no key behind once everyone has left, names included', async () => {
    const partyId = randomUUID();
    const presence = new RedisPresence(redis);
    const arwen = { id: randomUUID(), username: 'arwen' };
    const boromir = { id: randomUUID(), username: 'boromir' };
    try {
      expect((await presence.join(partyId, arwen)).changed).toBe(true);
      // A second tab of the same user.
      expect((await presence.join(partyId, arwen)).changed).toBe(false);
      expect((await presence.join(partyId, boromir)).online).toEqual(
        expect.arrayContaining([arwen, boromir]),
      );

      expect((await presence.leave(partyId, arwen)).changed).toBe(false);
      const boromirLeft = await presence.leave(partyId, boromir);
      expect(boromirLeft).toEqual({ changed: true, online: [arwen] });
      // The one who left is forgotten, names too; the one still online keeps their name.
      expect(await redis.hkeys(`haversack:presence-names:${partyId}`)).toEqual([arwen.id]);

      expect(await presence.leave(partyId, arwen)).toEqual({ changed: true, online: [] });
      expect(await redis.exists(...keysOf(partyId))).toBe(0);
    } finally {
      await redis.del(...keysOf(partyId));
    }
  });

  it('keeps the name of a user who joins on another process while their last tab leaves', async () => {
    const partyId = randomUUID();
    const arwen = { id: randomUUID(), username: 'arwen' };
    const [here, there] = [new RedisPresence(redis), new RedisPresence(redis)];
    try {
      await here.join(partyId, arwen);
      await Promise.all([here.leave(partyId, arwen), there.join(partyId, arwen)]);
      expect(await there.online(partyId)).toEqual([arwen]);
    } finally {
      await redis.del(...keysOf(partyId));
    }
  });
});
