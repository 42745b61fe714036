import { type AccountDeletionBody, accountClosureMessages } from '@haversack/contracts';
import { API_V1, apiDownload, apiRequest } from '../../../lib/http-client';
import { saveBlob } from '../../../lib/save-blob';
import { signOut } from '../../../lib/session';
import { noteSessionEnd } from '../../../lib/session-end-note';
import { tokenStorage } from '../../../lib/token-storage';

/**
 * Deletes the signed-in account for good, then ends the session here. The server has already ended every
 * session of the account, so there is nothing to sign out of there: the tokens are dropped first and the
 * local sign-out makes no call (which would only answer 401 and try a refresh).
 */
export async function deleteMyAccount(body: AccountDeletionBody): Promise<void> {
  // The dialog shows the refusal itself (wrong password, admin account): no toast on top of it.
  await apiRequest(`${API_V1}/users/me`, { method: 'DELETE', body, toast: false });
  // The browser's other tabs say why their session ended.
  noteSessionEnd(accountClosureMessages.deleted);
  tokenStorage.clear();
  await signOut();
}

/** spec-free: the export's file name as the server names it, else ours. */
export function exportFileName(serverName: string | null, username: string, now = new Date()): string {
  return serverName ?? `haversack-export-${username}-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * Downloads the user's data (GET /users/me/export). It needs the bearer header, so it is fetched (with the
 * usual refresh-and-retry) and handed to the browser as an object URL rather than followed as a link.
 */
export async function downloadMyData(username: string): Promise<string> {
  const { blob, filename } = await apiDownload(`${API_V1}/users/me/export`, { toast: false });
  const name = exportFileName(filename, username);
  saveBlob(blob, name);
  return name;
}
