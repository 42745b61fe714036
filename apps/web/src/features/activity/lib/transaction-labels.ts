import { type ChangeSource, transactionTypeLabels, transactionTypes } from '@haversack/contracts';

/** The type filter's choices, named as the history's rows and the CSV export's Type column name them. */
export const transactionTypeOptions = [
  { value: 'all', label: 'All types' },
  ...transactionTypes.map((type) => ({ value: type, label: transactionTypeLabels[type] })),
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
