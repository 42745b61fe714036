// Writes a brotli (.br) and a gzip (.gz) copy next to every compressible file of the built web app, at
// the strongest settings: the server sends them as they are (@fastify/static `preCompressed`), so a
// phone downloads a fraction of the bytes and the server spends no CPU compressing per request.
// The gzip copies come from zopfli, which writes ordinary gzip 3–4 % smaller than zlib's level 9; it is
// what a browser gets over plain http (no brotli there), as on a self-hosted server in a LAN. Zopfli
// is slow, so the files are shared among worker threads, one per core (four at most).

import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

const brotli = promisify(zlib.brotliCompress);
const compressible = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (compressible.has(path.extname(entry.name))) yield full;
  }
}

/** Compresses the files, returns their bytes before and as their brotli copies. */
async function compressAll(files) {
  let before = 0;
  let afterBrotli = 0;
  for (const file of files) {
    const source = await readFile(file);
    const br = await brotli(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    // zopfli's own advice: 15 iterations for small files, fewer for big ones (within 0.1 % here).
    const gz = await gzipAsync(source, { numiterations: source.length > 100_000 ? 5 : 15 });
    // A copy that saves nothing is not worth a second file; the server then sends the original.
    if (br.length < source.length) await writeFile(`${file}.br`, br);
    if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
    before += source.length;
    afterBrotli += Math.min(br.length, source.length);
  }
  return { before, afterBrotli };
}

function runWorker(files) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: files });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`a compression worker exited ${code}`)));
  });
}

if (isMainThread) {
  const distDir = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
  const sized = [];
  for await (const file of filesUnder(distDir)) sized.push({ file, size: (await stat(file)).size });
  // Biggest first, each to the least loaded worker, so the workers finish together.
  const groups = Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4)) }, () => ({
    files: [],
    bytes: 0,
  }));
  for (const { file, size } of sized.sort((a, b) => b.size - a.size)) {
    const lightest = groups.reduce((min, group) => (group.bytes < min.bytes ? group : min));
    lightest.files.push(file);
    lightest.bytes += size;
  }
  const results = await Promise.all(groups.map((group) => runWorker(group.files)));
  const before = results.reduce((sum, r) => sum + r.before, 0);
  const afterBrotli = results.reduce((sum, r) => sum + r.afterBrotli, 0);
  const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(`precompressed ${sized.length} files: ${kib(before)} → ${kib(afterBrotli)} with brotli`);
} else {
  parentPort.postMessage(await compressAll(workerData));
}
