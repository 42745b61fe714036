import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reasonOf } from '../lib/error-reason.js';
import { diagnoseDataDir } from './data-dir-diagnosis.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A DATA_DIR with a PGlite directory in it, readable by every user (as a server's would be to its own). */
function dataDirWithFile(): { dataDir: string; file: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-diagnosis-'));
  made.push(dataDir);
  mkdirSync(path.join(dataDir, 'pglite', 'global'), { recursive: true });
  const file = path.join(dataDir, 'pglite', 'global', 'pg_internal.init');
  writeFileSync(file, 'x');
  return { dataDir, file };
}

/**
 * The diagnosis as another user would make it: root may write anything, so as root it runs in a child
 * process as nobody, over a directory nobody owns but one file (root's own: the admin command run as root).
 */
function diagnoseAsServerUser(dataDir: string, unwritable: string): string | null {
  if (process.getuid?.() !== 0) {
    chmodSync(unwritable, 0o444);
    return diagnoseDataDir(dataDir);
  }
  spawnSync('chown', ['-R', 'nobody', dataDir]);
  spawnSync('chown', ['root', unwritable]);
  const script = `import { diagnoseDataDir } from ${JSON.stringify(path.resolve(import.meta.dirname, 'data-dir-diagnosis.ts'))};
process.stdout.write(JSON.stringify(diagnoseDataDir(${JSON.stringify(dataDir)})));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    uid: 65534,
    gid: 65534,
    encoding: 'utf8',
    cwd: import.meta.dirname,
  });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as string | null;
}

describe('diagnoseDataDir', () => {
  it('names a file of the database the server’s user cannot write', () => {
    const { dataDir, file } = dataDirWithFile();
    const found = diagnoseAsServerUser(dataDir, file);
    expect(found).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')} cannot be written by this user`));
    expect(found).toContain('every file in DATA_DIR must belong to the user that runs the server');
  });

  it('says when the disk is nearly full, and nothing when all is well', () => {
    const { dataDir } = dataDirWithFile();
    expect(diagnoseDataDir(dataDir)).toBeNull();
    // Any disk is "nearly full" against a limit of a petabyte.
    expect(diagnoseDataDir(dataDir, 2 ** 50)).toMatch(
      new RegExp(`^the disk holding ${dataDir} has only \\d+ MB free: make room, then start again$`),
    );
  });
});

describe('reasonOf', () => {
  it('says what a thrown plain object holds, never [object Object]', () => {
    expect(reasonOf({ errno: 28, code: 'ENOSPC' })).toBe("{ errno: 28, code: 'ENOSPC' }");
    expect(reasonOf({ message: 'no space left' })).toBe('no space left');
    expect(reasonOf(new Error('outer', { cause: new Error('inner') }))).toBe('inner');
  });
});
