import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `mkdirSync(dir, { recursive: true })`, without its endless loop: Node's recursive mkdir spins for ever on a
 * path under /proc or /sys (the kernel answers ENOENT for the missing part, Node then "creates" the parent
 * that exists, and tries again), so a DATA_DIR mistyped there hung the start without a line. Each missing
 * directory is made on its own, and the first refusal is thrown as it came.
 */
export function makeDirectory(directory: string): void {
  const missing: string[] = [];
  let current = path.resolve(directory);
  while (!exists(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const entry of missing) {
    try {
      mkdirSync(entry);
    } catch (error) {
      // Another process made it in the meantime: what was wanted is there.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function exists(entry: string): boolean {
  try {
    statSync(entry);
    return true;
  } catch {
    return false;
  }
}
