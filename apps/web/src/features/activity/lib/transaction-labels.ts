import { type ChangeSource, type TransactionType, transactionTypes } from '@haversack/contracts';
import { isTransactionType } from '../api/transactions-api';

/**
 * Readable names for the ledger's transaction types (contracts `transactionTypes`, every one of which the
 * server writes: docs/decisions.md, issue 14), distinct so that the type filter never offers two alike.
 */
const labels: Record<TransactionType, string> = {
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
  // Goods a shop or a loot makes for itself (deployment, restock), and those gone with it when deleted.
  create: 'Shop or loot stock created',
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

/** A type's label; an unknown type (a newer server) is shown with its words capitalised. */
export function transactionTypeLabel(type: string): string {
  if (isTransactionType(type)) return labels[type];
  const words = type.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const transactionTypeOptions = [
  { value: 'all', label: 'All types' },
  ...transactionTypes.map((type) => ({ value: type, label: labels[type] })),
];

/**
 * Issue 16 §6: where a ledger row came from, shown as a badge on rows that did not come from the web app
 * (the common case needs no label).
 */
const sourceLabels: Record<ChangeSource, string | null> = {
  web: null,
  discord: 'via Discord',
  api: 'via API',
  admin: 'by Admin',
  system: 'Automatic',
};

export function changeSourceLabel(source: ChangeSource): string | null {
  return sourceLabels[source];
}
