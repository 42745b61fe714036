import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, processStartTime } from './data-dir-lock.js';

let dir: string;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

function live(command: string, args: string[]): number {
  const child = spawn(command, args, { stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  return child.pid;
}

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const lockFile = () => path.join(dir, 'haversack.pid');
const hasProc = existsSync('/proc/self/stat');

describe('lockDataDir', () => {
  it('refuses a directory held by a live Haversack process', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
    const pid = live(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    const startTime = hasProc ? processStartTime(pid) : null;
    writeFileSync(
      lockFile(),
      JSON.stringify({ pid, boot_id: hasProc ? bootId() : null, start_time: startTime }),
    );
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/in use by another Haversack process/);
  });

  it('records who holds it and releases it', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
    const release = lockDataDir(dir);
    const holder = JSON.parse(readFileSync(lockFile(), 'utf8'));
    expect(holder.pid).toBe(process.pid);
    if (hasProc) expect(holder.start_time).toBe(processStartTime(process.pid));
    release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock left by a dead process, saying so', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
    writeFileSync(lockFile(), JSON.stringify({ pid: 999999, boot_id: null, start_time: '1' }));
    const messages: string[] = [];
    const release = lockDataDir(dir, (message) => messages.push(message));
    expect(messages).toEqual([`Taking over the stale lock ${lockFile()}: process 999999 is gone.`]);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    release();
  });

  describe.skipIf(!hasProc)('where /proc tells processes apart', () => {
    it('takes over a lock whose PID now belongs to another live process (F16)', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
      // The crashed Haversack had this PID; a process started later has it now.
      const pid = live(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      const startTime = Number(processStartTime(pid));
      writeFileSync(
        lockFile(),
        JSON.stringify({ pid, boot_id: bootId(), start_time: String(startTime - 1) }),
      );
      const messages: string[] = [];
      const release = lockDataDir(dir, (message) => messages.push(message));
      expect(messages).toEqual([
        `Taking over the stale lock ${lockFile()}: pid ${pid} now belongs to another process.`,
      ]);
      expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
      release();
    });

    it('takes over a lock whose process was killed but not yet reaped (a zombie)', async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
      // A shell that starts the holder and then never waits for it, as a slow init would not.
      const shell = spawn(
        'sh',
        ['-c', `"${process.execPath}" -e "setTimeout(() => {}, 30000)" & echo $!; exec sleep 30`],
        {
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      children.push(shell);
      const pid = await new Promise<number>((resolve) =>
        shell.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      await expect.poll(() => processStartTime(pid)).not.toBeNull();
      // Killed only once the shell is `sleep`, which never waits: a shell still between `echo` and `exec`
      // may reap its child, and then there is no zombie to take the lock over from.
      await expect.poll(() => readFileSync(`/proc/${shell.pid}/comm`, 'utf8').trim()).toBe('sleep');
      writeFileSync(
        lockFile(),
        JSON.stringify({ pid, boot_id: bootId(), start_time: processStartTime(pid) }),
      );
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('Z');
      const messages: string[] = [];
      const release = lockDataDir(dir, (message) => messages.push(message));
      expect(messages).toEqual([`Taking over the stale lock ${lockFile()}: process ${pid} is gone.`]);
      release();
    });

    it('takes over a lock taken before the machine restarted', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
      const pid = live(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      writeFileSync(
        lockFile(),
        JSON.stringify({ pid, boot_id: 'another-boot', start_time: processStartTime(pid) }),
      );
      const messages: string[] = [];
      lockDataDir(dir, (message) => messages.push(message))();
      expect(messages[0]).toMatch(/it was taken before the machine restarted/);
    });

    it('takes over an old bare-PID lock whose PID is now another program', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
      const pid = live('sleep', ['30']);
      writeFileSync(lockFile(), String(pid));
      const messages: string[] = [];
      lockDataDir(dir, (message) => messages.push(message))();
      expect(messages).toEqual([
        `Taking over the stale lock ${lockFile()}: pid ${pid} now belongs to another program.`,
      ]);
    });

    it('still refuses an old bare-PID lock held by a live Node process', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'haversack-lock-'));
      const pid = live(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      writeFileSync(lockFile(), String(pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    });
  });
});
