import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../scripts/precompress.mjs');
// Real code to compress: React DOM's production build (~500 KB), the kind of file the build writes.
const bigScript = readFileSync(
  path.join(
    path.dirname(createRequire(import.meta.filename).resolve('react-dom/package.json')),
    'cjs/react-dom-client.production.js',
  ),
);

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function builtApp(files: Record<string, Buffer | string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
  scratch.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  execFileSync(process.execPath, [script, dir], { stdio: 'pipe' });
  return dir;
}

describe('precompressing the built web app (issue 13 §1)', () => {
  it('writes brotli and gzip copies that decode to each file, the gzip smaller than zlib at level 9', () => {
    const css = '.tile { display: grid; }\n'.repeat(200);
    const dir = builtApp({ 'assets/app-abc123.js': bigScript, 'assets/app-abc123.css': css });

    for (const [name, original] of [
      ['assets/app-abc123.js', bigScript],
      ['assets/app-abc123.css', Buffer.from(css)],
    ] as const) {
      const file = path.join(dir, name);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(original), `${name}.br`).toBe(true);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(original), `${name}.gz`).toBe(true);
    }
    const zopfli = readFileSync(path.join(dir, 'assets/app-abc123.js.gz')).length;
    expect(zopfli).toBeLessThan(gzipSync(bigScript, { level: 9 }).length * 0.98);
  });

  it('leaves alone what compression does not shrink and what is not text', () => {
    const dir = builtApp({ 'tiny.txt': 'a', 'icon.png': bigScript.subarray(0, 4096) });

    for (const copy of ['tiny.txt.br', 'tiny.txt.gz', 'icon.png.br', 'icon.png.gz']) {
      expect(existsSync(path.join(dir, copy)), copy).toBe(false);
    }
  });
});
