import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDirectory } from '../lib/make-directory.js';

export class DataDirLockedError extends Error {}

/**
 * Who holds the lock, precisely enough to tell a PID that was reused after a crash: the kernel's boot id
 * and the process's start time (clock ticks since boot, /proc/PID/stat field 22) together name one
 * process for ever. Where /proc is missing (macOS, Windows) both are null and only the PID is known.
 */
export interface LockHolder {
  pid: number;
  bootId: string | null;
  startTime: string | null;
}

function readProc(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function bootId(): string | null {
  return readProc('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

/** Field 22 of /proc/PID/stat; the command name (field 2) may hold spaces and parentheses, so count from its end. */
export function processStartTime(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

/**
 * Field 3 of /proc/PID/stat. A process killed while its parent has not yet reaped it is a zombie (Z): it
 * still answers kill(pid, 0) but holds no files and will never run again.
 */
function hasEnded(pid: number): boolean {
  const stat = readProc(`/proc/${pid}/stat`);
  const state = stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

function isAlive(pid: number): boolean {
  if (hasEnded(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads both the current `{pid, boot_id, start_time}` lock and the older bare-PID one. */
function parseLock(text: string): LockHolder | undefined {
  const bare = /^\s*(\d+)\s*$/.exec(text);
  if (bare) return { pid: Number(bare[1]), bootId: null, startTime: null };
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; boot_id?: unknown; start_time?: unknown };
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid)) return undefined;
    return {
      pid: parsed.pid,
      bootId: typeof parsed.boot_id === 'string' ? parsed.boot_id : null,
      startTime: typeof parsed.start_time === 'string' ? parsed.start_time : null,
    };
  } catch {
    return undefined;
  }
}

/**
 * Why the holder no longer holds the lock, or null when it may still be a Haversack process using the
 * directory. A live PID is not enough: after a crash or a reboot the PID is often someone else's.
 */
export function staleReason(holder: LockHolder, self: LockHolder): string | null {
  if (holder.pid === self.pid) return 'it names this process';
  if (!isAlive(holder.pid)) return `process ${holder.pid} is gone`;
  if (holder.bootId && self.bootId && holder.bootId !== self.bootId)
    return `it was taken before the machine restarted (pid ${holder.pid} is another process now)`;
  const startTime = processStartTime(holder.pid);
  if (holder.startTime && startTime && holder.startTime !== startTime)
    return `pid ${holder.pid} now belongs to another process`;
  if (!holder.startTime) {
    // A lock from before start times were recorded: a process that is not Node cannot be Haversack.
    const command = readProc(`/proc/${holder.pid}/cmdline`);
    if (command !== null && !/node|haversack/i.test(command))
      return `pid ${holder.pid} now belongs to another program`;
  }
  return null;
}

/**
 * DESIGN §9: PGlite does not lock its directory, and a second process on the same DATA_DIR silently loses
 * writes. Take a lock file naming this process; a lock whose holder is gone, or whose PID now belongs to
 * another process, is taken over and `onTakeover` says why.
 */
export function lockDataDir(dataDir: string, onTakeover: (message: string) => void = () => {}): () => void {
  makeDirectory(dataDir);
  const lockPath = path.join(dataDir, 'haversack.pid');
  const self: LockHolder = { pid: process.pid, bootId: bootId(), startTime: processStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // Written whole to a file of this process's own, then linked into place: link() fails if the lock
      // exists, and a rival never sees a lock file that is still empty.
      const draft = `${lockPath}.${self.pid}.tmp`;
      writeFileSync(
        draft,
        JSON.stringify({ pid: self.pid, boot_id: self.bootId, start_time: self.startTime }),
        {
          mode: 0o644,
        },
      );
      try {
        linkSync(draft, lockPath);
      } finally {
        rmSync(draft, { force: true });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = parseLock(readFileSync(lockPath, 'utf8'));
      const reason = holder ? staleReason(holder, self) : 'it is unreadable';
      if (reason === null && holder) {
        throw new DataDirLockedError(
          `Data directory ${path.resolve(dataDir)} is in use by another Haversack process (pid ${holder.pid}); stop it or set another DATA_DIR.`,
        );
      }
      onTakeover(`Taking over the stale lock ${lockPath}: ${reason}.`);
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock data directory ${path.resolve(dataDir)}.`);
}
