import { constants as zlibConstants } from 'node:zlib';

/**
 * How API answers are compressed (@fastify/compress, registered in app.ts): above 1 KiB, for clients that
 * ask. Brotli at a low quality costs little CPU per request; the web app's files are precompressed at
 * build and pass through untouched. gzip (what fetch asks for over plain http, and some proxies) at level
 * 1: a 200-item container read (150 KB) takes 0.5 ms instead of level 6's 1.1 ms, for 23 KB instead of
 * 18 KB on the wire (review 2026-11-23). Routes that change one setting spread these first, since a
 * route's own options replace the plugin's wholesale.
 */
export const apiCompression = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: zlibConstants.Z_BEST_SPEED },
};
