// Writes a brotli (.br) and a gzip (.gz) copy next to every compressible file of the built web app, at
// the strongest settings: the server sends them as they are (@fastify/static `preCompressed`), so a
// phone downloads a fraction of the bytes and the server spends no CPU compressing per request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const compressible = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
const distDir = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (compressible.has(path.extname(entry.name))) yield full;
  }
}

let files = 0;
let before = 0;
let afterBrotli = 0;
for await (const file of filesUnder(distDir)) {
  const source = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  // A copy that saves nothing is not worth a second file; the server then sends the original.
  if (br.length < source.length) await writeFile(`${file}.br`, br);
  if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
  files += 1;
  before += source.length;
  afterBrotli += Math.min(br.length, source.length);
}
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`precompressed ${files} files: ${kib(before)} → ${kib(afterBrotli)} with brotli`);
