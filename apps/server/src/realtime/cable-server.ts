import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { FixedWindowLimiter } from '../lib/fixed-window-limiter.js';
import type { AccessTokens } from '../modules/accounts/access-tokens.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { partiesRepository } from '../modules/parties/parties.repository.js';
import type { Broadcaster } from './broadcaster.js';
import { type ChannelName, streamName } from './events.js';
import type { OnlineUser, Presence } from './presence.js';

export const CABLE_PROTOCOL = 'actioncable-v1-json';
const PING_INTERVAL_MS = 3_000;

export interface CableLimits {
  connectionsPerUser: number;
  maxMessageBytes: number;
  subscribesPer10s: number;
}
export const defaultCableLimits: CableLimits = {
  connectionsPerUser: 12,
  maxMessageBytes: 16 * 1024,
  subscribesPer10s: 30,
};

const identifierSchema = z.object({
  channel: z.enum(['PartyChannel', 'PartyInventoryChannel']),
  party_id: z.uuid(),
});

const commandSchema = z.object({
  command: z.enum(['subscribe', 'unsubscribe', 'message']),
  identifier: z.string().max(500),
  data: z.string().max(8_000).optional(),
});

interface Subscription {
  channel: ChannelName;
  partyId: string;
  role: string;
  stop: () => void;
}

interface Connection {
  id: string;
  socket: WebSocket;
  user: OnlineUser;
  subscriptions: Map<string, Subscription>;
}

interface BroadcastMessage {
  action?: string;
  gmOnly?: boolean;
  userId?: string;
  ids?: Record<string, string | null>;
  [key: string]: unknown;
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
    },
  ) => {
    const limits = options.limits ?? defaultCableLimits;
    const connections = new Set<Connection>();
    const perUser = new Map<string, number>();

    let pinger: NodeJS.Timeout | undefined;
    await app.register(websocket, {
      // Shutdown: tell every client to come back (to another process, or this one once it restarts).
      preClose: async function closeCable(this: FastifyInstance) {
        if (pinger) clearInterval(pinger);
        for (const connection of [...connections]) disconnect(connection.socket, 'server_restart', true);
        await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
      },
      options: {
        maxPayload: limits.maxMessageBytes,
        handleProtocols: (protocols) => (protocols.has(CABLE_PROTOCOL) ? CABLE_PROTOCOL : false),
      },
    });

    const send = (socket: WebSocket, message: unknown) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    };
    const disconnect = (socket: WebSocket, reason: string, reconnect: boolean) => {
      send(socket, { type: 'disconnect', reason, reconnect });
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

    const unsubscribe = (connection: Connection, identifier: string, notify: boolean) => {
      const subscription = connection.subscriptions.get(identifier);
      if (!subscription) return;
      subscription.stop();
      connection.subscriptions.delete(identifier);
      if (notify) send(connection.socket, { identifier, type: 'reject_subscription' });
      // Presence counts a connection once per party, on its PartyChannel subscription.
      if (subscription.channel === 'PartyChannel')
        void announcePresence(subscription.partyId, connection.user, 'left');
    };

    const deliver = (connection: Connection, identifier: string, message: BroadcastMessage) => {
      const subscription = connection.subscriptions.get(identifier);
      if (!subscription) return;
      if (message.userId === connection.user.id) {
        // A member removed from the party loses every subscription to it at once.
        if (message.action === 'member_removed') {
          for (const [id, sub] of connection.subscriptions)
            if (sub.partyId === subscription.partyId) unsubscribe(connection, id, true);
          return;
        }
        const role = message.ids?.role;
        if (message.action === 'member_role_changed' && typeof role === 'string') {
          for (const sub of connection.subscriptions.values())
            if (sub.partyId === subscription.partyId) sub.role = role;
        }
      }
      if (message.gmOnly && subscription.role !== 'gm') return;
      const { gmOnly: _gmOnly, userId, ...payload } = message;
      send(connection.socket, {
        identifier,
        message: { ...payload, ...(userId ? { user_id: userId } : {}) },
      });
    };

    const subscribeLimiter = new FixedWindowLimiter(limits.subscribesPer10s, 10_000);

    const subscribe = async (connection: Connection, identifier: string) => {
      if (connection.subscriptions.has(identifier))
        return send(connection.socket, { identifier, type: 'confirm_subscription' });
      const reject = () => send(connection.socket, { identifier, type: 'reject_subscription' });
      if (subscribeLimiter.hit(connection.id) !== undefined) return reject();
      let parsed: z.infer<typeof identifierSchema>;
      try {
        parsed = identifierSchema.parse(JSON.parse(identifier));
      } catch {
        return reject();
      }
      const membership = await partiesRepository.membership(options.db, parsed.party_id, connection.user.id);
      if (!membership || connection.socket.readyState !== connection.socket.OPEN) return reject();
      const stop = options.broadcaster.subscribe(streamName(parsed.channel, parsed.party_id), (message) =>
        deliver(connection, identifier, message as BroadcastMessage),
      );
      connection.subscriptions.set(identifier, {
        channel: parsed.channel,
        partyId: parsed.party_id,
        role: membership.role,
        stop,
      });
      send(connection.socket, { identifier, type: 'confirm_subscription' });
      if (parsed.channel === 'PartyChannel')
        await announcePresence(parsed.party_id, connection.user, 'joined');
      else {
        const online = await options.presence.online(parsed.party_id);
        send(connection.socket, {
          identifier,
          message: { action: 'presence_update', online_users: online, change_type: 'snapshot' },
        });
      }
    };

    const onCommand = async (connection: Connection, raw: string) => {
      let command: z.infer<typeof commandSchema>;
      try {
        command = commandSchema.parse(JSON.parse(raw));
      } catch {
        return;
      }
      if (command.command === 'subscribe') return subscribe(connection, command.identifier);
      if (command.command === 'unsubscribe') return unsubscribe(connection, command.identifier, false);
      const subscription = connection.subscriptions.get(command.identifier);
      if (!subscription) return;
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

    const authenticate = async (request: FastifyRequest) => {
      const token = (request.query as { token?: unknown }).token;
      if (typeof token !== 'string' || token.length === 0) return undefined;
      try {
        const auth = await options.accounts.authenticate(await options.accessTokens.verify(token));
        return { id: auth.user.id, username: auth.user.username };
      } catch {
        return undefined;
      }
    };

    app.get('/cable', { websocket: true, schema: { hide: true } }, async (socket, request) => {
      // Collect what arrives while we authenticate, then replay it.
      const early: string[] = [];
      const buffer = (data: Buffer) => early.push(data.toString());
      socket.on('message', buffer);
      const user = await authenticate(request);
      if (!user) return disconnect(socket, 'unauthorized', false);
      const count = perUser.get(user.id) ?? 0;
      if (count >= limits.connectionsPerUser) return disconnect(socket, 'invalid_request', false);
      perUser.set(user.id, count + 1);
      const connection: Connection = { id: randomUUID(), socket, user, subscriptions: new Map() };
      connections.add(connection);
      socket.off('message', buffer);
      socket.on(
        'message',
        (data: Buffer) =>
          void onCommand(connection, data.toString()).catch((error: unknown) =>
            request.log.warn({ err: error }, 'cable command failed'),
          ),
      );
      socket.on('close', () => {
        connections.delete(connection);
        perUser.set(user.id, (perUser.get(user.id) ?? 1) - 1);
        if ((perUser.get(user.id) ?? 0) <= 0) perUser.delete(user.id);
        for (const identifier of [...connection.subscriptions.keys()])
          unsubscribe(connection, identifier, false);
      });
      send(socket, { type: 'welcome' });
      for (const raw of early) await onCommand(connection, raw);
    });

    pinger = setInterval(() => {
      const message = { type: 'ping', message: Math.floor(Date.now() / 1000) };
      for (const connection of connections) send(connection.socket, message);
    }, PING_INTERVAL_MS);
    pinger.unref();
  },
  { name: 'cable', dependencies: ['error-handler'] },
);
