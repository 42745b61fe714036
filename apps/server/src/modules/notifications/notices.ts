import type { NotificationKind, NotificationLink } from '@haversack/contracts';
import type { Executor } from '../../db/client.js';

/**
 * A notice to write: what `actorId` did to `userId`. One for the actor about their own act is never
 * written (they did it, and saw it done).
 */
export interface Notice {
  userId: string;
  actorId: string | null;
  kind: NotificationKind;
  partyId: string | null;
  partyName: string | null;
  message: string;
  link: NotificationLink | null;
}

/**
 * How the modules that act on other users leave them notices, given to them by app.ts (as their other
 * hooks are), so that none of them depends on this module's service. `write` runs in the act's own
 * transaction and answers whom it wrote to; `announce` tells those users live, once that transaction
 * committed.
 */
export interface NoticeBoard {
  write(tx: Executor, notices: Notice[]): Promise<string[]>;
  announce(userIds: readonly string[]): void;
}

/** Until app.ts hands a module the real board (a service built alone, in a unit test): nothing is kept. */
export const noNoticeBoard: NoticeBoard = {
  write: async () => [],
  announce: () => {},
};

/** Where a notice of a party leads. */
export const noticeLinks = {
  party: (id: string, name: string): NotificationLink => ({
    kind: 'party',
    path: `/parties/${id}`,
    label: name,
  }),
  // The party's Loot tab, under its heading's words (no party name, which a rename would leave behind).
  partyLoot: (partyId: string): NotificationLink => ({
    kind: 'party',
    path: `/parties/${partyId}?tab=loot`,
    label: 'Party Loot',
  }),
  character: (id: string, name: string): NotificationLink => ({
    kind: 'character',
    path: `/characters/${id}`,
    label: name,
  }),
  // The deployed shop, where its Requests tab shows the buyer what was decided (/shops/{id} is a template).
  shop: (id: string, name: string): NotificationLink => ({
    kind: 'shop',
    path: `/shops/instances/${id}`,
    label: name,
  }),
};

/**
 * A service's way to its NoticeBoard: notices written in a transaction that `around` opened are told live
 * once `around`'s work resolved (after the commit); those written in a transaction of another service's
 * (a deletion settling purchase requests) are kept, and found on the next visit, without the live push.
 */
export class NoticeWriter {
  #board: NoticeBoard = noNoticeBoard;
  readonly #told = new WeakMap<object, string[]>();

  setBoard(board: NoticeBoard): void {
    this.#board = board;
  }

  async write(tx: Executor, notices: Notice[]): Promise<void> {
    const userIds = await this.#board.write(tx, notices);
    this.#told.get(tx)?.push(...userIds);
  }

  /** Runs `run`, whose transaction calls `track(tx)` first; announces what it wrote once `run` resolved. */
  async around<T>(run: (track: (tx: Executor) => void) => Promise<T>): Promise<T> {
    const told: string[] = [];
    const result = await run((tx) => this.#told.set(tx, told));
    this.#board.announce(told);
    return result;
  }
}
