import { accessSync, constants, lstatSync, readdirSync, statfsSync } from 'node:fs';
import path from 'node:path';

/** Below this, a start that failed is most likely out of room (PGlite's first start writes about 40 MB). */
const LOW_SPACE_BYTES = 64 * 1024 * 1024;
/** Enough to find a stray file left by another user, without walking a huge directory for ever. */
const MOST_ENTRIES_CHECKED = 20_000;

/**
 * Why PGlite could not open `dataDir`, when the cause is one an operator can fix and PGlite's own error does
 * not name ("Aborted()", "PGlite failed to initialize properly", an object with no message): a file of the
 * database this user may not write (the admin command run as root leaves root's files behind), or a disk
 * almost full. Called only after a failure, so a start that works never walks the directory. Null when
 * neither is found.
 */
export function diagnoseDataDir(dataDir: string, lowSpaceBytes = LOW_SPACE_BYTES): string | null {
  const unwritable = firstUnwritable(dataDir);
  if (unwritable) {
    const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
    return `${unwritable} cannot be written by this user${user}: every file in DATA_DIR must belong to the user that runs the server (e.g. chown -R that user ${dataDir}, and run the admin command as that user)`;
  }
  const free = freeBytes(dataDir);
  if (free !== null && free < lowSpaceBytes) {
    return `the disk holding ${dataDir} has only ${Math.floor(free / (1024 * 1024))} MB free: make room, then start again`;
  }
  return null;
}

function firstUnwritable(root: string): string | null {
  const pending = [root];
  let checked = 0;
  while (pending.length > 0 && checked < MOST_ENTRIES_CHECKED) {
    const current = pending.pop() as string;
    checked += 1;
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(current);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) continue;
    try {
      accessSync(current, stats.isDirectory() ? constants.W_OK | constants.X_OK : constants.W_OK);
    } catch {
      return current;
    }
    if (stats.isDirectory()) {
      try {
        for (const name of readdirSync(current)) pending.push(path.join(current, name));
      } catch {
        return current;
      }
    }
  }
  return null;
}

function freeBytes(dataDir: string): number | null {
  try {
    const stats = statfsSync(dataDir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
