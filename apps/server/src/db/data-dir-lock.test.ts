import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('lockDataDir', () => {
  it('refuses a directory held by a live process', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dir, 'haversack.pid'), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(/in use by another Haversack process/);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a dead process and releases it', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
    writeFileSync(path.join(dir, 'haversack.pid'), '999999');
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'haversack.pid'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'haversack.pid'))).toBe(false);
  });
});
