import { errorCatalogue, inventoryMessages, unsupportedTransferMessage } from '@haversack/contracts';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { currentPlace, upgradeLinkLabel, upgradePathFor } from '../../../lib/upgrade-link';

/** spec/02 §8: a non-API failure of a transfer. */
export const unexpectedTransferError = 'An unexpected error occurred during item transfer.';

/** The kinds of source a workspace panel shows (spec/02 §4 names them in "Unsupported transfer type"). */
export type SourceKind = 'container' | 'shop' | 'loot' | 'marketplace';

/**
 * spec/02 §8: a failed transfer shows the server's message (e.g. "Item(s) would exceed weight limit"), else
 * "Transfer failed"; anything that is not an API answer is the unexpected error. A transfer that never
 * reached the server (connection refused, timed out) keeps the spec's sentence and adds the catalogue's
 * network message: "unexpected" alone would hide that retrying once the connection is back is all it takes.
 */
export function transferErrorMessage(error: unknown): string {
  if (!isApiError(error) || error.code === 'UNKNOWN_ERROR') return unexpectedTransferError;
  if (error.code === 'NETWORK_ERROR')
    return `${unexpectedTransferError} ${errorCatalogue.NETWORK_ERROR.message}`;
  // A refused field says what was wrong ("There are not that many in the stack"); the envelope's message
  // of a validation error only says to check the input.
  if (error.code === 'VALIDATION_ERROR' && error.details[0]) return error.details[0].message;
  return error.serverMessage ?? error.message ?? inventoryMessages.transferFailed;
}

/** A move or an add refused because the destination has no room (DESIGN §3 CAPACITY_EXCEEDED). */
export function isCapacityRefusal(error: unknown): boolean {
  return isApiError(error) && error.code === 'CAPACITY_EXCEEDED';
}

/**
 * The toast for a failed transfer: `message` (by default the one above). A plan refusal, such as a Free plan
 * moving into the party stash without party_collaboration, also links to the upgrade that lifts it, as the
 * client's own refusal toasts do (issue 3); transfers answer their refusals themselves, so they would not.
 */
export function toastTransferFailure(error: unknown, message = transferErrorMessage(error)): void {
  const upgradePath = isApiError(error) ? upgradePathFor(error, currentPlace()) : null;
  if (upgradePath) toast.error(message, undefined, { label: upgradeLinkLabel, href: upgradePath });
  else toast.error(message);
}

/**
 * spec/02 §4 allowed transfers: anything into a container (a move, a purchase, a take, an item from the
 * marketplace) and container → shop (a sale). Everything else is refused with its own message.
 */
export function unsupportedTransfer(from: SourceKind, to: SourceKind): string | null {
  if (to === 'container') return null;
  if (from === 'container' && to === 'shop') return null;
  return unsupportedTransferMessage(from, to);
}

/**
 * A refusal from the server as the user should read it: the first field detail of a validation error
 * (e.g. "Only stacks of the same item, without changes, can be merged"), else the server's message.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  if (error.code === 'NETWORK_ERROR' || error.code === 'UNKNOWN_ERROR') return error.message || fallback;
  return error.details[0]?.message ?? error.serverMessage ?? (error.message || fallback);
}

/** The toast for a refused inventory action: its reason, and the upgrade link when a plan refused it. */
export function toastRefusal(error: unknown, fallback: string): void {
  toastTransferFailure(error, refusalMessage(error, fallback));
}
