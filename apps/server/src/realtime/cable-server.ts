import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import { NOTIFICATIONS_CHANNEL } from '@haversack/contracts';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { FixedWindowLimiter } from '../lib/fixed-window-limiter.js';
import type { AccessTokens } from '../modules/accounts/access-tokens.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { partiesRepository } from '../modules/parties/parties.repository.js';
import type { Broadcaster } from './broadcaster.js';
import {
  type ChannelName,
  SESSIONS_STREAM,
  type SessionEndCause,
  type SessionsEndedMessage,
  streamName,
  userNoticesStream,
} from './events.js';
import { Outbox, textFrame } from './outbox.js';
import type { OnlineUser, Presence } from './presence.js';

/** This process's open sockets and the streams they follow (each stream counted once). */
export interface CableStats {
  connections: number;
  streams: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    cableStats(): CableStats;
  }
}

export const CABLE_PROTOCOL = 'actioncable-v1-json';
const PING_INTERVAL_MS = 3_000;

/**
 * A member whose last PartyChannel subscription ends stays online this long. A page reload, a move to a
 * screen without the party's channels and back, or a dropped connection returns within it and finds the
 * member still counted, so the others see neither "left the party" nor "joined the party" for it.
 */
export const PRESENCE_LEAVE_GRACE_MS = 5_000;

export interface CableLimits {
  connectionsPerUser: number;
  maxMessageBytes: number;
  subscribesPer10s: number;
  /** Commands of any kind one connection may send in 10 s; past it the connection is closed. */
  commandsPer10s: number;
  /** Subscriptions one connection may hold at once, those still being checked included. */
  subscriptionsPerConnection: number;
}
export const defaultCableLimits: CableLimits = {
  connectionsPerUser: 12,
  maxMessageBytes: 16 * 1024,
  subscribesPer10s: 30,
  // The official client sends a subscribe and an unsubscribe per screen, and a test_connection when asked.
  commandsPer10s: 200,
  subscriptionsPerConnection: 50,
};

// Exactly these two keys: an identifier with any other key is refused, so that extra keys cannot open a
// second feed of one stream (review F7).
const identifierSchema = z.union([
  z.strictObject({
    channel: z.enum(['PartyChannel', 'PartyInventoryChannel']),
    party_id: z.uuid(),
  }),
  // The user's own notices: no parameters, the stream is the socket's user's.
  z.strictObject({ channel: z.literal(NOTIFICATIONS_CHANNEL) }),
]);

const commandSchema = z.object({
  command: z.enum(['subscribe', 'unsubscribe', 'message']),
  identifier: z.string().max(500),
  data: z.string().max(8_000).optional(),
});

type SubscribedChannel = ChannelName | typeof NOTIFICATIONS_CHANNEL;

interface ParsedIdentifier {
  channel: SubscribedChannel;
  partyId: string;
  /** One subscription per key and connection, however the identifier is spelled. */
  key: string;
}

function parseIdentifier(identifier: string): ParsedIdentifier | undefined {
  try {
    const parsed = identifierSchema.parse(JSON.parse(identifier));
    if (parsed.channel === NOTIFICATIONS_CHANNEL)
      return { channel: parsed.channel, partyId: '', key: NOTIFICATIONS_CHANNEL };
    // Events name parties in lower case; an upper-case spelling is the same party and the same stream.
    const partyId = parsed.party_id.toLowerCase();
    return { channel: parsed.channel, partyId, key: `${parsed.channel}:${partyId}` };
  } catch {
    return undefined;
  }
}

interface Subscription {
  connection: Connection;
  /** As the client sent it: Action Cable echoes it in every message, so the client can route them. */
  identifier: string;
  channel: SubscribedChannel;
  /** Empty on the user's own NotificationsChannel. */
  partyId: string;
  role: string;
  /** Null while the membership check runs: the key is already held, so a second subscribe waits or fails. */
  stop: (() => void) | null;
}

interface Connection {
  id: string;
  socket: WebSocket;
  user: OnlineUser;
  sessionId: string;
  /** The access token's expiry, in epoch milliseconds. */
  expiresAt: number;
  /** By ParsedIdentifier.key. */
  subscriptions: Map<string, Subscription>;
  released: boolean;
}

interface BroadcastMessage {
  action?: string;
  gmOnly?: boolean;
  userId?: string;
  ids?: Record<string, string | null>;
  [key: string]: unknown;
}

/**
 * What a socket of /cable emits as 'error' (and what its handler throws). A frame the protocol refuses
 * (too big, not UTF-8, a bad opcode...) is ws's WS_ERR_* error: any client can send one, and ws has already
 * closed the socket with the matching code (1009, 1007, 1002), so it is a warning without a stack, not an
 * error that one client could repeat until the error log is full. Anything else stays an error.
 */
export function onCableSocketError(
  error: Error & { code?: unknown },
  socket: Pick<WebSocket, 'terminate'>,
  request: { log: Pick<FastifyBaseLogger, 'warn' | 'error'> },
): void {
  if (typeof error.code === 'string' && error.code.startsWith('WS_ERR_')) {
    request.log.warn({ ws_error: error.code }, `cable frame refused: ${error.message}`);
  } else {
    request.log.error(error);
  }
  socket.terminate();
}

/**
 * The Action Cable protocol at /cable (DESIGN §6), for the official @rails/actioncable client: welcome,
 * pings every 3 s, subscribe/confirm/reject, broadcasts, and disconnect with a reason.
 */
export const cablePlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      db: Database;
      accessTokens: AccessTokens;
      accounts: AccountsService;
      broadcaster: Broadcaster;
      presence: Presence;
      limits?: CableLimits;
      presenceLeaveGraceMs?: number;
    },
  ) => {
    const limits = options.limits ?? defaultCableLimits;
    const presenceLeaveGraceMs = options.presenceLeaveGraceMs ?? PRESENCE_LEAVE_GRACE_MS;
    const connections = new Set<Connection>();
    const perUser = new Map<string, number>();
    const bySession = new Map<string, Set<Connection>>();

    let pinger: NodeJS.Timeout | undefined;
    let stopSessions: (() => void) | undefined;
    let stopResumed: (() => void) | undefined;
    let closing = false;
    /** Leaves waiting out their grace, each of which runs at once when called. */
    const pendingLeaves = new Set<() => void>();
    await app.register(websocket, {
      // Shutdown: tell every client to come back (to another process, or this one once it restarts).
      preClose: async function closeCable(this: FastifyInstance) {
        if (pinger) clearInterval(pinger);
        stopSessions?.();
        stopResumed?.();
        // Nobody comes back to a process that is stopping: its members go offline now, not after a grace.
        closing = true;
        for (const leaveNow of [...pendingLeaves]) leaveNow();
        for (const connection of [...connections]) disconnect(connection.socket, 'server_restart', true);
        await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
      },
      errorHandler: (error, socket, request) => onCableSocketError(error, socket, request),
      options: {
        // No compression: a frame shared by thousands of sockets would be deflated once per socket.
        perMessageDeflate: false,
        maxPayload: limits.maxMessageBytes,
        handleProtocols: (protocols) => (protocols.has(CABLE_PROTOCOL) ? CABLE_PROTOCOL : false),
      },
    });

    /** Broadcasts and pings: frames built once and shared by many sockets, written in slices. */
    const outbox = new Outbox();
    /** A message for this socket alone, after whatever the outbox holds for it. */
    const send = (socket: WebSocket, message: unknown) => {
      if (socket.readyState !== socket.OPEN) return;
      outbox.flush(socket);
      socket.send(JSON.stringify(message));
    };
    const disconnect = (
      socket: WebSocket,
      reason: string,
      reconnect: boolean,
      sessionEnd?: SessionEndCause,
    ) => {
      send(socket, {
        type: 'disconnect',
        reason,
        reconnect,
        ...(sessionEnd ? { session_end: sessionEnd } : {}),
      });
      socket.close(1000, reason);
    };

    const announcePresence = async (partyId: string, user: OnlineUser, change: 'joined' | 'left') => {
      const result =
        change === 'joined'
          ? await options.presence.join(partyId, user)
          : await options.presence.leave(partyId, user);
      if (!result.changed) return;
      const payload = {
        online_users: result.online,
        change_type: change,
        user_id: user.id,
        actor: { id: user.id, name: user.username },
      };
      await options.broadcaster.publish(streamName('PartyInventoryChannel', partyId), {
        action: 'presence_update',
        ...payload,
      });
      await options.broadcaster.publish(streamName('PartyChannel', partyId), {
        action: 'presence_changed',
        ...payload,
      });
    };

    // A leave is not awaited by anyone (a socket that closed): a Redis that ends under it (an outage, the
    // shutdown) rejects its commands, and an unhandled rejection would end the process.
    const announceLeave = (partyId: string, user: OnlineUser) => {
      announcePresence(partyId, user, 'left').catch((error: unknown) =>
        app.log.warn({ err: error, partyId }, 'presence leave failed'),
      );
    };

    const leaveAfterGrace = (partyId: string, user: OnlineUser) => {
      if (closing) return announceLeave(partyId, user);
      const leaveNow = () => {
        clearTimeout(timer);
        pendingLeaves.delete(leaveNow);
        announceLeave(partyId, user);
      };
      const timer = setTimeout(leaveNow, presenceLeaveGraceMs);
      timer.unref();
      pendingLeaves.add(leaveNow);
    };

    const register = (connection: Connection) => {
      connections.add(connection);
      perUser.set(connection.user.id, (perUser.get(connection.user.id) ?? 0) + 1);
      const sessions = bySession.get(connection.sessionId) ?? new Set<Connection>();
      sessions.add(connection);
      bySession.set(connection.sessionId, sessions);
    };

    const drop = (connection: Connection, key: string, notify: boolean) => {
      const subscription = connection.subscriptions.get(key);
      if (!subscription) return;
      connection.subscriptions.delete(key);
      if (notify)
        send(connection.socket, { identifier: subscription.identifier, type: 'reject_subscription' });
      // Still being checked: nothing to stop, and the check sees the key gone and gives up.
      if (!subscription.stop) return;
      subscription.stop();
      // Presence counts a connection once per party, on its PartyChannel subscription. A member removed
      // from the party (told with a rejection) is not coming back: offline at once.
      if (subscription.channel !== 'PartyChannel') return;
      if (notify) announceLeave(subscription.partyId, connection.user);
      else leaveAfterGrace(subscription.partyId, connection.user);
    };

    /** Forgets the connection and stops its feeds; safe to call twice (on disconnect, then on close). */
    const release = (connection: Connection) => {
      if (connection.released) return;
      connection.released = true;
      connections.delete(connection);
      const count = (perUser.get(connection.user.id) ?? 1) - 1;
      if (count <= 0) perUser.delete(connection.user.id);
      else perUser.set(connection.user.id, count);
      const sessions = bySession.get(connection.sessionId);
      sessions?.delete(connection);
      if (sessions?.size === 0) bySession.delete(connection.sessionId);
      for (const key of [...connection.subscriptions.keys()]) drop(connection, key, false);
    };

    /**
     * The session or its token has ended: nothing more reaches this socket from now on (its feeds stop
     * here rather than when the client gets round to answering the close).
     */
    const end = (connection: Connection, reconnect: boolean, sessionEnd?: SessionEndCause) => {
      disconnect(connection.socket, 'unauthorized', reconnect, sessionEnd);
      release(connection);
    };

    // An expired token may come back refreshed (reconnect: true); an ended session may not.
    const expired = (connection: Connection) => {
      if (Date.now() < connection.expiresAt) return false;
      end(connection, true);
      return true;
    };

    stopSessions = options.broadcaster.subscribe(SESSIONS_STREAM, (message) => {
      const ended = message as Partial<SessionsEndedMessage>;
      if (!Array.isArray(ended.session_ids)) return;
      for (const sessionId of ended.session_ids)
        for (const connection of [...(bySession.get(sessionId) ?? [])])
          end(connection, false, ended.session_end === 'account_deleted' ? ended.session_end : undefined);
    });

    /**
     * The subscriptions of this process per stream, with the one broadcaster handler that feeds them all:
     * a broadcast is serialised once per stream (and identifier spelling), not once per socket.
     */
    const streams = new Map<string, { subscriptions: Set<Subscription>; stop: () => void }>();

    const follow = (stream: string, subscription: Subscription) => {
      let entry = streams.get(stream);
      if (!entry) {
        const subscriptions = new Set<Subscription>();
        entry = {
          subscriptions,
          stop: options.broadcaster.subscribe(stream, (message) =>
            fanOut(subscriptions, message as BroadcastMessage),
          ),
        };
        streams.set(stream, entry);
      }
      entry.subscriptions.add(subscription);
      const followed = entry;
      return () => {
        followed.subscriptions.delete(subscription);
        if (followed.subscriptions.size === 0 && streams.get(stream) === followed) {
          streams.delete(stream);
          followed.stop();
        }
      };
    };

    // Broadcasts were missed: all of them while this process's Redis subscriber was away (changes made
    // through other processes, sessions they ended), or those of the streams a process could not publish
    // to while its publisher was away. The sockets that follow them are told to come back, as at a restart.
    // A client refetches what its screens show when its channels are confirmed again (DESIGN §6), and a
    // socket of an ended session is refused on its way back (a missed SESSIONS_STREAM message may have
    // ended any of them). The official client spreads its reconnects (apps/web lib/cable.ts).
    stopResumed = options.broadcaster.onResumed((missed) => {
      const affected =
        missed === 'all' || missed.includes(SESSIONS_STREAM)
          ? [...connections]
          : new Set(
              missed.flatMap((stream) =>
                [...(streams.get(stream)?.subscriptions ?? [])].map(({ connection }) => connection),
              ),
            );
      for (const connection of affected) disconnect(connection.socket, 'server_restart', true);
    });

    /** What a member's own event does to their subscriptions; answers false when it ends them. */
    const applyToMember = (subscription: Subscription, message: BroadcastMessage) => {
      const { connection } = subscription;
      // A member removed from the party loses every subscription to it at once.
      if (message.action === 'member_removed') {
        for (const [key, sub] of [...connection.subscriptions])
          if (sub.partyId === subscription.partyId) drop(connection, key, true);
        return false;
      }
      const role = message.ids?.role;
      if (message.action === 'member_role_changed' && typeof role === 'string') {
        for (const sub of connection.subscriptions.values())
          if (sub.partyId === subscription.partyId) sub.role = role;
      }
      return true;
    };

    const fanOut = (subscriptions: Set<Subscription>, message: BroadcastMessage) => {
      const { gmOnly, userId, ...payload } = message;
      const body = JSON.stringify(userId ? { ...payload, user_id: userId } : payload);
      // Clients of the official library all spell the identifier the same way: usually one entry.
      const frames = new Map<string, Buffer>();
      const now = Date.now();
      // The live set: a subscription dropped on the way (its member removed, its token expired) is skipped.
      for (const subscription of subscriptions) {
        const { connection } = subscription;
        // Checked per message, so not one is delivered after the token expires, even before the sweep.
        if (now >= connection.expiresAt) {
          end(connection, true);
          continue;
        }
        if (userId === connection.user.id && !applyToMember(subscription, message)) continue;
        if (gmOnly && subscription.role !== 'gm') continue;
        let frame = frames.get(subscription.identifier);
        if (!frame) {
          frame = textFrame(`{"identifier":${JSON.stringify(subscription.identifier)},"message":${body}}`);
          frames.set(subscription.identifier, frame);
        }
        outbox.push(connection.socket, frame);
      }
    };

    const subscribeLimiter = new FixedWindowLimiter(limits.subscribesPer10s, 10_000);
    const commandLimiter = new FixedWindowLimiter(limits.commandsPer10s, 10_000);

    const subscribe = async (connection: Connection, identifier: string) => {
      const parsed = parseIdentifier(identifier);
      const existing = parsed && connection.subscriptions.get(parsed.key);
      // The official client repeats a subscribe until it hears back: confirm a live one again, and let a
      // pending one answer for itself.
      if (existing && existing.identifier === identifier) {
        if (existing.stop) send(connection.socket, { identifier, type: 'confirm_subscription' });
        return;
      }
      const reject = () => send(connection.socket, { identifier, type: 'reject_subscription' });
      if (subscribeLimiter.hit(connection.id) !== undefined) return reject();
      // Another spelling of a channel and party this connection already has would be a second feed of the
      // same stream, or (answered under the first identifier) one the client could not route: refused.
      if (!parsed || existing) return reject();
      if (connection.subscriptions.size >= limits.subscriptionsPerConnection) return reject();
      const subscription: Subscription = {
        connection,
        identifier,
        channel: parsed.channel,
        partyId: parsed.partyId,
        role: '',
        stop: null,
      };
      connection.subscriptions.set(parsed.key, subscription);
      const stillWanted = () =>
        connection.subscriptions.get(parsed.key) === subscription &&
        connection.socket.readyState === connection.socket.OPEN;
      if (parsed.channel === NOTIFICATIONS_CHANNEL) {
        // Anyone signed in may follow their own notices; nobody can name another user's stream.
        subscription.stop = follow(userNoticesStream(connection.user.id), subscription);
        send(connection.socket, { identifier, type: 'confirm_subscription' });
        return;
      }
      let membership: Awaited<ReturnType<typeof partiesRepository.membership>>;
      try {
        membership = await partiesRepository.membership(options.db, parsed.partyId, connection.user.id);
      } catch (error) {
        if (stillWanted()) drop(connection, parsed.key, true);
        throw error;
      }
      if (!stillWanted()) return;
      if (!membership) return drop(connection, parsed.key, true);
      subscription.role = membership.role;
      subscription.stop = follow(streamName(parsed.channel, parsed.partyId), subscription);
      send(connection.socket, { identifier, type: 'confirm_subscription' });
      if (parsed.channel === 'PartyChannel')
        await announcePresence(parsed.partyId, connection.user, 'joined');
      else {
        const online = await options.presence.online(parsed.partyId);
        send(connection.socket, {
          identifier,
          message: { action: 'presence_update', online_users: online, change_type: 'snapshot' },
        });
      }
    };

    /** The subscription an identifier names, only in the spelling it was made with. */
    const subscriptionFor = (connection: Connection, identifier: string) => {
      const parsed = parseIdentifier(identifier);
      const subscription = parsed && connection.subscriptions.get(parsed.key);
      return parsed && subscription?.identifier === identifier
        ? { key: parsed.key, subscription }
        : undefined;
    };

    const onCommand = async (connection: Connection, raw: string) => {
      if (connection.released || expired(connection)) return;
      // Each command is parsed and most are answered: a client sending thousands would hold the event loop
      // from every other connection and request. No real client comes near the budget, so it is cut off.
      if (commandLimiter.hit(connection.id) !== undefined) {
        disconnect(connection.socket, 'invalid_request', false);
        return release(connection);
      }
      let command: z.infer<typeof commandSchema>;
      try {
        command = commandSchema.parse(JSON.parse(raw));
      } catch {
        return;
      }
      if (command.command === 'subscribe') return subscribe(connection, command.identifier);
      const found = subscriptionFor(connection, command.identifier);
      if (command.command === 'unsubscribe') {
        if (found) drop(connection, found.key, false);
        return;
      }
      if (!found?.subscription.stop) return;
      let data: { action?: unknown } = {};
      try {
        data = JSON.parse(command.data ?? '{}') as { action?: unknown };
      } catch {
        return;
      }
      if (data.action === 'test_connection') {
        send(connection.socket, {
          identifier: command.identifier,
          message: { action: 'test_connection', ok: true, server_time: new Date().toISOString() },
        });
      }
    };

    const verifyToken = async (request: FastifyRequest) => {
      const token = (request.query as { token?: unknown }).token;
      if (typeof token !== 'string' || token.length === 0) return undefined;
      try {
        return await options.accessTokens.verify(token);
      } catch {
        return undefined;
      }
    };

    app.get('/cable', { websocket: true, schema: { hide: true } }, async (socket, request) => {
      // Collect what arrives while we authenticate, then replay it.
      const early: string[] = [];
      const buffer = (data: Buffer) => early.push(data.toString());
      socket.on('message', buffer);
      const claims = await verifyToken(request);
      if (!claims) return disconnect(socket, 'unauthorized', false);
      if ((perUser.get(claims.userId) ?? 0) >= limits.connectionsPerUser)
        return disconnect(socket, 'invalid_request', false);
      const connection: Connection = {
        id: randomUUID(),
        socket,
        user: { id: claims.userId, username: '' },
        sessionId: claims.sessionId,
        expiresAt: claims.expiresAt.getTime(),
        subscriptions: new Map(),
        released: false,
      };
      // Registered before the session is looked up: a session ended before the lookup fails it, and one
      // ended after it finds this connection by its session id. Either way the socket closes. The lookup
      // reads the database (not the session cache, which another process's revocation reaches a few
      // milliseconds after its sessions_ended message may have come and gone).
      register(connection);
      socket.on('close', () => release(connection));
      if (socket.readyState !== socket.OPEN) return release(connection);
      try {
        connection.user.username = (
          await options.accounts.authenticate(claims, { fresh: true })
        ).user.username;
      } catch {
        return end(connection, false);
      }
      if (connection.released || socket.readyState !== socket.OPEN) return release(connection);
      socket.off('message', buffer);
      socket.on(
        'message',
        (data: Buffer) =>
          void onCommand(connection, data.toString()).catch((error: unknown) =>
            request.log.warn({ err: error }, 'cable command failed'),
          ),
      );
      send(socket, { type: 'welcome' });
      for (const raw of early) await onCommand(connection, raw);
    });

    // The System Health page (issue 15) reads how busy this process's cable is.
    app.decorate('cableStats', (): CableStats => ({ connections: connections.size, streams: streams.size }));

    // One sweep for pings and expiry, rather than a timer per connection: idle sockets cost no timers.
    pinger = setInterval(() => {
      const frame = textFrame(JSON.stringify({ type: 'ping', message: Math.floor(Date.now() / 1000) }));
      for (const connection of connections) if (!expired(connection)) outbox.push(connection.socket, frame);
    }, PING_INTERVAL_MS);
    pinger.unref();
  },
  { name: 'cable', dependencies: ['error-handler'] },
);
