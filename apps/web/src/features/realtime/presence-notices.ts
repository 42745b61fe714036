import type { Notice, OnlineUser, PartyMessage } from './party-events';

/**
 * How long a "{name} left the party" waits for its member to come back before it is shown. A member moving
 * between the party's screens on a phone (a character page that loads slowly, a reload, a tunnel) may be
 * away longer than the server's own grace (cable-server.ts PRESENCE_LEAVE_GRACE_MS): back within this one,
 * the table hears neither that they left nor that they joined.
 */
export const PRESENCE_LEFT_GRACE_MS = 5_000;

export interface PresenceNotices {
  /** Who was online when this screen's channels came up (PartyInventoryChannel's `snapshot`). */
  snapshot(users: readonly OnlineUser[]): void;
  /** A `presence_changed` and its notice (null for my own or an unreadable change). */
  changed(message: PartyMessage, notice: Notice | null): void;
  /** The party's screens closed: departures still waiting are no longer anyone's news. */
  stop(): void;
}

/**
 * Tells real arrivals and departures, not page moves: a departure is held for PRESENCE_LEFT_GRACE_MS and
 * dropped, with the arrival that cancels it, if its member comes back meanwhile; an arrival of someone this
 * screen already counts present (a server that restarted counts everyone anew) says nothing. Who is present
 * is kept from PartyChannel's changes and the snapshot only: PartyInventoryChannel's copy of a change
 * arrives first and would make every arrival look already counted.
 */
export function presenceNotices(show: (notice: Notice) => void): PresenceNotices {
  let present = new Set<string>();
  const departures = new Map<string, ReturnType<typeof setTimeout>>();
  return {
    snapshot(users) {
      present = new Set(users.map((user) => user.id));
    },
    changed(message, notice) {
      const who = message.user_id ?? message.actor?.id ?? null;
      const before = present;
      if (message.online_users) present = new Set(message.online_users.map((user) => user.id));
      if (!notice || who === null) return;
      if (message.change_type === 'left') {
        if (departures.has(who)) return;
        departures.set(
          who,
          setTimeout(() => {
            departures.delete(who);
            show(notice);
          }, PRESENCE_LEFT_GRACE_MS),
        );
        return;
      }
      const departure = departures.get(who);
      if (departure !== undefined) {
        clearTimeout(departure);
        departures.delete(who);
        return;
      }
      if (before.has(who)) return;
      show(notice);
    },
    stop() {
      for (const departure of departures.values()) clearTimeout(departure);
      departures.clear();
    },
  };
}
