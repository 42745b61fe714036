import type { Redis } from 'ioredis';

export interface OnlineUser {
  id: string;
  username: string;
}

/**
 * Who is connected to a party (spec/02 §7 presence_update). Several tabs of one user count once: a user
 * is online while any of their connections is subscribed.
 */
export interface Presence {
  /** Returns whether the user just came online, and who is online now. */
  join(partyId: string, user: OnlineUser): Promise<{ changed: boolean; online: OnlineUser[] }>;
  leave(partyId: string, user: OnlineUser): Promise<{ changed: boolean; online: OnlineUser[] }>;
  online(partyId: string): Promise<OnlineUser[]>;
}

export class InProcessPresence implements Presence {
  readonly #parties = new Map<string, Map<string, { user: OnlineUser; connections: number }>>();

  async join(partyId: string, user: OnlineUser) {
    let members = this.#parties.get(partyId);
    if (!members) {
      members = new Map();
      this.#parties.set(partyId, members);
    }
    const entry = members.get(user.id) ?? { user, connections: 0 };
    entry.connections += 1;
    members.set(user.id, entry);
    return { changed: entry.connections === 1, online: await this.online(partyId) };
  }

  async leave(partyId: string, user: OnlineUser) {
    const members = this.#parties.get(partyId);
    const entry = members?.get(user.id);
    if (!members || !entry) return { changed: false, online: await this.online(partyId) };
    entry.connections -= 1;
    const changed = entry.connections <= 0;
    if (changed) members.delete(user.id);
    if (members.size === 0) this.#parties.delete(partyId);
    return { changed, online: await this.online(partyId) };
  }

  async online(partyId: string) {
    return [...(this.#parties.get(partyId)?.values() ?? [])].map((e) => e.user);
  }
}

/**
 * A join: the user's name, then one more connection. One script, so that a leave on another process
 * cannot run between the two.
 */
const joinScript = `redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return redis.call('HINCRBY', KEYS[1], ARGV[1], 1)`;

/**
 * A leave: one connection fewer; at none, the user is forgotten, name included, so a party's hashes go
 * (Redis deletes an empty hash) once everyone has left, rather than a names hash per party ever seen.
 */
const leaveScript = `local count = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if count <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
return count`;

/** The same, shared by every process through Redis hashes (connection counts and names per party). */
export class RedisPresence implements Presence {
  constructor(private readonly redis: Redis) {}

  #keys(partyId: string) {
    return { counts: `haversack:presence:${partyId}`, names: `haversack:presence-names:${partyId}` };
  }

  async join(partyId: string, user: OnlineUser) {
    const keys = this.#keys(partyId);
    const count = Number(
      await this.redis.eval(joinScript, 2, keys.counts, keys.names, user.id, user.username),
    );
    return { changed: count === 1, online: await this.online(partyId) };
  }

  async leave(partyId: string, user: OnlineUser) {
    const keys = this.#keys(partyId);
    const count = Number(await this.redis.eval(leaveScript, 2, keys.counts, keys.names, user.id));
    return { changed: count <= 0, online: await this.online(partyId) };
  }

  async online(partyId: string) {
    const keys = this.#keys(partyId);
    const counts = await this.redis.hgetall(keys.counts);
    const ids = Object.entries(counts)
      .filter(([, n]) => Number(n) > 0)
      .map(([id]) => id);
    if (ids.length === 0) return [];
    const names = await this.redis.hmget(keys.names, ...ids);
    return ids.map((id, i) => ({ id, username: names[i] ?? '' }));
  }
}
