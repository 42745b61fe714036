/**
 * This tab's own id, sent with each change it asks for (`X-Haversack-Tab`) and told back in that change's
 * live events: the tab that made a change already refetches what it changed, so its echo need not cancel
 * that fetch and start another. Random per page load; `getRandomValues` works on plain http too (a laptop
 * serving the table's phones), where `randomUUID` does not.
 */
export const TAB_HEADER = 'X-Haversack-Tab';

function newTabId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `tab_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export const tabId = newTabId();
