/**
 * After a line of an editor is saved its Save button is closed (nothing left to save), and a closed button
 * loses the focus to the page: the next Tab started again from the top. The focus goes to the line's field
 * instead, unless it has meanwhile gone somewhere else on purpose (another line, a dialog).
 */
export function keepFocusInRow(row: HTMLElement | null, field: HTMLElement | null): void {
  const focused = document.activeElement;
  const lost = focused === null || focused === document.body;
  if (lost || row?.contains(focused)) field?.focus();
}
