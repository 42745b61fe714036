import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectory } from './make-directory.js';

describe('makeDirectory', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'haversack-mkdir-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('makes every missing directory of the path, and is content with one that exists', () => {
    const deep = path.join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(() => makeDirectory(deep)).not.toThrow();
  });

  it('throws what the system answers when a part of the path is a file', () => {
    const file = path.join(root, 'file');
    writeFileSync(file, '');
    expect(() => makeDirectory(path.join(file, 'data'))).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });

  // Node's own recursive mkdir never returns for this path: the test would hang, not pass.
  it.runIf(process.platform === 'linux')(
    'fails at once for a directory the kernel cannot make, under /proc',
    () => {
      expect(() => makeDirectory('/proc/haversack-data')).toThrow(
        expect.objectContaining({ code: 'ENOENT' }),
      );
    },
  );
});
