import { type TransactionType, transactionTypes } from '@haversack/contracts';
import { isTransactionType } from '../api/transactions-api';

/** Readable names for the ledger's transaction types (contracts `transactionTypes`). */
const labels: Record<TransactionType, string> = {
  purchase: 'Purchase',
  sale: 'Sale',
  transfer: 'Transfer',
  character_to_character_transfer: 'Character to character',
  character_to_party_transfer: 'Character to party',
  party_to_character_transfer: 'Party to character',
  party_deposit: 'Party deposit',
  party_withdraw: 'Party withdrawal',
  loot: 'Loot',
  loot_distribution: 'Loot distribution',
  create: 'Create',
  delete: 'Delete',
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
