import type { Notice } from './notices.js';

/** Nobody is told of their own act: a GM who archives their party, a player giving to their own character. */
export function isForAnotherUser(notice: Notice): boolean {
  return notice.userId !== notice.actorId;
}
