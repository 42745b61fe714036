// Plain data, no zod: the web's transaction history and the server's CSV export read it, and nothing here
// may pull a schema into a page's first load.
import type { TransactionType } from './inventory.js';

/**
 * Readable names for the ledger's transaction types (`transactionTypes`, every one of which the server
 * writes: docs/decisions.md, issue 14), distinct so that the history's type filter never offers two alike.
 * The transaction history shows them, and the CSV export writes them in its Type column (spec/02 §9).
 */
export const transactionTypeLabels: Readonly<Record<TransactionType, string>> = {
  purchase: 'Purchase',
  sale: 'Sale',
  transfer: 'Transfer',
  character_to_character_transfer: 'Character to character',
  // The GM moving another player's character's things; a player's own moves are deposits and withdrawals.
  character_to_party_transfer: 'Character to party (GM)',
  party_to_character_transfer: 'Party to character (GM)',
  party_deposit: 'Party deposit',
  party_withdraw: 'Party withdrawal',
  loot: 'Loot',
  loot_distribution: 'Loot distribution',
  // Goods a shop or a loot makes for itself (deployment, restock), and those gone with it when deleted; in
  // plain words ("stock created" read as jargon in review).
  create: 'Shop or loot stocked',
  delete: 'Shop or loot stock removed',
  adjust: 'Adjustment',
  split: 'Split',
  merge: 'Merge',
  character_creation: 'Character created',
  character_deletion: 'Character deleted',
  container_creation: 'Container created',
  container_deletion: 'Container deleted',
  item_creation: 'Item added',
  item_destruction: 'Item destroyed',
  currency_conversion: 'Currency conversion',
};

/**
 * What an action of the grouped history (`group=operation`) was, where its main row's type does not say it:
 * a deployment's main row makes the shop's or the loot's container, and read "Container created" above
 * "newgm deployed Ironhand Forge with 10 kinds of items (55 items)" (review 2026-11). The words are the
 * spec's own toasts' (spec/01 "Shop "{name}" deployed successfully!", spec/02 §6 "Loot deployed to party").
 */
export const operationKinds = [
  'shop_deployment',
  'loot_deployment',
  'shop_request',
  'shop_request_approved',
  'shop_request_declined',
  'shop_request_cancelled',
  'joined_party',
  'left_party',
] as const;
export type OperationKind = (typeof operationKinds)[number];

/**
 * The history's badge for each kind; the CSV export writes the same words in the Type column of the rows that
 * only keep such an action (a character's gear listed as it joins or leaves, a purchase request's hold).
 */
export const operationKindLabels: Readonly<Record<OperationKind, string>> = {
  shop_deployment: 'Shop deployed',
  loot_deployment: 'Loot deployed',
  // Beside the shop's "Purchase approved" / "Purchase declined" (its request's hold is how it is kept).
  shop_request: 'Purchase requested',
  // A request's outcome, in the words of the shop's own toasts (`shopMessages.requestApproved`,
  // `requestDeclined`, `requestCancelled`; not imported: that module brings zod into a page's first load).
  shop_request_approved: 'Purchase approved',
  shop_request_declined: 'Purchase declined',
  shop_request_cancelled: 'Purchase request cancelled',
  // A character coming into a party or going out of it, with what it carries: its rows are `adjust` rows
  // that move nothing ("Adjustment" would say nothing of it).
  joined_party: 'Joined the party',
  left_party: 'Left the party',
};

const isOperationKind = (kind: string): kind is OperationKind => Object.hasOwn(operationKindLabels, kind);

/** An action's label; none for an action without a kind, or of a kind this client does not know yet. */
export function operationKindLabel(kind: string | undefined): string | null {
  return kind !== undefined && isOperationKind(kind) ? operationKindLabels[kind] : null;
}

const isLabelled = (type: string): type is TransactionType => Object.hasOwn(transactionTypeLabels, type);

/** A type's label; an unknown type (a newer server, an older row) is written with its words capitalised. */
export function transactionTypeLabel(type: string): string {
  if (isLabelled(type)) return transactionTypeLabels[type];
  const words = type.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
