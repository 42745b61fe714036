import * as ActionCable from '@rails/actioncable';
import WebSocket from 'ws';

// DESIGN §9: the official client needs a few browser globals in Node.
const globals = globalThis as unknown as Record<string, unknown>;
globals.addEventListener ??= () => {};
globals.removeEventListener ??= () => {};
globals.document ??= {
  visibilityState: 'visible',
  addEventListener: () => {},
  removeEventListener: () => {},
};
ActionCable.adapters.WebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

export interface Received {
  messages: Record<string, unknown>[];
  connected: Promise<void>;
  rejected: Promise<void>;
  next(predicate?: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** A subscription of the official @rails/actioncable client that records what it receives. */
export function subscribe(
  consumer: ActionCable.Consumer,
  channel: string,
  /** None for the user's own NotificationsChannel. */
  partyId?: string,
): Received & { unsubscribe(): void } {
  const messages: Record<string, unknown>[] = [];
  const waiters: {
    predicate: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  let resolveConnected = () => {};
  let resolveRejected = () => {};
  const connected = new Promise<void>((resolve) => {
    resolveConnected = resolve;
  });
  const rejected = new Promise<void>((resolve) => {
    resolveRejected = resolve;
  });
  const subscription = consumer.subscriptions.create(
    partyId === undefined ? { channel } : { channel, party_id: partyId },
    {
      connected: () => resolveConnected(),
      rejected: () => resolveRejected(),
      received: (message: Record<string, unknown>) => {
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(message)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
        }
      },
    },
  );
  return {
    messages,
    connected,
    rejected,
    next: (predicate = () => true) =>
      new Promise((resolve) => {
        const seen = messages.find(predicate);
        if (seen) {
          messages.splice(messages.indexOf(seen), 1);
          return resolve(seen);
        }
        waiters.push({
          predicate,
          resolve: (m) => {
            messages.splice(messages.indexOf(m), 1);
            resolve(m);
          },
        });
      }),
    unsubscribe: () => subscription.unsubscribe(),
  };
}

export function consumerFor(baseUrl: string, token: string): ActionCable.Consumer {
  return ActionCable.createConsumer(
    `${baseUrl.replace(/^http/, 'ws')}/cable?token=${encodeURIComponent(token)}`,
  );
}
