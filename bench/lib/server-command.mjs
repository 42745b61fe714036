// The Node flags of the product's start command (`npm start`, the root package.json), so that every bench
// starts the server the way it runs in production: `node <these flags> apps/server/dist/main.js`.
import { readFileSync } from 'node:fs';

const root = new URL('../../package.json', import.meta.url);

/** The flags between `node` and the server's main file in the root package.json's "start" script. */
export function serverNodeFlags() {
  const start = JSON.parse(readFileSync(root, 'utf8')).scripts.start;
  const words = start.trim().split(/\s+/);
  const main = words.indexOf('apps/server/dist/main.js');
  if (words[0] !== 'node' || main === -1) {
    throw new Error(`the start script is not "node [flags] apps/server/dist/main.js": ${start}`);
  }
  return words.slice(1, main);
}
