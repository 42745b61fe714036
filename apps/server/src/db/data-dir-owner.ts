import { statSync } from 'node:fs';

/**
 * The uid that owns `dataDir` when this process runs as root and the directory is another user's, else
 * null. Root opening it would leave files of root's there (PGlite writes as it opens, mail, the JWT
 * secret), and the server, started again as that user, could not open them: the site would stay down
 * until someone ran chown. Both the server and the admin command refuse, naming the owner.
 */
export function othersDataDirAsRoot(dataDir: string): number | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  try {
    const owner = statSync(dataDir).uid;
    return owner === 0 ? null : owner;
  } catch {
    // Not there yet: it will be made, root's, as root asked.
    return null;
  }
}
